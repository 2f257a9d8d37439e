package datamodel

// Go values that refer to themselves, and a field's method output, held to the walkers' guards
// and the caller's limits.

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestGoValueCycles: cyclic Go values (through pointers, maps, slices and interfaces) are refused
// by the encoders and Validate with ErrTooDeep, with the default limits and with the deepest the
// limits allow, and the walks end: never a stack overflow, never a hang. A cycle through two
// branches is not walked along each of its paths.
func TestGoValueCycles(t *testing.T) {
	node := &goTestNode{Name: "loop"}
	node.Next = node
	fork := &goTestNode{Name: "fork"}
	fork.Next, fork.Alt = fork, fork
	m := goTestCycleMap{}
	m["self"] = m
	m["again"] = m
	s := goTestCycleSlice{nil, nil}
	s[0], s[1] = s, s
	var self any
	self = &self
	deepest := DefaultLimits()
	deepest.MaxDepth = MaxDepthCeiling
	for name, v := range map[string]any{"pointer": node, "two pointers": fork, "map": m, "slice": s, "interface": &self,
		"in a generic tree": map[string]any{"a": []any{fork}}} {
		for _, opts := range [][]Option{nil, {WithLimits(deepest)}} {
			for entry, err := range map[string]error{
				"MarshalCBOR": func() error { _, err := MarshalCBOR(v, opts...); return err }(),
				"MarshalJSON": func() error { _, err := MarshalJSON(v, opts...); return err }(),
				"Validate":    Validate(v, opts...),
				"RecordCID":   func() error { _, err := RecordCID(v); return err }(),
			} {
				if entry == "RecordCID" && len(opts) > 0 {
					continue
				}
				if !errors.Is(err, ErrTooDeep) && !(entry == "RecordCID" && errors.Is(err, ErrNotRecord)) {
					t.Errorf("%s: %s(%d options) = %v, want ErrTooDeep", name, entry, len(opts), err)
				}
			}
		}
		if b, l := Blobs(v), Links(v); len(b)+len(l) != 0 {
			t.Errorf("%s: Blobs, Links = %v, %v", name, b, l)
		}
	}
}

// goTestChain returns a *any that reaches leaf through n pointers to interfaces (n Go values
// that are not data-model values, then leaf), with no container between them.
func goTestChain(n int, leaf any) any {
	v := leaf
	for range n {
		p := new(any)
		*p = v
		v = p
	}
	return v
}

// TestGoValueHopLimit: a Go value that refers to itself through pointers and interfaces with no
// container between (var x any; x = &x), where no depth limit applies, is refused by every entry
// point with ErrTooDeep at its path, as the generic walker refuses it (goValue, maxGoHops): never
// a fatal stack overflow in the typed encoders. A chain of maxGoHops such values is accepted by
// every entry point and one more refused by every one, so that they accept the same values.
func TestGoValueHopLimit(t *testing.T) {
	type anyField struct {
		A any `cbor:"a"`
	}
	var self any
	self = &self
	var a, b any
	a, b = &b, &a
	rows := []struct {
		rule   string
		v      any
		path   string // of the error; "-" for a value every entry point accepts
		record bool   // v is a record: RecordCID and ValidateRecord give the error too
	}{
		{"x = &x in a field typed any", anyField{self}, "/a", true},
		{"x = &x in a field of a struct pointer", &anyField{self}, "/a", true},
		{"x = &x in a map[string]any", map[string]any{"a": self}, "/a", true},
		{"x = &x in a struct in an []any", []any{anyField{self}}, "/0/a", false},
		{"x = &x in UnknownFields", goTestCollide{Unknown: UnknownFields{"x": self}}, "/x", true},
		{"x = &x at the top", self, "", false},
		{"a = &b, b = &a in a field", anyField{a}, "/a", true},
		{"maxGoHops values, then a string", anyField{goTestChain(maxGoHops, "leaf")}, "-", true},
		{"maxGoHops+1 values, then a string", anyField{goTestChain(maxGoHops+1, "leaf")}, "/a", true},
		{"maxGoHops values at the top", goTestChain(maxGoHops, "leaf"), "-", false},
		{"maxGoHops+1 values at the top", goTestChain(maxGoHops+1, "leaf"), "", false},
		{"maxGoHops values below each of two levels", anyField{map[string]any{"b": goTestChain(maxGoHops, "leaf")}}, "-", true},
		{"maxGoHops values side by side", []any{goTestChain(maxGoHops, "x"), goTestChain(maxGoHops, "y")}, "-", false},
		{"maxGoHops values, then a link", anyField{goTestChain(maxGoHops, cborTestLink(t, cborTestBlobLinkString).CID())}, "-", true},
	}
	// A Go value that is not a data-model value counts at the end of a chain too, whatever it is.
	for name, last := range map[string]any{"a struct pointer": &goTestNode{Name: "n"}, "an int8": int8(1),
		"a nil *Blob": (*Blob)(nil), "UnknownFields": UnknownFields{"k": "v"}, "a []string": []string{"s"}} {
		rows = append(rows, []struct {
			rule   string
			v      any
			path   string
			record bool
		}{
			{"maxGoHops values, the last " + name, anyField{goTestChain(maxGoHops-1, last)}, "-", true},
			{"maxGoHops+1 values, the last " + name, anyField{goTestChain(maxGoHops, last)}, "/a", true},
		}...)
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			entry := map[string]func(any) error{
				"MarshalCBOR":       func(v any) error { _, err := MarshalCBOR(v); return err },
				"AppendCBOR":        func(v any) error { _, err := AppendCBOR(nil, v); return err },
				"generic walker":    func(v any) error { _, err := cborGeneric(nil, v, nil); return err },
				"MarshalCBORStruct": func(v any) error { _, err := MarshalCBORStruct(v); return err },
				"MarshalJSON":       func(v any) error { _, err := MarshalJSON(v); return err },
				"AppendJSON":        func(v any) error { _, err := AppendJSON(nil, v); return err },
				"MarshalJSONIndent": func(v any) error { _, err := MarshalJSONIndent(v, "", "\t"); return err },
				"MarshalJSONStruct": func(v any) error { _, err := MarshalJSONStruct(v); return err },
				"Validate":          func(v any) error { return Validate(v) },
			}
			if r.record {
				entry["ValidateRecord"] = func(v any) error { return ValidateRecord(v) }
				entry["RecordCID"] = func(v any) error { _, err := RecordCID(v); return err }
			}
			for name, f := range entry {
				err := f(r.v)
				if r.path == "-" {
					if err != nil {
						t.Errorf("%s = %v, want no error", name, err)
					}
				} else if !sameError(err, &Error{Err: ErrTooDeep, Offset: -1, Path: r.path}) {
					t.Errorf("%s = %v (path %q), want ErrTooDeep at %q", name, err, errPath(err), r.path)
				}
			}
			if r.path == "-" {
				want, _ := cborGeneric(nil, r.v, nil)
				if got, err := MarshalCBORStruct(r.v); err != nil || !bytes.Equal(got, want) {
					t.Errorf("MarshalCBORStruct = %x, %v; the generic walker writes %x", got, err, want)
				}
			}
			_, _ = Blobs(r.v), Links(r.v) // end, without a stack overflow
		})
	}
}

// goTestRaw writes the DAG-CBOR it holds through fxamacker's Marshaler.
type goTestRaw struct{ b []byte }

// TestMethodOutputLimits: the output of a field's MarshalCBOR method is held to the limits of the
// call, at the depth where the field is, by every entry point alike, at the top and in a slice:
// raised limits let a deeper, longer or wider value through, and a value beyond them is refused
// with the error of the equal generic tree (the same sentinel at the same path), never with the
// default limits.
func TestMethodOutputLimits(t *testing.T) {
	nested := func(n int) []byte { return append(bytes.Repeat([]byte{0x81}, n), 0x01) }
	wide := func(n int) []byte {
		b, _ := MarshalCBOR(make([]any, n), WithLimits(Limits{MaxElements: n}))
		return b
	}
	longKey := strings.Repeat("k", DefaultMaxKeyLen+1)
	keyed, _ := MarshalCBOR(map[string]any{longKey: int64(1)}, WithLimits(Limits{MaxKeyLen: len(longKey)}))
	link, _ := MarshalCBOR(typedLongLink(t, 120), WithLimits(Limits{MaxCIDLen: 200}))
	lim := func(f func(*Limits)) []Option {
		l := DefaultLimits()
		f(&l)
		return []Option{WithLimits(l)}
	}
	rows := []struct {
		rule string
		out  []byte
		opts []Option
	}{
		{"rule 14: 40 levels under MaxDepth 100", nested(40), lim(func(l *Limits) { l.MaxDepth = 100 })},
		{"rule 14: 98 levels under MaxDepth 100, the last level at the top", nested(98), lim(func(l *Limits) { l.MaxDepth = 100 })},
		{"rule 14: 99 levels under MaxDepth 100", nested(99), lim(func(l *Limits) { l.MaxDepth = 100 })},
		{"rule 14: 40 levels under the default MaxDepth", nested(40), nil},
		{"rule 14: 1100 levels under the deepest MaxDepth", nested(1100), lim(func(l *Limits) { l.MaxDepth = MaxDepthCeiling })},
		{"rule 14: 140000 elements under a raised MaxElements", wide(140000), lim(func(l *Limits) { l.MaxElements = 200000 })},
		{"rule 14: 140000 elements under the default MaxElements", wide(140000), nil},
		{"rule 14: more values than MaxValues", wide(100), lim(func(l *Limits) { l.MaxValues = 50 })},
		{"rule 14: a long key under a raised MaxKeyLen", keyed, lim(func(l *Limits) { l.MaxKeyLen = len(longKey) })},
		{"rule 14: a long key under the default MaxKeyLen", keyed, nil},
		{"rule 12: a long CID under a raised MaxCIDLen", link, lim(func(l *Limits) { l.MaxCIDLen = 200 })},
		{"rule 12: a long CID under the default MaxCIDLen", link, nil},
	}
	for _, r := range rows {
		inner, err := UnmarshalCBOR(r.out, WithLimits(Limits{MaxDepth: MaxDepthCeiling, MaxElements: len(r.out),
			MaxKeyLen: len(r.out), MaxCIDLen: len(r.out), MaxCBORSize: len(r.out)}))
		if err != nil && !errors.Is(err, ErrTooDeep) {
			t.Fatal(err)
		}
		v := &struct {
			D goTestRaw `json:"d"`
		}{goTestRaw{r.out}}
		generic := map[string]any{"d": inner}
		if errors.Is(err, ErrTooDeep) {
			generic = nil // deeper than any generic tree: every entry point refuses it alike
		}
		for _, top := range []bool{true, false} {
			var val, gen any = v, generic
			if !top {
				val, gen = []any{v}, []any{generic}
			}
			var want error
			var wantCBOR, wantJSON []byte
			if generic != nil {
				wantCBOR, want = MarshalCBOR(gen, r.opts...)
				wantJSON, _ = MarshalJSON(gen, r.opts...)
			} else {
				_, want = MarshalCBORStruct(val, r.opts...)
				if !errors.Is(want, ErrTooDeep) {
					t.Fatalf("%s: MarshalCBORStruct: %v", r.rule, want)
				}
			}
			got := map[string]error{"Validate": Validate(val, r.opts...)}
			if top {
				got["ValidateRecord"] = ValidateRecord(val, r.opts...)
				if r.opts == nil { // RecordCID applies the default limits
					_, got["RecordCID"] = RecordCID(val)
				}
			}
			for name, enc := range map[string]func(any, ...Option) ([]byte, error){
				"MarshalCBOR": MarshalCBOR, "MarshalCBORStruct": MarshalCBORStruct,
			} {
				out, err := enc(val, r.opts...)
				if got[name] = err; err == nil && !bytes.Equal(out, wantCBOR) {
					t.Errorf("%s (top %v): %s wrote other bytes than MarshalCBOR of the generic tree", r.rule, top, name)
				}
			}
			for name, enc := range map[string]func(any, ...Option) ([]byte, error){
				"MarshalJSON": MarshalJSON, "MarshalJSONStruct": MarshalJSONStruct,
			} {
				out, err := enc(val, r.opts...)
				if got[name] = err; err == nil && !bytes.Equal(out, wantJSON) {
					t.Errorf("%s (top %v): %s wrote other JSON than MarshalJSON of the generic tree", r.rule, top, name)
				}
			}
			for name, err := range got {
				if !sameError(err, want) {
					t.Errorf("%s (top %v): %s: %v; want %v", r.rule, top, name, err, want)
				}
			}
		}
	}
}
