package datamodel

// The typed CBOR encoder: Go values to canonical DAG-CBOR, following the plans of typed_plan.go,
// with every rule of MarshalCBOR (rules.go; DECISIONS rules 9–14), its limits, sentinels and
// paths, checked as it writes, so that no pass over the output is needed.
//
//	typedEncoder.encode     one Go value, by kind
//	typedEncoder.structOf   a struct: its fields (and UnknownFields) merged in key order
//	typedEncoder.anyValue   a value held in an interface: generic leaves, containers, or by plan
//	typedEncoder.anyMap     map[string]any, as MarshalCBOR writes it
//	typedEncoder.goMap      any other map with string keys
//	typedEncoder.seq        slices and arrays

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/internal/utf8v"
	"github.com/atcore/atcore/tid"
)

// typedEncoder is the state of one MarshalCBORStruct: the generic encoder's limits and budget,
// whose leaf writers it shares.
type typedEncoder struct {
	cborEncoder
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
			return dst, valueError(ErrInvalidUTF8, strconv.Quote(s))
		}
		return append(cborAppendHead(dst, cborMajorText, uint64(len(s))), s...), nil
	case typedInt:
		var n int64
		switch p.size {
		case 1:
			n = int64(*(*int8)(ptr))
		case 2:
			n = int64(*(*int16)(ptr))
		case 4:
			n = int64(*(*int32)(ptr))
		default:
			n = *(*int64)(ptr)
		}
		if e.unsafeInt(n) {
			return dst, errUnsafeInteger(n)
		}
		return cborAppendInt(dst, n), nil
	case typedUint:
		var u uint64
		switch p.size {
		case 1:
			u = uint64(*(*uint8)(ptr))
		case 2:
			u = uint64(*(*uint16)(ptr))
		case 4:
			u = uint64(*(*uint32)(ptr))
		default:
			u = *(*uint64)(ptr)
		}
		if u > math.MaxInt64 {
			return dst, valueError(ErrIntegerRange, strconv.FormatUint(u, 10))
		}
		if e.unsafeInt(int64(u)) {
			return dst, errUnsafeInteger(int64(u))
		}
		return cborAppendHead(dst, cborMajorUint, u), nil
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
			return dst, valueError(ErrInvalidUTF8, strconv.Quote(string(text)))
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
	// typedInvalid: null where the type can be nil, else the plan's error.
	switch rv := reflect.NewAt(p.typ, ptr).Elem(); rv.Kind() {
	case reflect.Map, reflect.Chan, reflect.Func, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
		if rv.IsNil() {
			return append(dst, cborNull), nil
		}
	case reflect.Float32, reflect.Float64:
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
	case UnknownFields:
		if x == nil {
			return append(dst, cborNull), nil
		}
		return e.anyMap(dst, x, depth)
	case nil, bool, string, int64, int, Link, Bytes, []byte, Blob, *Blob,
		int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32, float64:
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

// goMap writes a map with string keys and values of a Go type other than any. Its rules are
// checked on the same tree as a map[string]any, which it is copied into when a "$type" key makes
// the rules look at values (rare).
func (e *typedEncoder) goMap(dst []byte, p *typedPlan, mv reflect.Value, depth int) ([]byte, *Error) {
	n := mv.Len()
	id := containerID{mv.UnsafePointer(), 0}
	if err := e.enter(id, n, "entries", depth); err != nil {
		return dst, err
	}
	if err := e.take(n); err != nil {
		return dst, err
	}
	// The values are copied out to be addressable, and sorted by key through indices.
	keys := make([]string, 0, n)
	vals := reflect.MakeSlice(reflect.SliceOf(p.elem.typ), n, n)
	generic := map[string]any(nil)
	for it := mv.MapRange(); it.Next(); {
		k := it.Key().String()
		vals.Index(len(keys)).Set(it.Value())
		keys = append(keys, k)
		if k == "$link" || k == "$bytes" || k == "$type" {
			generic = map[string]any{}
		}
	}
	if generic != nil {
		for i, k := range keys {
			generic[k] = vals.Index(i).Interface()
		}
		if err := checkMapShape(generic, e.maxCIDLen); err != nil {
			return dst, err
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if cborKeyLess(keys[a], keys[b]) {
			return -1
		}
		return 1 // keys are distinct
	})
	dst = cborAppendHead(dst, cborMajorMap, uint64(n))
	base := vals.UnsafePointer()
	var err *Error
	for _, i := range order {
		k := keys[i]
		if err := checkKey(k, e.maxKeyLen); err != nil {
			return dst, err
		}
		dst = append(cborAppendHead(dst, cborMajorText, uint64(len(k))), k...)
		if dst, err = e.encode(dst, p.elem, unsafe.Add(base, uintptr(i)*p.elem.size), depth+1); err != nil {
			return dst, err.atKey(k)
		}
	}
	e.leave(id, depth)
	return dst, nil
}

// structOf writes the struct of plan p at ptr as a map: its fields that are written (not omitted
// by omitempty, not behind a nil embedded pointer) and the entries of its UnknownFields field,
// merged in key order. The checks are MarshalCBOR's for the same map, in its order: depth and
// size, the value budget, the reserved keys and "$type" (rules 10, 11, 13), then each key and
// value. An UnknownFields entry whose key is also a field's is refused (ErrGoType).
func (e *typedEncoder) structOf(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, *Error) {
	if p.err != nil {
		return dst, typedErr(p)
	}
	if p.toArray {
		return e.structArray(dst, p, ptr, depth)
	}
	n := p.always
	for _, i := range p.optional {
		if typedWritten(&p.fields[i], ptr) != nil {
			n++
		}
	}
	// The reserved keys among the fields written: "$link" or "$bytes" (refused), "$type".
	typeField, reserved := -1, false
	for _, i := range p.dollar {
		f := &p.fields[i]
		if typedWritten(f, ptr) == nil {
			continue
		}
		reserved = reserved || f.name == "$link" || f.name == "$bytes"
		if f.name == "$type" {
			typeField = i
		}
	}
	var unknown map[string]any
	if p.unknown != nil {
		unknown = *(*map[string]any)(unsafe.Add(ptr, p.unknown.offset))
		n += len(unknown)
	}
	// A struct is identified by its address and plan: a struct and its first field share an
	// address, and only the same type at the same address again is a cycle.
	id := containerID{ptr, int(uintptr(unsafe.Pointer(p)))}
	if err := e.enter(id, n, "entries", depth); err != nil {
		return dst, err
	}
	if err := e.take(n); err != nil {
		return dst, err
	}
	var s sortedEntries
	var sc *entryScratch
	var shape mapShape
	var stackEntries [maxStackEntries]mapEntry
	var stackOrder [maxStackEntries]sortItem
	if len(unknown) > 0 {
		var entries []mapEntry
		var order []sortItem
		entries, order, sc = entrySpace(unknown, &stackEntries, &stackOrder)
		entries, order, shape = collectEntries(entries, order, unknown)
		s = sortedEntries{entries, order, true}
		s.sort()
	}
	dst, err := e.structEntries(dst, p, ptr, n, depth, &s, shape, reserved, typeField, unknown)
	if sc != nil {
		putEntryScratch(sc, len(unknown))
	}
	if err != nil {
		return dst, err
	}
	e.leave(id, depth)
	return dst, nil
}

// typedWritten returns the address of field f of the struct at ptr if the field is written: not
// omitted by omitempty, not behind a nil embedded pointer; else nil.
func typedWritten(f *typedField, ptr unsafe.Pointer) unsafe.Pointer {
	var fp unsafe.Pointer
	if f.direct {
		fp = unsafe.Add(ptr, f.offset)
	} else if fp = typedFieldPtr(ptr, f, false); fp == nil {
		return nil
	}
	if f.omitEmpty && typedEmpty(f.plan, fp) {
		return nil
	}
	return fp
}

// structEntries is structOf once the entries are counted and the unknown ones sorted in s.
func (e *typedEncoder) structEntries(dst []byte, p *typedPlan, ptr unsafe.Pointer, n, depth int, s *sortedEntries,
	shape mapShape, reserved bool, typeField int, unknown map[string]any) ([]byte, *Error) {
	for j := range s.order {
		if k := s.at(j).key; typedFieldIndex(p, k) >= 0 {
			return dst, valueError(ErrGoType, "the UnknownFields of Go type "+p.typ.String()+
				" has the key of its field "+p.fields[typedFieldIndex(p, k)].goName).atKey(k)
		}
	}
	if reserved || shape.hasLink || shape.hasBytes || typeField >= 0 || shape.hasType {
		if err := e.structShape(p, ptr, shape, reserved, typeField, unknown); err != nil {
			return dst, err
		}
	}
	dst = cborAppendHead(dst, cborMajorMap, uint64(n))
	fi, ui := 0, 0
	var err *Error
	for fi < len(p.fields) || ui < len(s.order) {
		if ui < len(s.order) && (fi == len(p.fields) || cborKeyLess(s.at(ui).key, p.fields[fi].name)) {
			ent := s.at(ui)
			ui++
			if err = checkKey(ent.key, e.maxKeyLen); err != nil {
				return dst, err
			}
			dst = append(cborAppendHead(dst, cborMajorText, uint64(len(ent.key))), ent.key...)
			if dst, err = e.anyValue(dst, ent.value, depth+1); err != nil {
				return dst, err.atKey(ent.key)
			}
			continue
		}
		f := &p.fields[fi]
		fi++
		fp := typedWritten(f, ptr)
		if fp == nil {
			continue
		}
		if !f.validKey || len(f.name) > e.maxKeyLen {
			return dst, checkKey(f.name, e.maxKeyLen)
		}
		dst = append(dst, f.key...)
		if dst, err = e.encode(dst, f.plan, fp, depth+1); err != nil {
			return dst, err.atKey(f.name)
		}
	}
	return dst, nil
}

// structShape applies the rules on reserved keys (rules 10, 11, 13) to a struct written as a map:
// no "$link" or "$bytes" key, "$type" a non-empty string, and a struct typed "blob" exactly the
// blob shape, checked on the same tree MarshalCBOR would check.
func (e *typedEncoder) structShape(p *typedPlan, ptr unsafe.Pointer, shape mapShape, reserved bool, typeField int, unknown map[string]any) *Error {
	hasLink, hasBytes := shape.hasLink, shape.hasBytes
	if reserved {
		for i := range p.fields {
			f := &p.fields[i]
			fp := typedFieldPtr(ptr, f, false)
			if fp == nil || f.omitEmpty && typedEmpty(f.plan, fp) {
				continue
			}
			hasLink = hasLink || f.name == "$link"
			hasBytes = hasBytes || f.name == "$bytes"
		}
	}
	switch {
	case hasLink:
		return errReservedKey("$link")
	case hasBytes:
		return errReservedKey("$bytes")
	}
	blob := false
	switch {
	case typeField >= 0 && p.fields[typeField].plan.kind == typedString:
		// Read as a string, not boxed into an interface: this runs for every typed record.
		t := *(*string)(typedFieldPtr(ptr, &p.fields[typeField], false))
		if t == "" {
			return errType(describe(""))
		}
		blob = t == "blob"
	case typeField >= 0:
		f := &p.fields[typeField]
		typ := reflect.NewAt(f.plan.typ, typedFieldPtr(ptr, f, false)).Elem().Interface()
		if err := checkType(typ); err != nil {
			return err
		}
	case shape.hasType:
		if err := checkType(shape.typ); err != nil {
			return err
		}
		blob = shape.typ == "blob"
	}
	if !blob {
		return nil
	}
	m := make(map[string]any, len(p.fields)+len(unknown))
	for k, v := range unknown {
		m[k] = v
	}
	for i := range p.fields {
		f := &p.fields[i]
		fp := typedFieldPtr(ptr, f, false)
		if fp == nil || f.omitEmpty && typedEmpty(f.plan, fp) {
			continue
		}
		m[f.name] = reflect.NewAt(f.plan.typ, fp).Elem().Interface()
	}
	m["$type"] = "blob"
	_, err := blobFromMap(m, e.maxCIDLen)
	return err
}

// typedFieldIndex returns the index of the field of struct plan p whose key is key, or -1.
func typedFieldIndex(p *typedPlan, key string) int {
	lo, hi := 0, len(p.fields)
	for lo < hi {
		mid := (lo + hi) / 2
		if cborKeyLess(p.fields[mid].name, key) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(p.fields) && p.fields[lo].name == key {
		return lo
	}
	return -1
}

// structArray writes a toarray struct: an array of its fields in declaration order.
func (e *typedEncoder) structArray(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, *Error) {
	n := len(p.fields)
	id := containerID{ptr, int(uintptr(unsafe.Pointer(p)))}
	if err := e.enter(id, n, "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(n); err != nil {
		return dst, err
	}
	dst = cborAppendHead(dst, cborMajorArray, uint64(n))
	var err *Error
	for i := range p.fields {
		f := &p.fields[i]
		fp := typedFieldPtr(ptr, f, false)
		if fp == nil {
			dst = append(dst, cborNull) // behind a nil embedded pointer
		} else if dst, err = e.encode(dst, f.plan, fp, depth+1); err != nil {
			return dst, err.atIndex(i)
		}
	}
	e.leave(id, depth)
	return dst, nil
}
