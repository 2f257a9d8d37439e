package datamodel

// The typed CBOR encoder's maps (see typed_cbor_encode.go): Go maps and structs, their entries
// (and a struct's UnknownFields) written in canonical key order with the map rules of rules.go.
//
//	typedEncoder.goMap       a map with string keys other than map[string]any
//	typedEncoder.structOf    a struct: its fields and UnknownFields merged in key order
//	typedEncoder.structShape the map rules on a struct's entries ($type, blob shape)
//	typedEncoder.structArray a toarray struct

import (
	"reflect"
	"slices"
	"strconv"
	"unsafe"
)

// goMap writes a map with string keys and values of a Go type other than any. Its rules are
// checked on the equal generic tree, as MarshalCBOR checks them: the map is copied into a
// map[string]any of its values as goValue converts them when a reserved key makes the rules look
// at values (rare).
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
			generic[k] = goElem(p.elem, vals.Index(i), goAt{depth + 1, e.maxDepth}) // a named string type is a string
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

// structOf writes the struct of plan p at ptr as a map: its fields that are written (not omitted by
// omitempty or omitzero, not behind a nil embedded pointer) and the entries of its UnknownFields
// field, merged in key order. The checks are MarshalCBOR's for the same map, in its order: depth
// and size, the value budget, the reserved keys and "$type" (rules 10, 11, 13), then each key and
// value; before them, an UnknownFields entry whose key is also a field's refuses the struct
// (ErrGoType, errUnknownClash), as goStruct refuses it.
func (e *typedEncoder) structOf(dst []byte, p *typedPlan, ptr unsafe.Pointer, depth int) ([]byte, *Error) {
	if p.err != nil {
		return dst, typedErr(p)
	}
	if p.toArray {
		if e.generic {
			return dst, valueError(ErrUnsupported, "a toarray struct") // MarshalCBOR's generic walker gives the error
		}
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
		if i := typedUnknownClash(p, unknown); i >= 0 {
			return dst, errUnknownClash(p, i)
		}
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
// omitted by omitempty or omitzero, not behind a nil embedded pointer; else nil.
func typedWritten(f *typedField, ptr unsafe.Pointer) unsafe.Pointer {
	var fp unsafe.Pointer
	if f.direct {
		fp = unsafe.Add(ptr, f.offset)
	} else if fp = typedFieldPtr(ptr, f, false); fp == nil {
		return nil
	}
	if f.omit && typedOmitted(f, fp) {
		return nil
	}
	return fp
}

// structEntries is structOf once the entries are counted and the unknown ones sorted in s.
func (e *typedEncoder) structEntries(dst []byte, p *typedPlan, ptr unsafe.Pointer, n, depth int, s *sortedEntries,
	shape mapShape, reserved bool, typeField int, unknown map[string]any) ([]byte, *Error) {
	if reserved || shape.hasLink || shape.hasBytes || typeField >= 0 || shape.hasType {
		if err := e.structShape(p, ptr, depth, shape, reserved, typeField, unknown); err != nil {
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
// blob shape, checked on the same tree MarshalCBOR would check: the fields' values as goValue
// converts them (a *Link is a link, a named string type a string).
func (e *typedEncoder) structShape(p *typedPlan, ptr unsafe.Pointer, depth int, shape mapShape, reserved bool, typeField int, unknown map[string]any) *Error {
	hasLink, hasBytes := shape.hasLink, shape.hasBytes
	if reserved {
		for i := range p.fields {
			f := &p.fields[i]
			fp := typedFieldPtr(ptr, f, false)
			if fp == nil || f.omit && typedOmitted(f, fp) {
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
		typ := goElem(f.plan, reflect.NewAt(f.plan.typ, typedFieldPtr(ptr, f, false)).Elem(), goAt{depth + 1, e.maxDepth})
		if err := checkType(typ); err != nil {
			return err
		}
		s, _ := typeString(typ) // a *string, say
		blob = s == "blob"
	case shape.hasType:
		if err := checkType(shape.typ); err != nil {
			return err
		}
		s, _ := typeString(shape.typ)
		blob = s == "blob"
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
		if fp == nil || f.omit && typedOmitted(f, fp) {
			continue
		}
		m[f.name] = goElem(f.plan, reflect.NewAt(f.plan.typ, fp).Elem(), goAt{depth + 1, e.maxDepth})
	}
	m["$type"] = "blob"
	_, err := blobFromMap(m, e.maxCIDLen)
	return err
}

// typedUnknownClash returns the index in p.fields of the first field, in canonical key order,
// whose key is also the key of an entry of u, the UnknownFields of a struct of plan p; or -1.
// Such a struct has no data-model form: every encoder, Validate and the walks refuse it before
// anything inside it (errUnknownClash), at that one key whatever the order in which Go ranges
// over u, so that every entry point reports the same error.
func typedUnknownClash(p *typedPlan, u map[string]any) int {
	first := -1
	for k := range u {
		if i := typedFieldIndex(p, k); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// errUnknownClash is the error for a struct of plan p whose UnknownFields has the key of its
// field p.fields[i] (typedUnknownClash).
func errUnknownClash(p *typedPlan, i int) *Error {
	k := p.fields[i].name
	return valueError(ErrGoType, "key "+strconv.Quote(k)+" of "+p.unknown.goName+
		" is also the key of Go field "+p.fields[i].goName).atKey(k)
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
