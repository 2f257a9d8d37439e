package datamodel

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// The attacks of issue 12, each a regression test: hostile inputs and options that must not
// crash, stall or balloon a service. TestReliability runs every row and checks its outcome and
// its bound on bytes allocated per input byte; TestReliabilityDocument writes what it measured
// to ../RELIABILITY.md (with -update) or checks that the file still lists every row.

// attack is one hostile call: run makes it on the input built once by input.
type attack struct {
	item    string // the item of issue 12 it comes from, or "" for one added since
	name    string // what the attacker does
	call    string // the entry point
	input   func() any
	size    func(in any) int // input bytes; nil: len of the []byte input
	run     func(in any) error
	want    error   // the sentinel run must return; nil: no error
	perByte float64 // bound on bytes allocated per input byte (0: 32, the budget of issue 12)
	runs    int     // calls averaged (0: 4)
}

// raised is the option an attacker hopes lifts the depth limit: it is clamped to
// MaxDepthCeiling.
var raised = WithLimits(Limits{MaxDepth: math.MaxInt32})

// nested returns open repeated n times, then leaf, then close repeated n times.
func nested(open, leaf, close string, n int) []byte {
	b := make([]byte, 0, n*(len(open)+len(close))+len(leaf))
	for range n {
		b = append(b, open...)
	}
	b = append(b, leaf...)
	for range n {
		b = append(b, close...)
	}
	return b
}

// deepArray returns a Go value of n arrays, one inside the other, built without recursion.
func deepArray(n int) any {
	var v any = []any{}
	for range n - 1 {
		v = []any{v}
	}
	return v
}

// keyedCBOR returns n maps nested under keys of keyLen bytes each, with leaf at the bottom, and
// the matching JSON: the error at the bottom carries a path of n long tokens.
func keyedCBOR(n, keyLen int, leaf []byte) []byte {
	key := bytes.Repeat([]byte{'k'}, keyLen)
	head := append([]byte{0xa1, 0x79, byte(keyLen >> 8), byte(keyLen)}, key...)
	b := bytes.Repeat(head, n)
	return append(b, leaf...)
}

func keyedJSON(n, keyLen int, leaf string) []byte {
	return nested(`{"`+strings.Repeat("k", keyLen)+`":`, leaf, "}", n)
}

func bytesIn(in any) []byte { return in.([]byte) }

// The fixed shapes under small limits (item 4).
var (
	keyLen7 = WithLimits(Limits{MaxKeyLen: 7})
	keyLen4 = WithLimits(Limits{MaxKeyLen: 4})
	elems3  = WithLimits(Limits{MaxElements: 3})
)

func blobValue() any {
	v, err := UnmarshalJSON(blobJSON().([]byte))
	if err != nil {
		panic(err)
	}
	return v
}

func blobJSON() any {
	return []byte(`{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/png","size":1}`)
}

func blobCBOR() any {
	b, err := MarshalCBOR(blobValue())
	if err != nil {
		panic(err)
	}
	return b
}

func marshal(_ []byte, err error) error { return err }

// sameErr returns the first error if every one has its sentinel, or an error saying they differ.
func sameErr(errs ...error) error {
	for _, err := range errs[1:] {
		var a, b *Error
		if errors.As(errs[0], &a) != errors.As(err, &b) || a != nil && b != nil && a.Err != b.Err {
			return fmt.Errorf("entry points disagree: %v, %v", errs[0], err)
		}
	}
	return errs[0]
}

// selfRef is a recursive struct type, which fxamacker would follow forever.
type selfRef struct {
	Next *selfRef `cbor:"next"`
}

// The worst shapes of item 5 within the budget: as many copies of a small item as MaxValues
// allows (each item holds per values), in arrays of 64, then one string that fills the input up
// to size bytes, so that the whole input is read and decoded. A decoder's memory is then the most
// the budget lets a record of size bytes take.

// worstCount is how many items of per values fit in the default budget with their arrays.
func worstCount(per int) int {
	return (DefaultMaxValues - 4) * 64 / (per*64 + 1)
}

func worstCBOR(item string, per, size int) []byte {
	n := worstCount(per)
	b := []byte{0x82} // [items, filler]
	b = cborAppendHead(b, cborMajorArray, uint64((n+63)/64))
	for i := 0; i < n; i += 64 {
		k := min(64, n-i)
		b = cborAppendHead(b, cborMajorArray, uint64(k))
		b = append(b, bytes.Repeat([]byte(item), k)...)
	}
	fill := size - len(b) - 9
	b = cborAppendHead(b, cborMajorText, uint64(fill))
	return append(b, bytes.Repeat([]byte{'a'}, fill)...)
}

func worstJSON(item string, per, size int) []byte {
	n := worstCount(per)
	b := []byte("[[")
	for i := 0; i < n; i += 64 {
		if i > 0 {
			b = append(b, ',')
		}
		k := min(64, n-i)
		b = append(b, '[')
		b = append(b, bytes.Repeat([]byte(item+","), k)...)
		b[len(b)-1] = ']'
	}
	b = append(b, `],"`...)
	b = append(b, bytes.Repeat([]byte{'a'}, size-len(b)-2)...)
	return append(b, `"]`...)
}

// fullCBOR is the shape issue 12 measured: size bytes of copies of item, in arrays of 64.
func fullCBOR(item string, size int) []byte {
	n := (size - 9) * 64 / (64*len(item) + 2) // heads: 0x98 0x40 per array of 64
	b := cborAppendHead(nil, cborMajorArray, uint64((n+63)/64))
	for i := 0; i < n; i += 64 {
		k := min(64, n-i)
		b = cborAppendHead(b, cborMajorArray, uint64(k))
		b = append(b, bytes.Repeat([]byte(item), k)...)
	}
	return b
}

func attacks() []attack {
	deep := func() any { return append(bytes.Repeat([]byte{0x81}, 1<<20-1), 0x80) } // 2^20 levels, 1 MiB
	deepJSON := func() any { return nested("[", "", "]", 1<<20) }                   // 2 MiB
	var sink any
	return []attack{
		{item: "1", name: "2^20 nested arrays, MaxDepth raised to MaxInt32", call: "ScanCBOR", input: deep,
			run: func(in any) error { return ScanCBOR(bytesIn(in), raised) }, want: ErrTooDeep},
		{item: "1", name: "2^20 nested arrays, MaxDepth raised", call: "UnmarshalCBOR", input: deep,
			run: func(in any) error { _, err := UnmarshalCBOR(bytesIn(in), raised); return err }, want: ErrTooDeep},
		{item: "1", name: "2^20 nested arrays, MaxDepth raised", call: "UnmarshalCBORStruct", input: deep,
			run: func(in any) error { return UnmarshalCBORStruct(bytesIn(in), &sink, raised) }, want: ErrTooDeep},
		{item: "1", name: "2^20 nested arrays, MaxDepth raised", call: "CBORToJSON", input: deep,
			run: func(in any) error { _, err := CBORToJSON(bytesIn(in), raised); return err }, want: ErrTooDeep},
		{item: "1", name: "2^20 nested arrays `[[…]]`, MaxDepth raised", call: "UnmarshalJSON", input: deepJSON,
			run: func(in any) error { _, err := UnmarshalJSON(bytesIn(in), raised); return err }, want: ErrTooDeep},
		{item: "1", name: "MaxDepthCeiling nested arrays, MaxDepth raised (the deepest accepted)", call: "UnmarshalCBORStruct",
			input: func() any { return append(bytes.Repeat([]byte{0x81}, MaxDepthCeiling-1), 0x80) },
			run:   func(in any) error { return UnmarshalCBORStruct(bytesIn(in), &sink, raised) }, perByte: 1000},
		{item: "1", name: "a Go value of 2^20 nested arrays, MaxDepth raised", call: "MarshalJSON",
			input: func() any { return deepArray(1 << 20) }, size: func(any) int { return 1 << 20 },
			run: func(in any) error { _, err := MarshalJSON(in, raised); return err }, want: ErrTooDeep},
		{item: "1", name: "a Go value of 2^20 nested arrays, MaxDepth raised", call: "MarshalCBOR",
			input: func() any { return deepArray(1 << 20) }, size: func(any) int { return 1 << 20 },
			run: func(in any) error { _, err := MarshalCBOR(in, raised); return err }, want: ErrTooDeep},
		{item: "1", name: "a Go value of 2^20 nested arrays", call: "MarshalCBORStruct",
			input: func() any { return deepArray(1 << 20) }, size: func(any) int { return 1 << 20 },
			run: func(in any) error { _, err := MarshalCBORStruct(in); return err }, want: ErrTooDeep},
		{item: "1", name: "a Go value of 2^20 nested arrays", call: "Links, Blobs",
			input: func() any { return deepArray(1 << 20) }, size: func(any) int { return 1 << 20 },
			run: func(in any) error { _, _ = Links(in), Blobs(in); return nil }},

		{item: "2", name: "an error at the bottom of 1023 maps under 1000-byte keys (1 MiB), MaxDepth raised", call: "ScanCBOR",
			input: func() any { return keyedCBOR(MaxDepthCeiling-1, 1000, []byte{0xf9, 0, 0}) },
			run:   func(in any) error { return ScanCBOR(bytesIn(in), raised) }, want: ErrFloat, perByte: 8},
		{item: "2", name: "the same", call: "UnmarshalCBOR",
			input: func() any { return keyedCBOR(MaxDepthCeiling-1, 1000, []byte{0xf9, 0, 0}) },
			run:   func(in any) error { _, err := UnmarshalCBOR(bytesIn(in), raised); return err }, want: ErrFloat, perByte: 8},
		{item: "2", name: "`[[…[1.5]…]]` 1023 deep, MaxDepth raised", call: "UnmarshalJSON",
			input: func() any { return nested("[", "1.5", "]", MaxDepthCeiling-1) },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in), raised); return err }, want: ErrFraction, perByte: 32},
		{item: "2", name: "1.5 at the bottom of 1023 objects under 1000-byte keys (1 MiB), MaxDepth raised", call: "UnmarshalJSON",
			input: func() any { return keyedJSON(MaxDepthCeiling-1, 1000, "1.5") },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in), raised); return err }, want: ErrFraction, perByte: 8},

		{item: "3", name: "a map that contains itself, MaxDepth raised", call: "Validate",
			input: func() any { m := map[string]any{}; m["x"] = m; return m }, size: func(any) int { return 1 },
			run: func(in any) error { return Validate(in, raised) }, want: ErrTooDeep, perByte: math.Inf(1)},
		{item: "3", name: "an array that contains itself, MaxDepth raised", call: "Validate",
			input: func() any { a := []any{nil}; a[0] = a; return a }, size: func(any) int { return 1 },
			run: func(in any) error { return Validate(in, raised) }, want: ErrTooDeep, perByte: math.Inf(1)},
		{item: "3", name: "a map that contains itself, MaxDepth raised", call: "MarshalCBOR",
			input: func() any { m := map[string]any{}; m["x"] = m; return m }, size: func(any) int { return 1 },
			run: func(in any) error { _, err := MarshalCBOR(in, raised); return err }, want: ErrTooDeep, perByte: math.Inf(1)},
		{item: "3", name: "a map that contains itself, MaxDepth raised", call: "MarshalJSON",
			input: func() any { m := map[string]any{}; m["x"] = m; return m }, size: func(any) int { return 1 },
			run: func(in any) error { _, err := MarshalJSON(in, raised); return err }, want: ErrTooDeep, perByte: math.Inf(1)},
		{item: "3", name: "a map that contains itself", call: "MarshalCBORStruct",
			input: func() any { m := map[string]any{}; m["x"] = m; return m }, size: func(any) int { return 1 },
			run: func(in any) error { _, err := MarshalCBORStruct(in); return err }, want: ErrTooDeep, perByte: math.Inf(1)},
		{item: "3", name: "a struct whose field holds the struct", call: "MarshalCBORStruct",
			input: func() any { s := &selfRef{}; s.Next = s; return s }, size: func(any) int { return 1 },
			run: func(in any) error { _, err := MarshalCBORStruct(in); return err }, want: ErrTooDeep, perByte: math.Inf(1)},
		{item: "3", name: "a map that contains itself", call: "Links, Blobs",
			input: func() any { m := map[string]any{}; m["x"] = m; return m }, size: func(any) int { return 1 },
			run: func(in any) error { _, _ = Links(in), Blobs(in); return nil }, perByte: math.Inf(1)},

		{item: "4", name: "a blob, MaxKeyLen 7 (its key mimeType has 8 bytes)", call: "ScanCBOR", input: blobCBOR,
			run: func(in any) error { return ScanCBOR(bytesIn(in), keyLen7) }, want: ErrKeyTooLong, perByte: math.Inf(1)},
		{item: "4", name: "the same", call: "UnmarshalCBOR", input: blobCBOR,
			run: func(in any) error { _, err := UnmarshalCBOR(bytesIn(in), keyLen7); return err }, want: ErrKeyTooLong, perByte: math.Inf(1)},
		{item: "4", name: "the same", call: "UnmarshalJSON", input: blobJSON,
			run: func(in any) error { _, err := UnmarshalJSON(bytesIn(in), keyLen7); return err }, want: ErrKeyTooLong, perByte: math.Inf(1)},
		{item: "4", name: "the same", call: "Validate, MarshalCBOR, MarshalJSON", input: blobValue, size: func(any) int { return 1 },
			run: func(in any) error {
				return sameErr(Validate(in, keyLen7), marshal(MarshalCBOR(in, keyLen7)), marshal(MarshalJSON(in, keyLen7)))
			},
			want: ErrKeyTooLong, perByte: math.Inf(1)},
		{item: "4", name: "a link written by MarshalJSON, MaxKeyLen 4 (\"$link\" has 5 bytes)", call: "UnmarshalJSON",
			input: func() any { b, _ := MarshalJSON([]any{blobValue().(Blob).Ref}, keyLen4); return b },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in), keyLen4); return err }, perByte: math.Inf(1)},
		{item: "4", name: "a blob, MaxElements 3 (it is a map of 4)", call: "ScanCBOR, UnmarshalCBOR, Validate, MarshalCBOR, MarshalJSON", input: blobValue, size: func(any) int { return 1 },
			run: func(in any) error {
				c, _ := MarshalCBOR(in)
				_, err := UnmarshalCBOR(c, elems3)
				return sameErr(ScanCBOR(c, elems3), err, Validate(in, elems3), marshal(MarshalCBOR(in, elems3)), marshal(MarshalJSON(in, elems3)))
			}, want: ErrTooManyElements, perByte: math.Inf(1)},
		{item: "5", name: "one-key maps `a1 60 f6`, as many as MaxValues allows, and a string: 1 MiB", call: "UnmarshalCBOR",
			input: func() any { return worstCBOR("\xa1\x60\xf6", 2, DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalCBOR(bytesIn(in)); return err }},
		{item: "5", name: "the same", call: "UnmarshalCBORStruct",
			input: func() any { return worstCBOR("\xa1\x60\xf6", 2, DefaultMaxCBORSize) },
			run:   func(in any) error { return UnmarshalCBORStruct(bytesIn(in), &sink) }},
		{item: "5", name: "1 MiB of one-key maps (more values than MaxValues allows)", call: "UnmarshalCBOR",
			input: func() any { return fullCBOR("\xa1\x60\xf6", DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalCBOR(bytesIn(in)); return err }, want: ErrTooManyValues},
		{item: "5", name: "one-key maps, as many as MaxValues allows, alone (225 KB): the budget caps the total, not the ratio", call: "UnmarshalCBOR",
			input: func() any { return worstCBOR("\xa1\x60\xf6", 2, 3*worstCount(2)+worstCount(2)/64*2+20) },
			run:   func(in any) error { _, err := UnmarshalCBOR(bytesIn(in)); return err }, perByte: 160},
		{item: "5", name: "empty maps, as many as MaxValues allows, and a string: 1 MiB", call: "UnmarshalCBOR",
			input: func() any { return worstCBOR("\xa0", 1, DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalCBOR(bytesIn(in)); return err }},
		{item: "5", name: "the same", call: "UnmarshalCBORStruct",
			input: func() any { return worstCBOR("\xa0", 1, DefaultMaxCBORSize) },
			run:   func(in any) error { return UnmarshalCBORStruct(bytesIn(in), &sink) }},
		{item: "5", name: "empty arrays, as many as MaxValues allows, and a string: 1 MiB", call: "UnmarshalCBOR",
			input: func() any { return worstCBOR("\x80", 1, DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalCBOR(bytesIn(in)); return err }},
		{item: "5", name: "`{\"\":0}`, as many as MaxValues allows, and a string: 2 MiB", call: "UnmarshalJSON",
			input: func() any { return worstJSON(`{"":0}`, 2, DefaultMaxJSONSize) },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in)); return err }},
		{item: "5", name: "the same, 1 MiB", call: "UnmarshalJSON",
			input: func() any { return worstJSON(`{"":0}`, 2, DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in)); return err }},
		{item: "5", name: "`{}`, as many as MaxValues allows, and a string: 1 MiB", call: "UnmarshalJSON",
			input: func() any { return worstJSON(`{}`, 1, DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in)); return err }},
		{item: "5", name: "`[]`, as many as MaxValues allows, and a string: 1 MiB", call: "UnmarshalJSON",
			input: func() any { return worstJSON(`[]`, 1, DefaultMaxCBORSize) },
			run:   func(in any) error { _, err := UnmarshalJSON(bytesIn(in)); return err }},
		{item: "5", name: "the largest record of testdata/records (list, 1215 values)", call: "UnmarshalCBOR",
			input: func() any {
				c, err := os.ReadFile(filepath.Join("..", "testdata", "records", "list.cbor"))
				if err != nil {
					panic(err)
				}
				return c
			},
			run: func(in any) error { _, err := UnmarshalCBOR(bytesIn(in)); return err }, perByte: 32},
		{item: "6", name: "1023 records nested in each other's union field, \"$type\" last in each, MaxDepth raised", call: "Registry.DecodeJSON",
			input: func() any { return unionNestJSON(MaxDepthCeiling-1, true) },
			run:   func(in any) error { _, err := unionNestRegistry().DecodeJSON(bytesIn(in), raised); return err }},
		{item: "6", name: "the same in DAG-CBOR, where the union field's key sorts before \"$type\"", call: "Registry.DecodeCBOR",
			input: func() any { return unionNestCBOR(nil, MaxDepthCeiling-1) },
			run:   func(in any) error { _, err := unionNestRegistry().DecodeCBOR(bytesIn(in), raised); return err }},
		{item: "6", name: "a 70 KB value read a byte at a time, a head the stream's skip does not follow inside an array whose count is still to come", call: "CBORDecoder.Decode",
			input: func() any { return slowStreamCBOR() },
			run: func(in any) error {
				_, err := NewCBORDecoder(iotest.OneByteReader(bytes.NewReader(bytesIn(in)))).Decode()
				return err
			}, want: ErrSyntax},
	}
}

// measured is what one attack cost.
type measured struct {
	size    int
	perCall time.Duration
	alloc   uint64 // bytes allocated per call
	err     error
}

// measure makes the attack's call a.runs times at GOMAXPROCS 1 and averages the time and the
// bytes allocated (runtime.MemStats.TotalAlloc, which counts every goroutine: over several calls
// the test's own are noise).
func measure(a attack) measured {
	in := a.input()
	m := measured{}
	if a.size != nil {
		m.size = a.size(in)
	} else {
		m.size = len(in.([]byte))
	}
	runs := a.runs
	if runs == 0 {
		runs = 4
	}
	if cborRaceEnabled {
		runs = 1 // the race detector makes each call several times slower
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	m.err = a.run(in) // warm up: pools, the struct decoder cache
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for range runs {
		a.run(in)
	}
	m.perCall = time.Since(start) / time.Duration(runs)
	runtime.ReadMemStats(&after)
	m.alloc = (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
	return m
}

func (a attack) bound() float64 {
	if a.perByte == 0 {
		return 32
	}
	return a.perByte
}

func TestReliability(t *testing.T) {
	for _, a := range attacks() {
		t.Run(a.call+"/"+a.name, func(t *testing.T) {
			m := measure(a)
			if a.want == nil && m.err != nil || !errors.Is(m.err, a.want) {
				t.Fatalf("got %v, want %v", m.err, a.want)
			}
			if per := float64(m.alloc) / float64(m.size); per > a.bound() {
				t.Errorf("%d bytes allocated for %d input bytes: %.1f per byte, bound %g", m.alloc, m.size, per, a.bound())
			}
			t.Logf("%d bytes, %v, %d bytes allocated per call: %s", m.size, m.perCall, m.alloc, resultOf(m.err))
		})
	}
}

// stackWalkers are the recursive walkers of trees, each called at MaxDepthCeiling on nested maps
// (the costlier shape for each: sorted keys in stack arrays) by TestStackPerLevel.
func stackWalkers() []struct {
	name string
	run  func()
} {
	n := MaxDepthCeiling
	cb := append(bytes.Repeat([]byte{0xa1, 0x60}, n-1), 0xa0)
	js := nested(`{"":`, "{}", "}", n-1)
	v, err := UnmarshalCBOR(cb, raised)
	if err != nil {
		panic(err)
	}
	var sink any
	return []struct {
		name string
		run  func()
	}{
		{"ScanCBOR", func() { _ = ScanCBOR(cb, raised) }},
		{"UnmarshalCBOR", func() { _, _ = UnmarshalCBOR(cb, raised) }},
		{"UnmarshalCBORStruct", func() { _ = UnmarshalCBORStruct(cb, &sink, raised) }},
		{"UnmarshalJSON", func() { _, _ = UnmarshalJSON(js, raised) }},
		{"MarshalCBOR", func() { _, _ = MarshalCBOR(v, raised) }},
		{"MarshalJSON", func() { _, _ = MarshalJSON(v, raised) }},
		{"Validate", func() { _ = Validate(v, raised) }},
		{"Links", func() { _ = Links(v) }},
	}
}

// stackPerLevel runs f on a fresh goroutine with the collector off and returns the stack the
// goroutine grew to, per level of nesting: an upper bound, since the stacks it outgrew are
// counted too.
func stackPerLevel(f func(), levels int) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	runtime.GC()
	done := make(chan uint64)
	go func() {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		done <- (b.StackInuse - a.StackInuse) / uint64(levels)
	}()
	return <-done
}

// TestStackPerLevel measures each walker's stack at MaxDepthCeiling levels: the ceiling times
// the worst figure must stay far below Go's 1 GB maximum stack (here: under 64 MB).
func TestStackPerLevel(t *testing.T) {
	for _, w := range stackWalkers() {
		per := stackPerLevel(w.run, MaxDepthCeiling)
		if per > 1<<20 { // StackInuse went down: a stack shrank elsewhere; the figure is void
			t.Logf("%s: not measured", w.name)
			continue
		}
		t.Logf("%-20s ≤ %5d stack bytes per level, ≤ %.1f MB at the ceiling", w.name, per, float64(per)*MaxDepthCeiling/1e6)
		if per*MaxDepthCeiling > 64<<20 {
			t.Errorf("%s: %d bytes of stack per level, %d at the ceiling", w.name, per, per*MaxDepthCeiling)
		}
	}
}

// TestReliabilityDocument writes ../RELIABILITY.md from the attacks and what they cost on this
// machine, with -update; otherwise it checks that the file lists every attack.
func TestReliabilityDocument(t *testing.T) {
	path := filepath.Join("..", "RELIABILITY.md")
	if !*cborUpdate {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range attacks() {
			if !bytes.Contains(doc, []byte(attackRow(a))) {
				t.Errorf("RELIABILITY.md lacks %q; run go test -run TestReliabilityDocument -update", attackRow(a))
			}
		}
		return
	}
	var b strings.Builder
	b.WriteString(reliabilityIntro)
	b.WriteString("| item | attack | entry point | input bytes | result | time per call | allocated per call | per input byte |\n|---|---|---|---|---|---|---|---|\n")
	for _, a := range attacks() {
		m := measure(a)
		size, per := strconv.Itoa(m.size), fmt.Sprintf("%.1f", float64(m.alloc)/float64(m.size))
		if a.size != nil {
			size, per = "(Go value)", "—"
		}
		fmt.Fprintf(&b, "%s %s | %s | %v | %s | %s |\n", attackRow(a), size, resultOf(m.err), m.perCall.Round(time.Microsecond), mib(m.alloc), per)
	}
	b.WriteString("\n## Stack per level of nesting, at MaxDepthCeiling\n\n")
	fmt.Fprintf(&b, "Each walker decoding, encoding or walking %d nested maps (`TestStackPerLevel`; an upper bound:\nthe stacks a goroutine outgrows are counted too).\n\n| walker | stack bytes per level | at the ceiling |\n|---|---|---|\n", MaxDepthCeiling)
	for _, w := range stackWalkers() {
		per := stackPerLevel(w.run, MaxDepthCeiling)
		fmt.Fprintf(&b, "| `%s` | ≤ %d | ≤ %s |\n", w.name, per, mib(per*MaxDepthCeiling))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func attackRow(a attack) string {
	return fmt.Sprintf("| %s | %s | `%s` |", a.item, a.name, a.call)
}

func mib(n uint64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// resultOf says what a call returned: "accepted" or the sentinel of its error.
func resultOf(err error) string {
	var e *Error
	if err == nil {
		return "accepted"
	} else if errors.As(err, &e) {
		return "`" + errName(e.Err) + "`"
	}
	return err.Error()
}

// errName is the name of a sentinel, for the document.
func errName(err error) string {
	for name, s := range map[string]error{"ErrTooManyValues": ErrTooManyValues, "ErrTooDeep": ErrTooDeep, "ErrFloat": ErrFloat, "ErrFraction": ErrFraction,
		"ErrTooManyElements": ErrTooManyElements, "ErrKeyTooLong": ErrKeyTooLong, "ErrTooLarge": ErrTooLarge,
		"ErrBlob": ErrBlob, "ErrLink": ErrLink, "ErrSyntax": ErrSyntax} {
		if err == s {
			return name
		}
	}
	return err.Error()
}

const reliabilityIntro = `# Reliability: hostile input and hostile options

Generated by ` + "`datamodel`" + ` (` + "`go test -run TestReliabilityDocument -update`" + `); ` + "`TestReliability`" + ` runs every row
below as a regression test and checks its result and its bound on bytes allocated per input byte
(32 unless the row says otherwise in the test). The figures are one machine's (2 shared cores,
GOMAXPROCS 1, averaged over several calls) and vary from run to run; the results do not.

Items 1–6 are six kinds of attack: input nested far past the default limits, with ` + "`MaxDepth`" + `
raised, which must not kill the process with a fatal stack overflow (item 1); an error at the
bottom of deep input, whose path must not take quadratic time to build (item 2); a cyclic value
given to ` + "`Validate`" + `, the encoders, ` + "`Links`" + ` and ` + "`Blobs`" + ` (item 3); limits smaller than the fixed shapes, which must be
applied evenly (item 4); many small containers, which must not cost many bytes per input byte
(item 5); and input whose work must grow with its bytes, not with its bytes times its depth or
times the reads it arrives in (item 6). ` + "`MaxDepth`" + ` is clamped to ` + "`MaxDepthCeiling`" + ` (1024) by every entry point, error paths are built in linear time, every
limit means the same at every entry point (` + "`FuzzLimits`" + ` draws random limits, small ones
included, and checks that the scanner, both decoders, the struct path, both encoders and
` + "`Validate`" + ` accept exactly the same values), and a record holds at most ` + "`MaxValues`" + ` values
(150,000 by default).

The budget bounds the total, not the ratio: a record of fewer bytes than the size limit can still
take up to the ~30 MB the budget allows (the 225 KB row). A Go value has no input bytes; its rows
give no ratio.

`
