package datamodel

// Go values at the generic entry points (issue 14, "one notion of a data-model value"):
// MarshalCBOR, MarshalJSON, Validate, Blobs, Links and RecordCID take Go slices, arrays, maps
// with string keys, pointers and structs of data-model types, not only []any and map[string]any.
//
// How: a walker whose type switch meets a value that is none of the generic types calls goValue,
// which converts that one value, one level deep, through the plan of its Go type
// (typed_plan.go): a struct becomes a map[string]any of its fields, a []T an []any, a scalar the
// generic scalar (a named string type a string, any integer kind an int64, a tid.TID or
// TextMarshaler its text). What is inside a converted container is not converted yet: scalars
// are, eagerly (so that a blob-shaped struct or a "$type" field is seen by the map rules as the
// equal generic map would be), but a nested container stays a goRef, which the walker converts
// in turn when it gets there, at its own depth. So the generic code applies every rule, in its
// own order, with its own paths and limits, to Go values too: one set of rules, and the
// error for a Go value is by construction the error for the equal generic tree (sentinel, path,
// which error comes first). A cyclic Go value is stopped by the walker's depth limit, as a cyclic
// generic tree is, and never converted past it; a bad value inside a container is a goError
// leaf, refused when (and if) the walker reaches it. Generic trees never get here: their speed is
// unchanged.
//
// Why not visit Go values directly in each walker: four walkers (two encoders, Validate, the
// blob and link walk) would each need a second copy of every rule. The conversion costs
// allocations on the Go-value path only (measured in govalue_test.go, BenchmarkGoValue).

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/fxamacker/cbor/v2"
	cid "github.com/ipfs/go-cid"
)

// goRef is a Go container not converted yet: a value of plan p, rv (addressable).
type goRef struct {
	p  *typedPlan
	rv reflect.Value
}

// goError is a Go value inside a converted container that has no data-model form: the walker
// that reaches it returns err, located by the walker's path.
type goError struct{ err *Error }

// maxGoHops bounds how many Go values goValue converts in a row for one value without reaching a
// data-model value, each the dynamic value of an interface reached through pointers: a Go value
// can refer to itself without any container in between (var x any; x = &x), where no depth
// limit applies. The typed encoders count the same values (goHops).
const maxGoHops = 64

// errGoHops is the error for a value beyond maxGoHops, on every path.
func errGoHops() *Error {
	return valueError(ErrTooDeep, "a Go value that refers to itself through pointers or interfaces")
}

// goHops counts, for the typed encoders, the Go values other than data-model values that they
// read in a row out of interfaces at one depth (no container between them: a container's content
// is one level deeper), as goValue counts its conversions, so that a value that refers to itself
// without a container (var x any; x = &x) is refused as the generic walker refuses it instead of
// recursing until the stack overflows. Only the places that follow an interface's dynamic value
// count: a pointer type cannot refer to itself without one (typedPlanOf refuses type P *P).
type goHops struct {
	depth, n int
}

// hop counts one such value at depth, or refuses it past maxGoHops. It returns the count as it
// was, which the caller puts back once the value is written, so that values side by side are not
// counted as one chain.
func (h *goHops) hop(depth int) (goHops, *Error) {
	saved := *h
	if h.depth != depth {
		h.depth, h.n = depth, 0
	}
	if h.n++; h.n > maxGoHops {
		return saved, errGoHops()
	}
	return saved, nil
}

// goValue returns the generic value that stands for v, a value that is none of the types of the
// walkers' type switches, converted one level deep (see the top of the file), or the error that
// refuses it: floats (ErrFloat), integers beyond int64 (ErrIntegerRange), Go types without a
// data-model form (ErrUnsupported, or ErrKeyNotString for a map whose keys are
// not strings). The result is a generic value: the walker's switch takes it without calling
// goValue again. at is where v is in the walk that converts it.
func goValue(v any, at goAt) (any, *Error) {
	for range maxGoHops {
		var p *typedPlan
		var rv reflect.Value
		switch x := v.(type) {
		case goRef:
			p, rv = x.p, x.rv
		case goError:
			return nil, x.err
		case float32, float64:
			_, err := otherGoValue(v)
			return nil, err
		case int8, int16, int32, uint, uint8, uint16, uint32, uint64:
			n, _, err := goInt(v)
			if err != nil {
				return nil, err.(*Error)
			}
			return n, nil
		case nil:
			return nil, nil
		default:
			rv = reflect.ValueOf(v)
			p = typedPlanOf(rv.Type())
			if p.kind == typedStruct || p.kind == typedArray || p.kind == typedByteArray ||
				p.kind == typedMethod || p.kind == typedText || p.kind == typedTID {
				// Fields, elements and pointer-receiver methods are read through the address.
				c := reflect.New(rv.Type()).Elem()
				c.Set(rv)
				rv = c
			}
		}
		g := goShallow(p, rv, at)
		if r, ok := g.(goRef); ok {
			// A container behind a pointer (the plan's pointers followed by goShallow):
			// converted now, not counted as another value of the chain, as the typed encoders
			// count it (goHops).
			g = goShallow(r.p, r.rv, at)
		}
		if e, ok := g.(goError); ok {
			return nil, e.err
		}
		if isGeneric(g) {
			return g, nil
		}
		v = g // the dynamic value of an interface: once more
	}
	return nil, errGoHops()
}

// goAt is where a Go value is converted: its nesting depth in the walk that converts it (the
// top-level value is at depth 1) and the walk's MaxDepth. The output of a MarshalCBOR method is
// decoded at that depth under that limit (goMethod), as the walk would count its levels.
type goAt struct{ depth, maxDepth int }

// in is where the elements and fields of a container at a are.
func (a goAt) in() goAt { return goAt{a.depth + 1, a.maxDepth} }

// goLoose is where the rules convert a value they only look at (a "$type", a member of a blob, a
// value they describe): what it is matters, not how deep, so a method's output is decoded as
// deep as any walk goes.
var goLoose = goAt{1, MaxDepthCeiling}

// isGeneric reports whether the walkers' type switches take v without calling goValue.
func isGeneric(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, int64, int, map[string]any, []any, Link, Bytes, Blob, []byte, cid.Cid:
		return true
	case *Blob:
		return x != nil
	}
	return false
}

// goShallow converts the value rv of plan p one level deep: a container into a generic
// container of goElem values, a scalar into its generic value. The dynamic value of an interface
// is returned as it is, for goValue to go on with.
func goShallow(p *typedPlan, rv reflect.Value, at goAt) any {
	switch p.kind {
	case typedSlice:
		if rv.IsNil() {
			return nil // null, as MarshalCBORStruct and encoding/json write a nil slice
		}
		fallthrough
	case typedArray:
		a := make([]any, rv.Len())
		for i := range a {
			a[i] = goElem(p.elem, rv.Index(i), at.in())
		}
		return a
	case typedMap, typedUnknown:
		if rv.IsNil() {
			return nil
		}
		m := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			m[it.Key().String()] = goElem(p.elem, it.Value(), at.in())
		}
		return m
	case typedStruct:
		return goStruct(p, rv, at)
	case typedPointer:
		if rv.IsNil() {
			return nil
		}
		return goElem(p.elem, rv.Elem(), at)
	}
	return goElem(p, rv, at)
}

// goElem is the value that stands for rv, of plan p, inside a converted container: scalars
// converted, containers left for later as a goRef (see the top of the file).
func goElem(p *typedPlan, rv reflect.Value, at goAt) any {
	if p.typ == cidType {
		// A link, as a cid.Cid is anywhere in a generic tree (its plan is its MarshalText).
		return Link(rv.Interface().(cid.Cid))
	}
	switch p.kind {
	case typedInvalid:
		if k := p.typ.Kind(); k == reflect.Float32 || k == reflect.Float64 {
			// Worded as for a float in a generic tree.
			return goError{valueError(ErrFloat, fmt.Sprintf("%T %v", rv.Interface(), rv.Float()))}
		}
		e := *p.err // the plan's error is shared: the walker adds the path to a copy
		return goError{&e}
	case typedAny, typedIface:
		if rv.IsNil() {
			return nil
		}
		return rv.Elem().Interface()
	case typedBool:
		return rv.Bool()
	case typedString:
		return rv.String()
	case typedInt:
		return rv.Int()
	case typedUint:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return goError{valueError(ErrIntegerRange, strconv.FormatUint(u, 10))}
		}
		return int64(u)
	case typedBytes:
		if rv.IsNil() {
			return nil // null, as MarshalCBORStruct writes a nil []byte
		}
		return Bytes(rv.Bytes())
	case typedByteArray:
		b := make(Bytes, rv.Len())
		for i := range b { // element by element: the element type may be a named uint8 kind
			b[i] = byte(rv.Index(i).Uint())
		}
		return b
	case typedLink:
		return rv.Interface().(Link)
	case typedBlob:
		return rv.Interface().(Blob)
	case typedTID, typedText:
		return goText(p, rv)
	case typedMethod:
		return goMethod(p, rv, at)
	case typedUnion:
		// What the Union holds, as MarshalCBORStruct writes it: the walker converts a struct
		// member in turn.
		u, ok := rv.Interface().(Union)
		if !ok {
			u = rv.Interface().(ClosedUnion).Union
		}
		v, err := u.member()
		if err != nil {
			return goError{err}
		}
		return v
	case typedPointer:
		if rv.IsNil() {
			return nil
		}
		return goElem(p.elem, rv.Elem(), at)
	case typedSlice, typedMap, typedUnknown:
		if rv.IsNil() {
			return nil
		}
	}
	if !rv.CanAddr() { // a map value: copied, so that fields and methods have an address
		c := reflect.New(rv.Type()).Elem()
		c.Set(rv)
		rv = c
	}
	return goRef{p, rv}
}

var cidType = reflect.TypeFor[cid.Cid]()

// goStruct converts a struct to the map of its fields, as MarshalCBORStruct writes them: keys from
// the plan (cbor tag, json tag, Go name), omitempty and omitzero fields left out as encoding/json
// leaves them out (typedOmitted), the fields promoted through a nil embedded pointer left out, and
// the entries of its UnknownFields field merged in. A struct whose UnknownFields has the key of one
// of its fields has no map: it is refused as a whole, at the first such key (errUnknownClash).
func goStruct(p *typedPlan, rv reflect.Value, at goAt) any {
	if p.toArray {
		return goError{errToArray(p.typ)}
	}
	base := rv.Addr().UnsafePointer()
	var unknown UnknownFields
	if p.unknown != nil {
		unknown = *(*UnknownFields)(unsafe.Add(base, p.unknown.offset))
		if i := typedUnknownClash(p, unknown); i >= 0 {
			return goError{errUnknownClash(p, i)}
		}
	}
	m := make(map[string]any, len(p.fields)+len(unknown))
	for i := range p.fields {
		f := &p.fields[i]
		fp := typedFieldPtr(base, f, false)
		if fp == nil || f.omit && typedOmitted(f, fp) {
			continue
		}
		m[f.name] = goElem(f.plan, reflect.NewAt(f.plan.typ, fp).Elem(), at.in())
	}
	for k, v := range unknown {
		m[k] = v
	}
	return m
}

// errToArray is the error for a struct of type t with fxamacker's toarray option where the equal
// generic tree is needed: the generic entry points do not follow the option, and a union member
// is a map.
func errToArray(t reflect.Type) *Error {
	return valueError(ErrUnsupported, "a Go "+t.String()+
		" is written as an array by fxamacker's toarray option, which the generic entry points do not follow")
}

// goText converts a tid.TID or an encoding.TextMarshaler to its text.
func goText(p *typedPlan, rv reflect.Value) any {
	m, ok := goMethodOf[encoding.TextMarshaler](p.textMarshalPtr, rv)
	if !ok {
		return goError{valueError(ErrUnsupported, "a Go "+p.typ.String()+" has UnmarshalText but no MarshalText")}
	}
	text, err := m.MarshalText()
	if err != nil {
		return goError{goMethodError(p, "MarshalText", err)}
	}
	return string(text)
}

// goMethod converts a value with fxamacker's MarshalCBOR method, at at, to the generic value its
// bytes decode to (cborMethodValue), so that every rule applies to what the method writes.
func goMethod(p *typedPlan, rv reflect.Value, at goAt) any {
	m, ok := goMethodOf[cbor.Marshaler](p.cborMarshalPtr, rv)
	if !ok {
		return goError{valueError(ErrUnsupported, "a Go "+p.typ.String()+" has UnmarshalCBOR but no MarshalCBOR")}
	}
	data, err := m.MarshalCBOR()
	if err != nil {
		return goError{goMethodError(p, "MarshalCBOR", err)}
	}
	v, derr := cborMethodValue(data, at)
	if derr != nil {
		return goError{derr}
	}
	return v
}

// cborMethodValue decodes data, the output of a MarshalCBOR method for a value at at, to the
// generic value it stands for, which the caller's walk then checks as any value (or the error
// that refuses it, Offset -1: an offset in bytes the caller never sees would mean nothing; its
// path leads from the value). The depth is counted from at.depth under at.maxDepth, so that the
// decoder refuses exactly the nesting the walk would refuse, where the walk would refuse it. The
// other limits of the call (elements, key length, CID length, the value budget, safe integers)
// are the walk's to apply to the decoded value, in its order and against its budget, as to an
// equal generic tree: the decoder's are only bounded by len(data), so that it refuses nothing the
// walk would take. MaxCBORSize and MaxJSONSize bound input, which data is not (MarshalCBORStruct
// does not apply them to a method's output either).
func cborMethodValue(data []byte, at goAt) (any, *Error) {
	var d cborDecoder
	n := len(data)
	d.lim = Limits{MaxDepth: min(at.maxDepth, MaxDepthCeiling), MaxElements: n, MaxKeyLen: n, MaxCBORSize: n,
		MaxJSONSize: n, MaxCIDLen: n, MaxValues: n + 1}
	d.data, d.chunk, d.slabs.size = data, n, n
	d.left = n
	v, end, err := d.value(0, at.depth)
	if err == nil && end != n {
		err = cborErr(ErrTrailingBytes, end, count(n-end, "bytes"))
	}
	if err != nil {
		err.Offset = -1
		return nil, err
	}
	return v, nil
}

// goMethodOf returns rv's method set as M, through its address when the method has a pointer
// receiver (ptr), and whether rv has it (a nil pointer to a value with value methods has not).
func goMethodOf[M any](ptr bool, rv reflect.Value) (M, bool) {
	if ptr {
		if !rv.CanAddr() {
			c := reflect.New(rv.Type()).Elem()
			c.Set(rv)
			rv = c
		}
		rv = rv.Addr()
	}
	m, ok := rv.Interface().(M)
	return m, ok
}

// goMethodError is the error of a Go value's marshaling method: its own *Error when it returns
// one (a Link or Blob inside it, say), else ErrUnsupported with the method's message.
func goMethodError(p *typedPlan, method string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		c := *e
		return &c
	}
	return valueError(ErrUnsupported, "a Go "+p.typ.String()+": "+method+": "+err.Error())
}
