package datamodel

// The typed JSON encoder: Go values as atproto JSON, following the plans of typed_plan.go, with
// MarshalJSON's writer (json_encode.go: escaping, $link, $bytes and blob forms, indentation-free
// layout) and its checks (encode.go: limits, value budget, cycle guard; rules.go: the map rules).
//
//	MarshalJSONStruct         the entry point
//	typedJSONEncoder.value    one Go value, by kind
//	typedJSONEncoder.anyValue a value held in an interface (anySlice: a []any)
//	typedJSONEncoder.array    a Go slice or array
//	typed_json_objects.go     structs, Go maps and map[string]any, and the map rules on them

import (
	"encoding"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/fxamacker/cbor/v2"
	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/internal/utf8v"
	"github.com/atcore/atcore/tid"
)

// MarshalJSONStruct returns the atproto JSON encoding of v, a Go struct (or any Go value the
// typed codec has a plan for: the types UnmarshalJSONStruct reads), exactly as MarshalJSON writes
// the same value as a generic tree: compact, the keys of every object in bytewise order (struct
// fields and map keys alike), Link as {"$link": "b…"}, Bytes and []byte as {"$bytes": …}
// (standard base64 without padding), Blob in its form (rule 13), tid.TID and
// encoding.TextMarshaler types as strings, integers of every Go integer type. A nil pointer,
// slice or map is null unless its field has omitempty or omitzero (then it is left out, as
// MarshalCBORStruct leaves out the fields of these options: as encoding/json does); null and
// absent stay distinct (rule 15). The entries of an
// UnknownFields field are written among the named fields, so that a record read with
// UnmarshalJSONStruct and written back keeps its unknown keys.
//
// It refuses what MarshalJSON refuses, with MarshalJSON's sentinel and Path (the JSON Pointer of
// the value, through the fields' keys) and Offset -1: a string or key that is not valid UTF-8, an
// unsigned integer beyond int64 (or beyond ±(2^53−1) under WithSafeIntegers), an undefined or
// CIDv0 Link, a malformed Blob, a "$link" or "$bytes" key (ErrLink, ErrBytes), a "$type" left
// empty or not a string (ErrType), a struct or map typed "blob" without exactly the blob shape
// (ErrBlob), floats (ErrFloat) and other Go types outside the data model (ErrUnsupported), and
// values beyond the limits of opts (depth, elements, key length, values, CID length), cycles
// included. An UnknownFields entry whose key is also the key of a field of the struct is
// ErrGoType. A field typed any is written as MarshalJSON writes a generic value, and a Go value
// of another type inside it (a struct, a []string) by its plan, as MarshalCBORStruct does.
// A type with fxamacker's MarshalCBOR method (and no plan of its own) is written as the JSON of
// the DAG-CBOR it returns; encoding/json methods are not used.
func MarshalJSONStruct(v any, opts ...Option) ([]byte, error) {
	e := typedJSONEncoder{jsonEncoder: newJSONEncoder(opts)}
	pooled := getEncodeBuf()
	buf, err := e.top(*pooled, v)
	out := exactCopy(buf, err)
	putEncodeBuf(pooled, buf)
	return out, finished(err)
}

// typedJSONEncoder is the state of one MarshalJSONStruct: MarshalJSON's.
type typedJSONEncoder struct {
	jsonEncoder
	// generic makes the encoder refuse what the generic entry points refuse and the Struct
	// functions accept (toarray structs), for MarshalJSON's fast path (isGoStruct).
	generic bool
	hops    goHops // Go values read out of interfaces in a row (var x any; x = &x)
}

// top appends v, the top-level value.
func (e *typedJSONEncoder) top(dst []byte, v any) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
	if isGeneric(v) {
		// As MarshalCBORStruct writes it: held in an interface, as in a field typed any (a nil
		// Bytes is empty bytes there, where a nil []byte field's plan writes null).
		return e.anyValue(dst, v, 1)
	}
	e.hops = goHops{depth: 1, n: 1} // v, as anyValue would count it
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		// What a pointer points to, as the pointer's plan would write it: no copy of it.
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		if p := typedPlanOf(rv.Type()); p.kind == typedPointer {
			return e.value(dst, p.elem, rv.UnsafePointer(), 1)
		}
	}
	pv := reflect.New(rv.Type())
	pv.Elem().Set(rv)
	return e.value(dst, typedPlanOf(rv.Type()), pv.UnsafePointer(), 1)
}

// value appends the Go value at ptr, of plan p, which sits at nesting depth depth.
func (e *typedJSONEncoder) value(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, error) {
	switch p.kind {
	case typedAny:
		return e.anyValue(dst, *(*any)(ptr), depth)
	case typedString:
		return jsonString(dst, *(*string)(ptr))
	case typedBool:
		return strconv.AppendBool(dst, *(*bool)(ptr)), nil
	case typedInt, typedUint:
		n, err := typedInteger(p, ptr)
		if err == nil && e.unsafeInt(n) {
			err = errUnsafeInteger(n)
		}
		if err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, n, 10), nil
	case typedPointer:
		pp := *(*unsafe.Pointer)(ptr)
		if pp == nil {
			return append(dst, "null"...), nil
		}
		return e.value(dst, p.elem, pp, depth)
	case typedStruct:
		if p.toArray {
			if e.generic {
				return dst, valueError(ErrUnsupported, "a toarray struct") // MarshalJSON's generic walker gives the error
			}
			return e.structArray(dst, p, ptr, depth)
		}
		return e.object(dst, p, ptr, depth)
	case typedSlice, typedArray:
		return e.array(dst, p, ptr, depth)
	case typedMap, typedUnknown:
		if *(*unsafe.Pointer)(ptr) == nil {
			return append(dst, "null"...), nil
		}
		if p.elem.kind == typedAny && p.typ.Key() == typedJSONStringType {
			return e.anyMap(dst, *(*map[string]any)(ptr), depth)
		}
		return e.goMap(dst, p, ptr, depth)
	case typedLink:
		return e.link(dst, cid.Cid(*(*Link)(ptr)))
	case typedBlob:
		return e.blob(dst, (*Blob)(ptr), depth)
	case typedBytes:
		b := *(*[]byte)(ptr)
		if b == nil {
			return append(dst, "null"...), nil
		}
		return e.bytes(dst, b), nil
	case typedByteArray:
		return e.bytes(dst, unsafe.Slice((*byte)(ptr), p.len)), nil
	case typedTID:
		dst = append(dst, '"')
		dst, _ = (*(*tid.TID)(ptr)).AppendText(dst) // every TID has its text
		return append(dst, '"'), nil
	case typedText:
		s, err := typedJSONText(p, ptr)
		if err != nil {
			return dst, err
		}
		return jsonAppendQuoted(dst, s), nil
	case typedMethod:
		v, err := typedMethodValue(p, ptr, goAt{depth, e.maxDepth})
		if err != nil {
			return dst, err
		}
		return e.jsonEncoder.value(dst, v, depth)
	case typedUnion:
		v, err := (*Union)(ptr).member()
		if err != nil {
			return dst, err
		}
		return e.anyValue(dst, v, depth)
	case typedIface:
		iv := reflect.NewAt(p.typ, ptr).Elem()
		if iv.IsNil() {
			return append(dst, "null"...), nil
		}
		saved := e.hops
		if !isGeneric(iv.Elem().Interface()) { // counted as anyValue counts it
			if _, err := e.hops.hop(depth); err != nil {
				return dst, err
			}
		}
		x := reflect.New(iv.Elem().Type())
		x.Elem().Set(iv.Elem())
		dst, err := e.value(dst, typedPlanOf(x.Type().Elem()), x.UnsafePointer(), depth)
		e.hops = saved
		return dst, err
	}
	// typedInvalid, or an UnknownFields-typed value out of a struct (a map, handled above).
	return dst, valueError(p.err.Err, p.err.Detail) // a copy: paths are put in front of it
}

var typedJSONStringType = reflect.TypeFor[string]()

// anyValue appends a value held in an interface (a field typed any, an entry of UnknownFields):
// the generic encoder's leaves as MarshalJSON writes them, []any and map[string]any as it writes
// them but with any Go value inside, anything else by its plan, as MarshalCBORStruct does.
func (e *typedJSONEncoder) anyValue(dst []byte, v any, depth int) ([]byte, error) {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return e.anyMap(dst, x, depth)
	case []any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return e.anySlice(dst, x, depth)
	case nil, bool, string, int64, int, Link, cid.Cid, Bytes, []byte, Blob:
		return e.jsonEncoder.value(dst, v, depth)
	case *Blob:
		if x != nil {
			return e.jsonEncoder.value(dst, v, depth)
		}
	}
	// A Go value other than a data-model value (isGeneric): counted, as goValue counts it.
	saved, herr := e.hops.hop(depth)
	if herr != nil {
		return dst, herr
	}
	dst, err := e.goAny(dst, v, depth)
	e.hops = saved
	return dst, err
}

// goAny appends v, a Go value other than a data-model value held in an interface: the other Go
// integer types, floats (refused) and a nil *Blob as MarshalJSON writes them, UnknownFields as a
// map[string]any, anything else by its plan.
func (e *typedJSONEncoder) goAny(dst []byte, v any, depth int) ([]byte, error) {
	switch x := v.(type) {
	case UnknownFields:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return e.anyMap(dst, x, depth)
	case *Blob, int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32, float64:
		return e.jsonEncoder.value(dst, v, depth)
	}
	rv := reflect.ValueOf(v)
	p := typedPlanOf(rv.Type())
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		if p.kind == typedPointer {
			return e.value(dst, p.elem, rv.UnsafePointer(), depth)
		}
		return e.value(dst, p, nil, depth) // a pointer with no plan: its error
	}
	// A value held in an interface is not addressable: copied, once, to be read by its plan.
	c := reflect.New(rv.Type())
	c.Elem().Set(rv)
	return e.value(dst, p, c.UnsafePointer(), depth)
}

// anySlice appends a []any as MarshalJSON does, its elements by anyValue.
func (e *typedJSONEncoder) anySlice(dst []byte, a []any, depth int) ([]byte, error) {
	if err := e.enter(arrayID(a), len(a), "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(a)); err != nil {
		return dst, err
	}
	dst = e.open(dst, '[')
	var err error
	for i, v := range a {
		dst = e.element(dst, i)
		if dst, err = e.anyValue(dst, v, depth+1); err != nil {
			return dst, atIndex(err, i)
		}
	}
	e.leave(arrayID(a), depth)
	return e.close(dst, ']', len(a)), nil
}

// typedJSONText returns the text of an encoding.TextMarshaler of plan p at ptr, checked as a string.
func typedJSONText(p *typedPlan, ptr unsafe.Pointer) (string, *Error) {
	var m encoding.TextMarshaler
	switch {
	case p.textMarshal:
		m = reflect.NewAt(p.typ, ptr).Elem().Interface().(encoding.TextMarshaler)
	case p.textMarshalPtr:
		m = reflect.NewAt(p.typ, ptr).Interface().(encoding.TextMarshaler)
	default:
		return "", valueError(ErrUnsupported, "a Go "+p.typ.String()+" has UnmarshalText but no MarshalText")
	}
	b, err := m.MarshalText()
	if err != nil {
		return "", valueError(ErrUnsupported, "a Go "+p.typ.String()+": "+err.Error())
	}
	if !utf8v.Valid(b) {
		return "", valueError(ErrInvalidUTF8, quoteDetail(string(b)))
	}
	return string(b), nil
}

// typedMethodValue returns the generic value of the DAG-CBOR that the fxamacker Marshaler of plan
// p at ptr writes, for a value at at, as MarshalJSON's walk of a Go value takes it
// (cborMethodValue): the encoder's limits apply next, to the value.
func typedMethodValue(p *typedPlan, ptr unsafe.Pointer, at goAt) (any, *Error) {
	var m cbor.Marshaler
	switch {
	case p.cborMarshal:
		m = reflect.NewAt(p.typ, ptr).Elem().Interface().(cbor.Marshaler)
	case p.cborMarshalPtr:
		m = reflect.NewAt(p.typ, ptr).Interface().(cbor.Marshaler)
	default:
		return nil, valueError(ErrUnsupported, "a Go "+p.typ.String()+" has UnmarshalCBOR but no MarshalCBOR")
	}
	b, err := m.MarshalCBOR()
	if err != nil {
		if e, ok := err.(*Error); ok {
			return nil, valueError(e.Err, e.Detail)
		}
		return nil, valueError(ErrUnsupported, "a Go "+p.typ.String()+": "+err.Error())
	}
	return cborMethodValue(b, at)
}

// array appends the Go slice or array at ptr, of plan p.
func (e *typedJSONEncoder) array(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, error) {
	base, n := ptr, p.len
	if p.kind == typedSlice {
		h := (*typedSliceHeader)(ptr)
		if h.data == nil {
			return append(dst, "null"...), nil
		}
		if p.typ == typedJSONAnySlice {
			return e.anySlice(dst, *(*[]any)(ptr), depth)
		}
		base, n = h.data, h.len
	}
	id := containerID{base, n}
	if err := e.enter(id, n, "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(n); err != nil {
		return dst, err
	}
	dst = e.open(dst, '[')
	var err error
	for i := range n {
		dst = e.element(dst, i)
		if dst, err = e.value(dst, p.elem, unsafe.Add(base, uintptr(i)*p.elem.size), depth+1); err != nil {
			return dst, atIndex(err, i)
		}
	}
	e.leave(id, depth)
	return e.close(dst, ']', n), nil
}
