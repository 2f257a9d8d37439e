package datamodel

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// refCBORHead is a shortest-form CBOR head written independently of cborAppendHead.
func refCBORHead(major byte, n uint64) []byte {
	switch {
	case n < 24:
		return []byte{major<<5 | byte(n)}
	case n < 1<<8:
		return []byte{major<<5 | 24, byte(n)}
	case n < 1<<16:
		return []byte{major<<5 | 25, byte(n >> 8), byte(n)}
	case n < 1<<32:
		return []byte{major<<5 | 26, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	}
	b := []byte{major<<5 | 27}
	for s := 56; s >= 0; s -= 8 {
		b = append(b, byte(n>>s))
	}
	return b
}

// refCBOR is an independent canonical DAG-CBOR encoder for the generic types (DECISIONS rule 9):
// keys sorted length-first then bytewise by slices.SortFunc, heads by refCBORHead.
func refCBOR(v any) []byte {
	switch x := v.(type) {
	case nil:
		return []byte{0xf6}
	case bool:
		if x {
			return []byte{0xf5}
		}
		return []byte{0xf4}
	case int64:
		if x >= 0 {
			return refCBORHead(0, uint64(x))
		}
		return refCBORHead(1, uint64(-(x + 1)))
	case string:
		return append(refCBORHead(3, uint64(len(x))), x...)
	case Bytes:
		return append(refCBORHead(2, uint64(len(x))), x...)
	case Link:
		b := []byte(x.CID().KeyString())
		out := append([]byte{0xd8, 42}, refCBORHead(2, uint64(len(b)+1))...)
		return append(append(out, 0), b...)
	case []any:
		out := refCBORHead(4, uint64(len(x)))
		for _, e := range x {
			out = append(out, refCBOR(e)...)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			if len(a) != len(b) {
				return len(a) - len(b)
			}
			return strings.Compare(a, b)
		})
		out := refCBORHead(5, uint64(len(x)))
		for _, k := range keys {
			out = append(out, refCBOR(k)...)
			out = append(out, refCBOR(x[k])...)
		}
		return out
	}
	panic("refCBOR: unexpected type")
}

// TestLongKeysLengthFirst: a map large enough for the radix sort (radixMinItems) with keys
// of 255 bytes and more, of different lengths and first bytes. DECISIONS rule 9: "map keys are
// text, sorted length-first then bytewise"; the 256-byte key must come before the 300-byte one
// whatever their first bytes. The radix sort's length digit saturates at 255, and the keys were
// ordered by their first 8 bytes instead, which UnmarshalCBOR refuses (ErrUnsortedKeys).
func TestLongKeysLengthFirst(t *testing.T) {
	m := map[string]any{}
	for i := range 2100 {
		m["k"+strconv.Itoa(i)] = int64(i)
	}
	m[strings.Repeat("z", 256)] = int64(1)
	m[strings.Repeat("b", 300)] = int64(2)
	m[strings.Repeat("m", 255)] = int64(3)
	m[strings.Repeat("a", 1000)] = int64(4)
	want := refCBOR(m)
	type rec struct {
		M map[string]any `cbor:"m"`
	}
	for name, enc := range map[string]func() ([]byte, error){
		"MarshalCBOR":       func() ([]byte, error) { return MarshalCBOR(m) },
		"MarshalCBORStruct": func() ([]byte, error) { return MarshalCBORStruct(m) },
		"struct field": func() ([]byte, error) {
			b, err := MarshalCBORStruct(rec{m})
			if err != nil {
				return nil, err
			}
			return b[len(refCBOR(map[string]any{"m": nil}))-1:], nil // past {"m":
		},
	} {
		out, err := enc()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(out, want) {
			_, derr := UnmarshalCBOR(out)
			t.Errorf("%s: not the canonical encoding (UnmarshalCBOR refuses it with ErrUnsortedKeys: %v)", name, errors.Is(derr, ErrUnsortedKeys))
		}
	}
}
