package datamodel

// The typed JSON encoder: Go values as atproto JSON, following the plans of typed_plan.go, with
// MarshalJSON's writer (json_encode.go: escaping, $link, $bytes and blob forms, indentation-free
// layout) and its checks (encode.go: limits, value budget, cycle guard; rules.go: the map rules).
//
//	MarshalJSONStruct        the entry point
//	typedJSONEncoder.value   one Go value, by kind
//	typedJSONEncoder.anyValue a value held in an interface (anySlice, anyMap: generic containers)
//	typedJSONEncoder.object  a struct: its fields and UnknownFields, keys in bytewise order
//	typedJSONEncoder.structArray a struct marked toarray: the array of its fields
//	typedJSONEncoder.goMap   a Go map whose values are not any
//	typedJSONEncoder.shape   the map rules (DECISIONS rules 10, 11, 13) on a struct or map
//	typedJSONShallow             a Go value as the generic value the map rules look at

import (
	"encoding"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/fxamacker/cbor/v2"
	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/tid"
)

// MarshalJSONStruct returns the atproto JSON encoding of v, a Go struct (or any Go value the
// typed codec has a plan for: the types UnmarshalJSONStruct reads), exactly as MarshalJSON writes
// the same value as a generic tree: compact, the keys of every object in bytewise order (struct
// fields and map keys alike), Link as {"$link": "b…"}, Bytes and []byte as {"$bytes": …}
// (standard base64 without padding), Blob in its form (rule 13), tid.TID and
// encoding.TextMarshaler types as strings, integers of every Go integer type. A nil pointer,
// slice or map is null unless its field has omitempty (then, as every empty value of an
// omitempty field, it is left out); null and absent stay distinct (rule 15). The entries of an
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
}

// top appends v, the top-level value.
func (e *typedJSONEncoder) top(dst []byte, v any) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
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
		s := *(*string)(ptr)
		if !utf8.ValidString(s) {
			return dst, valueError(ErrInvalidUTF8, strconv.Quote(s))
		}
		return jsonAppendQuoted(dst, s), nil
	case typedBool:
		return strconv.AppendBool(dst, *(*bool)(ptr)), nil
	case typedInt, typedUint:
		n, err := typedJSONInteger(p, ptr)
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
		v, err := e.methodValue(p, ptr)
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
		x := reflect.New(iv.Elem().Type())
		x.Elem().Set(iv.Elem())
		return e.value(dst, typedPlanOf(x.Type().Elem()), x.UnsafePointer(), depth)
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
	case UnknownFields:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return e.anyMap(dst, x, depth)
	case nil, bool, string, int64, int, Link, Bytes, []byte, Blob, *Blob, cid.Cid,
		int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32, float64:
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

// anyMap appends a map[string]any as MarshalJSON does (the same checks in the same order), its
// values by anyValue.
func (e *typedJSONEncoder) anyMap(dst []byte, m map[string]any, depth int) ([]byte, error) {
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
	var err error
	if serr := shape.check(m, e.maxCIDLen); serr != nil {
		err = serr
	} else {
		s := sortedEntries{entries, order, false}
		s.sort()
		dst = e.open(dst, '{')
		for j := range s.order {
			ent := s.at(j)
			if kerr := checkKey(ent.key, e.maxKeyLen); kerr != nil {
				err = kerr
				break
			}
			dst = e.key(dst, j, ent.key)
			if dst, err = e.anyValue(dst, ent.value, depth+1); err != nil {
				err = atKey(err, ent.key)
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
	return e.close(dst, '}', len(m)), nil
}

// typedJSONInteger reads the Go integer at ptr, of plan p, as the data model's integer: an unsigned
// value beyond int64 is ErrIntegerRange (DECISIONS rule 9), as goInt reports it.
func typedJSONInteger(p *typedPlan, ptr unsafe.Pointer) (int64, *Error) {
	if p.kind == typedInt {
		switch p.size {
		case 1:
			return int64(*(*int8)(ptr)), nil
		case 2:
			return int64(*(*int16)(ptr)), nil
		case 4:
			return int64(*(*int32)(ptr)), nil
		}
		return *(*int64)(ptr), nil
	}
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
	if u > 1<<63-1 {
		return 0, valueError(ErrIntegerRange, strconv.FormatUint(u, 10))
	}
	return int64(u), nil
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
	if !utf8.Valid(b) {
		return "", valueError(ErrInvalidUTF8, strconv.Quote(string(b)))
	}
	return string(b), nil
}

// methodValue returns the generic value of the DAG-CBOR that the fxamacker Marshaler of plan p
// at ptr writes.
func (e *typedJSONEncoder) methodValue(p *typedPlan, ptr unsafe.Pointer) (any, *Error) {
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
	lim := DefaultLimits()
	lim.MaxCBORSize, lim.MaxDepth, lim.MaxElements, lim.MaxValues = len(b)+1, MaxDepthCeiling, len(b)+1, len(b)+1
	lim.MaxKeyLen, lim.MaxCIDLen = len(b)+1, len(b)+1 // the encoder's own limits apply next
	v, err := UnmarshalCBOR(b, WithLimits(lim))
	if err != nil {
		e := err.(*Error)
		return nil, valueError(e.Err, "from the MarshalCBOR method of a Go "+p.typ.String()+": "+e.Detail)
	}
	return v, nil
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

// structArray appends a struct marked toarray as the array of its fields in declaration order,
// as MarshalCBORStruct writes it (a field behind a nil embedded pointer is null).
func (e *typedJSONEncoder) structArray(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, error) {
	n := len(p.fields)
	id := containerID{unsafe.Pointer(p), int(uintptr(ptr))}
	if err := e.enter(id, n, "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(n); err != nil {
		return dst, err
	}
	dst = e.open(dst, '[')
	var err error
	for i := range p.fields {
		f := &p.fields[i]
		dst = e.element(dst, i)
		if fp := typedFieldPtr(ptr, f, false); fp == nil {
			dst = append(dst, "null"...)
		} else if dst, err = e.value(dst, f.plan, fp, depth+1); err != nil {
			return dst, atIndex(err, i)
		}
	}
	e.leave(id, depth)
	return e.close(dst, ']', n), nil
}

// typedJSONInfo is what the JSON encoder needs of a struct's plan beyond the plan itself.
type typedJSONInfo struct {
	order    []int // indexes of p.fields in bytewise order of their keys (MarshalJSON's order)
	reserved bool  // a field's key starts with '$': the map rules apply (see shape)
}

var typedJSONInfos sync.Map // *typedPlan → *typedJSONInfo

func typedJSONInfoOf(p *typedPlan) *typedJSONInfo {
	if x, ok := typedJSONInfos.Load(p); ok {
		return x.(*typedJSONInfo)
	}
	info := &typedJSONInfo{order: make([]int, len(p.fields))}
	for i := range p.fields {
		info.order[i] = i
		info.reserved = info.reserved || strings.HasPrefix(p.fields[i].name, "$")
	}
	slices.SortFunc(info.order, func(a, b int) int { return strings.Compare(p.fields[a].name, p.fields[b].name) })
	x, _ := typedJSONInfos.LoadOrStore(p, info)
	return x.(*typedJSONInfo)
}

// typedJSONMember is a member of an object being written: a struct field (f, at ptr) or an
// entry of a map or of UnknownFields (val).
type typedJSONMember struct {
	key string
	f   *typedField
	ptr unsafe.Pointer
	val any
}

// object appends the struct at ptr, of plan p: the fields that are written (not omitted as
// empty, not promoted through a nil embedded pointer) and the entries of its UnknownFields field,
// as one object with its keys in bytewise order, checked as MarshalJSON checks a map.
func (e *typedJSONEncoder) object(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, error) {
	info := typedJSONInfoOf(p)
	var stack [maxStackEntries]typedJSONMember
	ms := stack[:0]
	for _, i := range info.order {
		f := &p.fields[i]
		fp := typedFieldPtr(ptr, f, false)
		if fp == nil || f.omitEmpty && typedEmpty(f.plan, fp) {
			continue
		}
		ms = append(ms, typedJSONMember{key: f.name, f: f, ptr: fp})
	}
	reserved := info.reserved
	if p.unknown != nil {
		if u := *(*UnknownFields)(unsafe.Add(ptr, p.unknown.offset)); len(u) > 0 {
			fields := len(ms)
			for k, v := range u {
				if fi := typedJSONField(p, k, 0); fi >= 0 {
					return dst, valueError(ErrGoType, "UnknownFields field "+p.unknown.goName+" has the key "+
						strconv.Quote(k)+" of Go field "+p.fields[fi].goName).atKey(k)
				}
				reserved = reserved || strings.HasPrefix(k, "$")
				ms = append(ms, typedJSONMember{key: k, val: v})
			}
			slices.SortFunc(ms[fields:], func(a, b typedJSONMember) int { return strings.Compare(a.key, b.key) })
			if fields > 0 {
				typedJSONMerge(ms, fields)
			}
		}
	}
	id := containerID{unsafe.Pointer(p), int(uintptr(ptr))}
	return e.members(dst, ms, id, reserved, depth)
}

// typedJSONMerge sorts ms, whose two runs ms[:mid] and ms[mid:] are each sorted, by key.
func typedJSONMerge(ms []typedJSONMember, mid int) {
	if ms[mid-1].key < ms[mid].key {
		return
	}
	slices.SortStableFunc(ms, func(a, b typedJSONMember) int { return strings.Compare(a.key, b.key) })
}

// members appends an object of the members ms, sorted by key, after the checks MarshalJSON makes
// of a map, in its order: depth and size, the value budget, the map rules when a key starts with
// '$' (reserved), then each key and value.
func (e *typedJSONEncoder) members(dst []byte, ms []typedJSONMember, id containerID, reserved bool, depth int) ([]byte, error) {
	if err := e.enter(id, len(ms), "entries", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(ms)); err != nil {
		return dst, err
	}
	if reserved {
		if err := e.shape(ms); err != nil {
			return dst, err
		}
	}
	dst = e.open(dst, '{')
	var err error
	for i := range ms {
		m := &ms[i]
		if m.f == nil || !m.f.validKey || len(m.key) > e.maxKeyLen {
			if err := checkKey(m.key, e.maxKeyLen); err != nil {
				return dst, err
			}
		}
		dst = e.key(dst, i, m.key)
		if m.f != nil {
			dst, err = e.value(dst, m.f.plan, m.ptr, depth+1)
		} else {
			dst, err = e.anyValue(dst, m.val, depth+1)
		}
		if err != nil {
			return dst, atKey(err, m.key)
		}
	}
	e.leave(id, depth)
	return e.close(dst, '}', len(ms)), nil
}

// shape applies the map rules to an object about to be written (DECISIONS rules 10, 11, 13), as
// MarshalJSON applies them to a map, with its errors: on the generic values the rules look at.
func (e *typedJSONEncoder) shape(ms []typedJSONMember) *Error {
	// The usual case, decided without the generic values: no "$link" or "$bytes" key, and a
	// "$type" that is a non-empty string other than "blob".
	usual := true
	for i := range ms {
		switch ms[i].key {
		case "$link", "$bytes":
			usual = false
		case "$type":
			var s any = ms[i].val
			if f := ms[i].f; f != nil {
				s = nil
				if f.plan.kind == typedString {
					s = *(*string)(ms[i].ptr)
				}
			}
			usual = usual && s != nil && s != "" && s != "blob"
			if _, ok := s.(string); !ok {
				usual = false
			}
		}
	}
	if usual {
		return nil
	}
	m := make(map[string]any, len(ms))
	for i := range ms {
		if ms[i].f != nil {
			m[ms[i].key] = typedJSONShallow(ms[i].f.plan, ms[i].ptr)
		} else {
			m[ms[i].key] = ms[i].val
		}
	}
	return checkMapShape(m, e.maxCIDLen)
}

// goMap appends the Go map at ptr, of plan p, whose values are not typed any.
func (e *typedJSONEncoder) goMap(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, error) {
	mv := reflect.NewAt(p.typ, ptr).Elem()
	ms := make([]typedJSONMember, 0, mv.Len())
	// The map's values are copied out, to have an address: f holds the plan, with no field.
	vf := &typedField{plan: p.elem, validKey: false}
	reserved := false
	for it := mv.MapRange(); it.Next(); {
		k := it.Key().String()
		v := reflect.New(p.elem.typ)
		v.Elem().Set(it.Value())
		reserved = reserved || strings.HasPrefix(k, "$")
		ms = append(ms, typedJSONMember{key: k, f: vf, ptr: v.UnsafePointer()})
	}
	slices.SortFunc(ms, func(a, b typedJSONMember) int { return strings.Compare(a.key, b.key) })
	return e.members(dst, ms, containerID{*(*unsafe.Pointer)(ptr), 0}, reserved, depth)
}

// typedJSONShallow returns the Go value of plan p at ptr as the generic value the map rules look at
// (rules.go: checkMapShape): scalars, links, bytes and blobs as themselves, and containers as an
// empty array or object, which the rules only name ("found an array").
func typedJSONShallow(p *typedPlan, ptr unsafe.Pointer) any {
	switch p.kind {
	case typedAny:
		return *(*any)(ptr)
	case typedString:
		return *(*string)(ptr)
	case typedBool:
		return *(*bool)(ptr)
	case typedInt, typedUint:
		if n, err := typedJSONInteger(p, ptr); err == nil {
			return n
		}
		return *(*uint64)(ptr) // beyond int64: goInt reports it
	case typedLink:
		return *(*Link)(ptr)
	case typedBlob:
		return *(*Blob)(ptr)
	case typedBytes:
		if b := *(*[]byte)(ptr); b != nil {
			return Bytes(b)
		}
		return nil
	case typedByteArray:
		return Bytes(unsafe.Slice((*byte)(ptr), p.len))
	case typedTID:
		return (*(*tid.TID)(ptr)).String()
	case typedText:
		s, _ := typedJSONText(p, ptr)
		return s
	case typedPointer:
		if pp := *(*unsafe.Pointer)(ptr); pp != nil {
			return typedJSONShallow(p.elem, pp)
		}
		return nil
	case typedSlice:
		if (*typedSliceHeader)(ptr).data == nil {
			return nil
		}
		return []any{}
	case typedArray:
		return []any{}
	case typedMap, typedUnknown:
		if *(*unsafe.Pointer)(ptr) == nil {
			return nil
		}
		return map[string]any{}
	case typedStruct:
		return map[string]any{}
	case typedUnion:
		if (*Union)(ptr).v == nil {
			return nil
		}
		return map[string]any{}
	case typedIface:
		if iv := reflect.NewAt(p.typ, ptr).Elem(); !iv.IsNil() {
			return iv.Elem().Interface()
		}
		return nil
	case typedMethod:
		var e typedJSONEncoder
		v, _ := e.methodValue(p, ptr)
		return v
	}
	return nil
}
