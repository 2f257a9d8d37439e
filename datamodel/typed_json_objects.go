package datamodel

// The objects of the typed JSON encoder (typed_json_encode.go): structs, Go maps and
// map[string]any, with MarshalJSON's checks in its order, and the map rules on them.
//
//	typedJSONEncoder.object      a struct: its fields and UnknownFields, keys in bytewise order
//	typedJSONEncoder.members     an object's members, checked and written
//	typedJSONEncoder.shape       the map rules (DECISIONS rules 10, 11, 13) on a struct or map
//	typedJSONEncoder.goMap       a Go map whose values are not any
//	typedJSONEncoder.anyMap      a map[string]any, its values by anyValue
//	typedJSONEncoder.structArray a struct marked toarray: the array of its fields
//	typedJSONShallow             a Go value as the generic value the map rules look at

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/atcore/atcore/tid"
)

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

// typedJSONInfoOf returns the JSON encoder's information on struct plan p, computed on first use.
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
		if fp == nil || f.omit && typedOmitted(f, fp) {
			continue
		}
		ms = append(ms, typedJSONMember{key: f.name, f: f, ptr: fp})
	}
	reserved := info.reserved
	if p.unknown != nil {
		if u := *(*UnknownFields)(unsafe.Add(ptr, p.unknown.offset)); len(u) > 0 {
			if i := typedUnknownClash(p, u); i >= 0 {
				return dst, errUnknownClash(p, i)
			}
			fields := len(ms)
			for k, v := range u {
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
		if err := e.shape(ms, depth+1); err != nil {
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
func (e *typedJSONEncoder) shape(ms []typedJSONMember, depth int) *Error {
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
			m[ms[i].key] = typedJSONShallow(ms[i].f.plan, ms[i].ptr, goAt{depth, e.maxDepth})
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

// typedJSONShallow returns the Go value of plan p at ptr as the generic value the map rules look at
// (rules.go: checkMapShape): scalars, links, bytes and blobs as themselves, and containers as an
// empty array or object, which the rules only name ("found an array").
func typedJSONShallow(p *typedPlan, ptr unsafe.Pointer, at goAt) any {
	switch p.kind {
	case typedAny:
		return *(*any)(ptr)
	case typedString:
		return *(*string)(ptr)
	case typedBool:
		return *(*bool)(ptr)
	case typedInt, typedUint:
		if n, err := typedInteger(p, ptr); err == nil {
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
			return typedJSONShallow(p.elem, pp, at)
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
		v, _ := typedMethodValue(p, ptr, at)
		return v
	}
	return nil
}
