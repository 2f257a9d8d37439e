package datamodel

// The typed CBOR encoder: Go values to canonical DAG-CBOR, following the plans of typed_plan.go,
// with every rule of MarshalCBOR (rules.go; DECISIONS rules 9–14), its limits, sentinels and
// paths, checked as it writes, so that no pass over the output is needed.
//
//	typedEncoder.encode     one Go value, by kind
//	typedEncoder.anyValue   a value held in an interface: generic leaves, containers, or by plan
//	typedEncoder.anyMap     map[string]any, as MarshalCBOR writes it
//	typedEncoder.seq        slices and arrays
//
// Structs and other Go maps are in typed_cbor_objects.go.

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"github.com/fxamacker/cbor/v2"
	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/internal/utf8v"
	"github.com/atcore/atcore/tid"
)

// typedEncoder is the state of one MarshalCBORStruct: the generic encoder's limits and budget,
// whose leaf writers it shares.
type typedEncoder struct {
	cborEncoder
	// generic makes the encoder refuse what the generic entry points refuse and the Struct
	// functions accept (toarray structs), for MarshalCBOR's fast path (isGoStruct).
	generic bool
	hops    goHops // Go values read out of interfaces in a row (var x any; x = &x)
}

// typedMarshal appends the encoding of v to dst.
func (e *typedEncoder) top(dst []byte, v any) ([]byte, *Error) {
	if v == nil {
		return append(dst, cborNull), nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return append(dst, cborNull), nil
		}
		p := typedPlanOf(rv.Type())
		if p.err != nil {
			return dst, typedErr(p)
		}
		e.hops = goHops{depth: 1, n: 1} // v, as anyValue would count it
		return e.encode(dst, p.elem, rv.UnsafePointer(), 1)
	}
	return e.anyValue(dst, v, 1)
}

// typedErr returns a copy of the error of an invalid plan (a copy: callers add path tokens).
func typedErr(p *typedPlan) *Error {
	c := *p.err
	return &c
}

// asError converts the generic encoder's error to an *Error.
func typedAsError(err error) *Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	return valueError(ErrUnsupported, err.Error())
}

// encode appends the value of plan p at ptr, at nesting depth depth.
func (e *typedEncoder) encode(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, *Error) {
	switch p.kind {
	case typedString:
		s := *(*string)(ptr)
		if !typedValidString(s) {
			return dst, valueError(ErrInvalidUTF8, quoteDetail(s))
		}
		return append(cborAppendHead(dst, cborMajorText, uint64(len(s))), s...), nil
	case typedInt, typedUint:
		n, err := typedInteger(p, ptr)
		if err != nil {
			return dst, err
		}
		if e.unsafeInt(n) {
			return dst, errUnsafeInteger(n)
		}
		return cborAppendInt(dst, n), nil
	case typedBool:
		if *(*bool)(ptr) {
			return append(dst, cborTrue), nil
		}
		return append(dst, cborFalse), nil
	case typedPointer:
		pp := *(*unsafe.Pointer)(ptr)
		if pp == nil {
			return append(dst, cborNull), nil
		}
		return e.encode(dst, p.elem, pp, depth)
	case typedStruct:
		return e.structOf(dst, p, ptr, depth)
	case typedLink:
		out, err := cborAppendLink(dst, (*Link)(ptr).CID(), e.maxCIDLen)
		return out, typedAsError(err)
	case typedBlob:
		out, err := e.blob(dst, (*Blob)(ptr), depth)
		return out, typedAsError(err)
	case typedBytes:
		h := (*typedSliceHeader)(ptr)
		if h.data == nil {
			return append(dst, cborNull), nil // a nil slice, as fxamacker writes it
		}
		return append(cborAppendHead(dst, cborMajorBytes, uint64(h.len)), unsafe.Slice((*byte)(h.data), h.len)...), nil
	case typedByteArray:
		return append(cborAppendHead(dst, cborMajorBytes, uint64(p.len)), unsafe.Slice((*byte)(ptr), p.len)...), nil
	case typedTID:
		dst = append(dst, cborMajorText|tid.Len)
		out, _ := (*tid.TID)(ptr).AppendText(dst) // never fails
		return out, nil
	case typedSlice:
		h := (*typedSliceHeader)(ptr)
		if h.data == nil {
			return append(dst, cborNull), nil
		}
		return e.seq(dst, p, h.data, h.len, depth)
	case typedArray:
		return e.seq(dst, p, ptr, p.len, depth)
	case typedMap, typedUnknown:
		if *(*unsafe.Pointer)(ptr) == nil {
			return append(dst, cborNull), nil
		}
		if p.elem.kind == typedAny {
			return e.anyMap(dst, *(*map[string]any)(ptr), depth)
		}
		return e.goMap(dst, p, reflect.NewAt(p.typ, ptr).Elem(), depth)
	case typedAny:
		return e.anyValue(dst, *(*any)(ptr), depth)
	case typedIface:
		return e.anyValue(dst, reflect.NewAt(p.typ, ptr).Elem().Interface(), depth)
	case typedText:
		if !p.textMarshal && !p.textMarshalPtr {
			return dst, valueError(ErrUnsupported, "a Go "+p.typ.String()+" has UnmarshalText but no MarshalText")
		}
		text, err := reflect.NewAt(p.typ, ptr).Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return dst, valueError(ErrUnsupported, "MarshalText of a Go "+p.typ.String()+": "+err.Error())
		}
		if !utf8v.Valid(text) {
			return dst, valueError(ErrInvalidUTF8, quoteDetail(string(text)))
		}
		return append(cborAppendHead(dst, cborMajorText, uint64(len(text))), text...), nil
	case typedMethod:
		return e.method(dst, p, ptr, depth)
	case typedUnion:
		v, err := (*Union)(ptr).member()
		if err != nil {
			return dst, err
		}
		return e.anyValue(dst, v, depth)
	}
	// typedInvalid: the plan's error, even for a nil map, channel or function, whose type has no
	// data-model form whatever its value, as MarshalCBOR, MarshalJSON and MarshalJSONStruct refuse
	// it (TestGoValueErrors).
	if rv := reflect.NewAt(p.typ, ptr).Elem(); rv.Kind() == reflect.Float32 || rv.Kind() == reflect.Float64 {
		return dst, valueError(ErrFloat, fmt.Sprintf("%s %v", p.typ, rv.Float()))
	}
	return dst, typedErr(p)
}

// typedValidString is the decoders' UTF-8 check on a string: a loop for short ASCII strings,
// most of a record's, and cborValidText (utf8v) for the rest. utf8.ValidString was the typed
// encoder's largest cost under cachegrind (39% of mixpost's instructions, its mixed-script alt
// texts; internal/peers/bench_notes.md).
func typedValidString(s string) bool {
	if len(s) <= 16 {
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				return utf8v.ValidString(s)
			}
		}
		return true
	}
	// The decoders' check, eight bytes at a time, on the string's bytes (read only).
	return cborValidText(unsafe.Slice(unsafe.StringData(s), len(s)), 0, len(s))
}

// method writes a value through the fxamacker Marshaler of a type outside this package, once its
// output is checked as UnmarshalCBOR would check it (an *Error of the method keeps its sentinel
// and path, without an offset).
func (e *typedEncoder) method(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, *Error) {
	if !p.cborMarshal && !p.cborMarshalPtr {
		return dst, valueError(ErrUnsupported, "a Go "+p.typ.String()+" has UnmarshalCBOR but no MarshalCBOR")
	}
	out, err := reflect.NewAt(p.typ, ptr).Interface().(cbor.Marshaler).MarshalCBOR()
	if err != nil {
		if me, ok := err.(*Error); ok {
			c := *me
			c.path, c.Offset = nil, -1
			return dst, &c
		}
		return dst, valueError(ErrUnsupported, "MarshalCBOR of a Go "+p.typ.String()+": "+err.Error())
	}
	lim := Limits{MaxDepth: e.maxDepth, MaxElements: e.maxElements, MaxKeyLen: e.maxKeyLen, MaxCBORSize: math.MaxInt,
		MaxCIDLen: e.maxCIDLen, MaxValues: e.maxValues, safeInts: e.safeInts}
	s := cborScanner{data: out, lim: &lim, left: e.left, dataModel: true, encoded: true}
	end, serr := s.value(0, depth)
	if serr == nil && end != len(out) {
		serr = cborErr(ErrTrailingBytes, end, "after the output of MarshalCBOR of a Go "+p.typ.String())
	}
	if serr != nil {
		serr.Offset = -1
		return dst, serr
	}
	e.left = s.left
	return append(dst, out...), nil
}

// seq writes the n elements at base of the slice or array of plan p.
func (e *typedEncoder) seq(dst []byte, p *typedPlan, base unsafe.Pointer, n, depth int) ([]byte, *Error) {
	id := containerID{base, n}
	if err := e.enter(id, n, "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(n); err != nil {
		return dst, err
	}
	dst = cborAppendHead(dst, cborMajorArray, uint64(n))
	var err *Error
	for i := range n {
		if dst, err = e.encode(dst, p.elem, unsafe.Add(base, uintptr(i)*p.elem.size), depth+1); err != nil {
			return dst, err.atIndex(i)
		}
	}
	e.leave(id, depth)
	return dst, nil
}

// anyValue writes a value held in an interface: the generic encoder's leaves as it writes them,
// []any and map[string]any as it does but with any Go value inside, anything else by its plan.
func (e *typedEncoder) anyValue(dst []byte, v any, depth int) ([]byte, *Error) {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return append(dst, cborNull), nil
		}
		return e.anyMap(dst, x, depth)
	case []any:
		if x == nil {
			return append(dst, cborNull), nil
		}
		return e.anySlice(dst, x, depth)
	case nil, bool, string, int64, int, Link, cid.Cid, Bytes, []byte, Blob:
		out, err := e.cborEncoder.value(dst, v, depth)
		return out, typedAsError(err)
	case *Blob:
		if x != nil {
			out, err := e.cborEncoder.value(dst, v, depth)
			return out, typedAsError(err)
		}
	}
	// A Go value other than a data-model value (isGeneric): counted, as goValue counts it.
	saved, err := e.hops.hop(depth)
	if err != nil {
		return dst, err
	}
	dst, err = e.goAny(dst, v, depth)
	e.hops = saved
	return dst, err
}

// goAny writes v, a Go value other than a data-model value held in an interface: the other Go
// integer types, floats (refused) and a nil *Blob as the generic encoder writes them,
// UnknownFields as a map[string]any, anything else by its plan.
func (e *typedEncoder) goAny(dst []byte, v any, depth int) ([]byte, *Error) {
	switch x := v.(type) {
	case UnknownFields:
		if x == nil {
			return append(dst, cborNull), nil
		}
		return e.anyMap(dst, x, depth)
	case *Blob, int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32, float64:
		out, err := e.cborEncoder.value(dst, v, depth)
		return out, typedAsError(err)
	}
	rv := reflect.ValueOf(v)
	p := typedPlanOf(rv.Type())
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return append(dst, cborNull), nil
		}
		if p.err != nil {
			return dst, typedErr(p)
		}
		return e.encode(dst, p.elem, rv.UnsafePointer(), depth)
	}
	// A value held in an interface is not addressable: copied, once, to be read by its plan.
	c := reflect.New(rv.Type())
	c.Elem().Set(rv)
	return e.encode(dst, p, c.UnsafePointer(), depth)
}

// anySlice writes a []any as MarshalCBOR does, its elements by anyValue.
func (e *typedEncoder) anySlice(dst []byte, a []any, depth int) ([]byte, *Error) {
	if err := e.enter(arrayID(a), len(a), "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(a)); err != nil {
		return dst, err
	}
	dst = cborAppendHead(dst, cborMajorArray, uint64(len(a)))
	var err *Error
	for i, v := range a {
		if dst, err = e.anyValue(dst, v, depth+1); err != nil {
			return dst, err.atIndex(i)
		}
	}
	e.leave(arrayID(a), depth)
	return dst, nil
}

// anyMap writes a map[string]any as MarshalCBOR does (the same checks in the same order), its
// values by anyValue.
func (e *typedEncoder) anyMap(dst []byte, m map[string]any, depth int) ([]byte, *Error) {
	if err := e.enter(mapID(m), len(m), "entries", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(m)); err != nil {
		return dst, err
	}
	var stackEntries [maxStackEntries]mapEntry
	var stackOrder [maxStackEntries]sortItem
	entries, order, sc := entrySpace(m, &stackEntries, &stackOrder)
	entries, order, shape := collectEntries(entries, order, m)
	err := shape.check(m, e.maxCIDLen)
	if err == nil {
		s := sortedEntries{entries, order, true}
		s.sort()
		dst = cborAppendHead(dst, cborMajorMap, uint64(len(entries)))
		for j := range s.order {
			ent := s.at(j)
			if err = checkKey(ent.key, e.maxKeyLen); err != nil {
				break
			}
			dst = append(cborAppendHead(dst, cborMajorText, uint64(len(ent.key))), ent.key...)
			if dst, err = e.anyValue(dst, ent.value, depth+1); err != nil {
				err = err.atKey(ent.key)
				break
			}
		}
	}
	if sc != nil {
		putEntryScratch(sc, len(m))
	}
	if err != nil {
		return dst, err
	}
	e.leave(mapID(m), depth)
	return dst, nil
}
