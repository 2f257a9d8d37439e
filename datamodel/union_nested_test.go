package datamodel

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// unionNest is a record whose union field holds another of itself, as a reply holds its parent's
// embed: the shape in which each member's look for its "$type" could skip every member nested in
// it again (typedJSONDecoder.union).
type unionNest struct {
	Type string `cbor:"$type"`
	In   Union  `cbor:"in,omitempty"`
	N    int64  `cbor:"n"`
}

const unionNestID = "com.example.nest"

// unionNestRegistry returns a Registry that holds unionNest.
func unionNestRegistry() *Registry {
	r := new(Registry)
	if err := Register[unionNest](r, unionNestID); err != nil {
		panic(err)
	}
	return r
}

// unionNestJSON writes depth records nested in each other's "in", the innermost with no "in",
// with "$type" first or last in each.
func unionNestJSON(depth int, typeLast bool) []byte {
	var b strings.Builder
	for i := range depth {
		b.WriteByte('{')
		if !typeLast {
			b.WriteString(`"$type":"` + unionNestID + `",`)
		}
		fmt.Fprintf(&b, `"n":%d`, i)
		if i < depth-1 {
			b.WriteString(`,"in":`)
		}
	}
	for range depth {
		if typeLast {
			b.WriteString(`,"$type":"` + unionNestID + `"`)
		}
		b.WriteByte('}')
	}
	return []byte(b.String())
}

// unionNestCBOR is unionNestJSON in DAG-CBOR, where the keys "in" and "n" sort before "$type".
func unionNestCBOR(tb testing.TB, depth int) []byte {
	deep := WithLimits(Limits{MaxDepth: depth + 1})
	v, err := UnmarshalJSON(unionNestJSON(depth, false), deep)
	if err == nil {
		var data []byte
		if data, err = MarshalCBOR(v, deep); err == nil {
			return data
		}
	}
	if tb == nil {
		panic(err)
	}
	tb.Fatal(err)
	return nil
}

// TestUnionNestedTypeLast: members nested in members decode the same whether their "$type" comes
// first or last, at depths up to a raised MaxDepth, through the registry and with duplicates and
// a missing "$type" still refused.
func TestUnionNestedTypeLast(t *testing.T) {
	r := new(Registry)
	if err := Register[unionNest](r, unionNestID); err != nil {
		t.Fatal(err)
	}
	deep := WithLimits(Limits{MaxDepth: 300})
	for _, depth := range []int{1, 2, 3, 31, 250} {
		first, err := r.DecodeJSON(unionNestJSON(depth, false), deep)
		if err != nil {
			t.Fatalf("depth %d, $type first: %v", depth, err)
		}
		last, err := r.DecodeJSON(unionNestJSON(depth, true), deep)
		if err != nil {
			t.Fatalf("depth %d, $type last: %v", depth, err)
		}
		if !reflect.DeepEqual(first, last) {
			t.Errorf("depth %d: $type last decodes to %+v, first to %+v", depth, last, first)
		}
		// In DAG-CBOR "in" and "n" sort before "$type": every member's look skips the members
		// nested in it.
		fromCBOR, err := r.DecodeCBOR(unionNestCBOR(t, depth), deep)
		if err != nil || !reflect.DeepEqual(first, fromCBOR) {
			t.Errorf("depth %d: from CBOR %+v, %v", depth, fromCBOR, err)
		}
		n, levels := first.(*unionNest), 1
		for n.In.Value() != nil {
			n = n.In.Value().(*unionNest)
			levels++
		}
		if levels != depth || n.N != int64(depth-1) {
			t.Errorf("depth %d: decoded %d levels, innermost n %d", depth, levels, n.N)
		}
	}
	// A nested member whose "$type" a skip noted is still checked as a member: a duplicate
	// "$type", a missing one, one that is not a string.
	for _, in := range []string{
		`{"in":{"n":1,"$type":"` + unionNestID + `","$type":"` + unionNestID + `"},"$type":"` + unionNestID + `","n":0}`,
		`{"in":{"n":1},"$type":"` + unionNestID + `","n":0}`,
		`{"in":{"n":1,"$type":3},"$type":"` + unionNestID + `","n":0}`,
		`{"in":{"n":1,"$type":""},"$type":"` + unionNestID + `","n":0}`,
	} {
		if _, err := r.DecodeJSON([]byte(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
		// The same in DAG-CBOR, where the decoder reads the members' keys in their order.
		if v, err := UnmarshalJSON([]byte(in)); err == nil {
			data, err := MarshalCBOR(v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.DecodeCBOR(data); err == nil {
				t.Errorf("%s in CBOR: accepted", in)
			}
		}
	}
}

// BenchmarkUnionNestedTypeLast decodes records nested in each other's union field with "$type"
// last in each (in JSON; DAG-CBOR's key order puts it after "in"), at two depths: the time per byte stays flat with depth when no member's look for
// its "$type" goes over the members nested in it again.
func BenchmarkUnionNestedTypeLast(b *testing.B) {
	r := new(Registry)
	if err := Register[unionNest](r, unionNestID); err != nil {
		b.Fatal(err)
	}
	deep := WithLimits(Limits{MaxDepth: 1000})
	for _, depth := range []int{100, 1000} {
		data := unionNestJSON(depth, true)
		b.Run(fmt.Sprintf("json/depth=%d", depth), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := r.DecodeJSON(data, deep); err != nil {
					b.Fatal(err)
				}
			}
		})
		cb := unionNestCBOR(b, depth)
		b.Run(fmt.Sprintf("cbor/depth=%d", depth), func(b *testing.B) {
			b.SetBytes(int64(len(cb)))
			for b.Loop() {
				if _, err := r.DecodeCBOR(cb, deep); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
