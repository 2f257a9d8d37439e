package datamodel

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortedEntries checks the encoders' key sort against slices.SortFunc with the two orders
// stated plainly (length-first then bytewise for DAG-CBOR, DECISIONS rule 9; bytewise for JSON),
// on key sets built to meet every branch: keys sharing their first 8 bytes, keys that differ
// only past them, zero bytes that the prefix's padding could confuse with a shorter key, and
// sizes on both sides of the insertion sort's and the radix sort's bounds, and keys near 255
// bytes. The heapsort fallback and the radix sort are also checked alone, at every size.
func TestSortedEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	alphabets := []string{"ab", "abc\x00", "abcdefghijklmnopqrstuvwxyz0123456789", "\x00\x01\xff", "é日🦋"}
	for round := range 400 {
		n := 1 + r.IntN(40)
		if round%10 == 0 {
			n = 200 + r.IntN(2000)
		}
		alpha := alphabets[round%len(alphabets)]
		stem := strings.Repeat("x", r.IntN(12)) // a shared prefix, shorter or longer than 8 bytes
		if round%10 == 5 {
			// Keys of about 255 bytes, where the radix sort's length digit saturates.
			n, stem = 256+r.IntN(300), strings.Repeat("y", 245+r.IntN(12))
		}
		m := make(map[string]any, n)
		for len(m) < n {
			var b strings.Builder
			b.WriteString(stem[:r.IntN(len(stem)+1)])
			for range r.IntN(14) {
				b.WriteByte(alpha[r.IntN(len(alpha))])
			}
			m[b.String()] = len(m)
		}
		for _, lengthFirst := range []bool{true, false} {
			want := make([]string, 0, n)
			for k := range m {
				want = append(want, k)
			}
			if lengthFirst {
				slices.SortFunc(want, func(a, b string) int {
					if len(a) != len(b) {
						return len(a) - len(b)
					}
					return strings.Compare(a, b)
				})
			} else {
				slices.Sort(want)
			}
			var s sortedEntries
			sorts := map[string]func(){
				"sortEntries": func() {
					entries, _ := collectMapEntries(nil, m)
					s = sortedEntries{entries, sortEntries(entries, nil, lengthFirst), lengthFirst}
				},
				"radix": func() {
					// The items of sortEntries' large-map path, sorted by the radix sort alone
					// (which sort takes from radixMinItems items).
					entries, _ := collectMapEntries(nil, m)
					s = sortedEntries{entries, nil, lengthFirst}
					for i := range entries {
						s.order = append(s.order, newSortItem(entries[i].key, i))
					}
					s.radix(s.order)
				},
				"heap": func() {
					// The items of sortEntries' large-map path, sorted by the fallback alone.
					entries, _ := collectMapEntries(nil, m)
					s = sortedEntries{entries, nil, lengthFirst}
					for i := range entries {
						s.order = append(s.order, sortItem{keyPrefix(entries[i].key), uint32(len(entries[i].key)), uint32(i)})
					}
					s.heap(s.order)
				},
			}
			for name, sort := range sorts {
				sort()
				got := make([]string, len(s.entries))
				for j := range s.entries {
					ent := &s.entries[j]
					if s.order != nil {
						ent = &s.entries[s.order[j].i]
					}
					got[j] = ent.key
					if ent.value != m[got[j]] {
						t.Fatalf("%s: key %q carries another key's value", name, got[j])
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s, lengthFirst=%v, %d keys:\ngot  %q\nwant %q", name, lengthFirst, n, got, want)
				}
			}
		}
	}
}

// TestCollectEntriesShape checks that collecting a map's entries finds the reserved keys that
// checkMapShape looks up, so that the encoders refuse the maps it refuses, with the same error.
func TestCollectEntriesShape(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	maps := []map[string]any{
		{"a": 1},
		{"$link": "x"},
		{"$bytes": "x", "$link": "y"},
		{"$type": "app.example", "a": 1},
		{"$type": ""},
		{"$type": 3},
		{"$type": "blob", "ref": link, "mimeType": "image/png", "size": int64(3)},
		{"$type": "blob", "ref": link, "mimeType": "image/png"},
		{"$type": "blob", "ref": link, "mimeType": "image/png", "size": int64(3), "x": 1},
		{"$other": 1, "$$": 2, "": 3},
	}
	for _, m := range maps {
		_, shape := collectMapEntries(nil, m)
		got, want := shape.check(m, DefaultMaxCIDLen), checkMapShape(m, DefaultMaxCIDLen)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("%v: collected shape says %v, checkMapShape %v", m, got, want)
		}
	}
}

// TestKeyPrefix checks keyPrefix against its definition at every length up to 12.
func TestKeyPrefix(t *testing.T) {
	k := "\x01\x82\x03\xf4\x05\x06\x07\x88\x09\x0a\x0b\x0c"
	for n := range len(k) + 1 {
		var want uint64
		for i := range min(n, 8) {
			want |= uint64(k[i]) << (56 - 8*i)
		}
		if got := keyPrefix(k[:n]); got != want {
			t.Errorf("keyPrefix(%q) = %#x, want %#x", k[:n], got, want)
		}
	}
}

// TestEncodeWideConcurrent encodes maps large enough for the radix sort (whose second buffer is
// pooled) from many goroutines at once (run with -race): each output must be the one the same map
// gives alone, so no goroutine sorts in another's buffer.
func TestEncodeWideConcurrent(t *testing.T) {
	const workers = 16
	maps := make([]map[string]any, workers)
	wantCBOR, wantJSON := make([][]byte, workers), make([][]byte, workers)
	for w := range maps {
		m := make(map[string]any)
		for i := range radixMinItems + 37*w {
			m[fmt.Sprintf("k%d-%d", w, i*7919%100003)] = int64(i)
		}
		maps[w] = m
		var err error
		if wantCBOR[w], err = MarshalCBOR(m); err != nil {
			t.Fatal(err)
		}
		if wantJSON[w], err = MarshalJSON(m); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for i := range 20 {
				k := (w + i) % workers
				c, err := MarshalCBOR(maps[k])
				if err != nil || !bytes.Equal(c, wantCBOR[k]) {
					errs <- fmt.Errorf("map %d: MarshalCBOR differs from its output alone (%v)", k, err)
					return
				}
				j, err := MarshalJSON(maps[k])
				if err != nil || !bytes.Equal(j, wantJSON[k]) {
					errs <- fmt.Errorf("map %d: MarshalJSON differs from its output alone (%v)", k, err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkSortItems times the two sorts of a large map's items on random keys of 1 to 16 bytes,
// in both orders: the evidence for radixMinItems.
func BenchmarkSortItems(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1024, 2048, 4096, 32768} {
		m := map[string]any{}
		for len(m) < n {
			k := make([]byte, 1+r.IntN(16))
			for i := range k {
				k[i] = byte('a' + r.IntN(26))
			}
			m[string(k)] = 1
		}
		entries, _ := collectMapEntries(nil, m)
		items := make([]sortItem, len(entries))
		for i := range entries {
			items[i] = newSortItem(entries[i].key, i)
		}
		work := make([]sortItem, len(items))
		for _, lengthFirst := range []bool{true, false} {
			s := sortedEntries{entries, work, lengthFirst}
			b.Run(fmt.Sprintf("n=%d/lengthFirst=%v/sort=quick", n, lengthFirst), func(b *testing.B) {
				for b.Loop() {
					copy(work, items)
					s.quick(work, 2*bits.Len(uint(len(work))))
				}
			})
			b.Run(fmt.Sprintf("n=%d/lengthFirst=%v/sort=radix", n, lengthFirst), func(b *testing.B) {
				for b.Loop() {
					copy(work, items)
					s.radix(work)
				}
			})
		}
	}
}
