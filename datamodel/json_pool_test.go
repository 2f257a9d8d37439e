package datamodel

// The JSON decoder's pool, its spare and its string arena: results that outlive the decoder,
// decoders shared by goroutines and dropped by collections.

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Decoders come from a pool (or its spare, after collections) and results point into per-call
// slabs: concurrent decodes (run with -race) must neither share scratch space nor see each
// other's values.
func TestUnmarshalJSONConcurrent(t *testing.T) {
	type job struct {
		in   []byte
		want any
	}
	var jobs []job
	for _, name := range recordNames {
		js, _ := readRecord(t, name)
		v, err := UnmarshalJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{js, v})
	}
	jobs = append(jobs, job{[]byte(`{"a":1.5}`), nil}) // errors go through the pool too
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if g%4 == 0 && i%5 == 0 {
					// Two collections empty the pool: decoders then come from the spare, and
					// the puts that follow return one to the spare or copy its caches into a
					// new one (putJSONDecoder), while others decode.
					runtime.GC()
					runtime.GC()
				}
				j := jobs[(g+i)%len(jobs)]
				got, err := UnmarshalJSON(j.in)
				if j.want == nil {
					if !errors.Is(err, ErrFraction) {
						errs <- fmt.Errorf("want ErrFraction, got %v", err)
						return
					}
					continue
				}
				if err != nil || !reflect.DeepEqual(got, j.want) {
					errs <- fmt.Errorf("concurrent decode differs: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// jsonArenaTestInput is an object whose strings fill several chunks of the decoder's string
// arena: a first string longer than a chunk, then keys too long for the key caches, plain and
// escaped strings, empty ones and links. tag changes every string's content but no length.
func jsonArenaTestInput(tag byte) []byte {
	var b strings.Builder
	b.WriteString(`{"long":"` + strings.Repeat(string(tag), 20000) + `"`)
	for i := range 300 {
		fmt.Fprintf(&b, `,"key-%03d-%s":`, i, strings.Repeat(string(tag), 48))
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `"plain %c %d"`, tag, i)
		case 1:
			fmt.Fprintf(&b, `"esc\"aped \u00e9 %c\\ %d"`, tag, i)
		case 2:
			b.WriteString(`""`)
		case 3:
			b.WriteString(`{"$link":"` + jsonTestCBORCID + `"}`)
		}
	}
	b.WriteString("}")
	return []byte(b.String())
}

// TestUnmarshalJSONNoAlias: the decoded strings are copies, in the decoder's string arena, of
// neither the input nor the scratch buffer escaped strings are unescaped into: overwriting the
// input, then decoding other escaped strings with the same pooled decoder, changes nothing in the
// result. Both the generic and the typed path carve strings.
func TestUnmarshalJSONNoAlias(t *testing.T) {
	inputs := [][]byte{jsonArenaTestInput('a')}
	for _, name := range recordNames {
		js, _ := readRecord(t, name)
		inputs = append(inputs, js)
	}
	clobber := func(in []byte) {
		for i := range in {
			if in[i] > ' ' && in[i] != '"' && in[i] != '\\' {
				in[i] = 'z'
			}
		}
		if _, err := UnmarshalJSON(jsonArenaTestInput('b')); err != nil {
			t.Fatal(err)
		}
	}
	for i, pristine := range inputs {
		want, err := UnmarshalJSON(bytes.Clone(pristine))
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		in := bytes.Clone(pristine)
		got, err := UnmarshalJSON(in)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		clobber(in)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("input %d: the result changed when the input and the scratch buffer were overwritten", i)
		}
	}

	in := []byte(`{"s":"q\"uoted \u00e9","langs":["en","` + strings.Repeat("x", 5000) + `"]}`)
	var got typedTestFields
	if err := UnmarshalJSONStruct(in, &got); err != nil {
		t.Fatal(err)
	}
	clobber(in)
	if got.S != "q\"uoted é" || len(got.Langs) != 2 || got.Langs[0] != "en" || got.Langs[1] != strings.Repeat("x", 5000) {
		t.Errorf("UnmarshalJSONStruct: the result changed when the input and the scratch buffer were overwritten: %q, %d langs", got.S, len(got.Langs))
	}
}

// After the collections that empty the decoder pool, a decode starts from the spare decoder, with
// the caches of the decoders before it: it allocates what a decode from the pool does, its
// scratch stacks (which the spare does not keep) and one copy of the caches for the next spare,
// not a new decoder and every key of the record again (post: 37 allocations against 32 from the
// pool; 68 without the spare).
func TestUnmarshalJSONSpareAfterGC(t *testing.T) {
	js, _ := readRecord(t, "post")
	mallocs := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.Mallocs
	}
	decode := func() uint64 {
		before := mallocs()
		if _, err := UnmarshalJSON(js); err != nil {
			t.Fatal(err)
		}
		return mallocs() - before
	}
	// The spare is a copy of the caches made when a decode put back found none: the first
	// decode after two collections takes the spare there is, and leaves a copy of its own
	// caches, which hold the post's keys, for the next.
	decode()
	runtime.GC()
	runtime.GC()
	decode()
	pooled := decode()
	runtime.GC()
	runtime.GC()
	afterGC := decode()
	if afterGC > pooled+8 {
		t.Errorf("a decode after two collections made %d allocations, one from the pool %d: want at most 8 more", afterGC, pooled)
	}
}
