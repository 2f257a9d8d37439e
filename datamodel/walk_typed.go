package datamodel

// The typed walk: Blobs and Links of a Go struct read its fields through the struct's plan
// (typed_plan.go) instead of converting it into maps first (govalue.go), and find what the walk
// of the converted tree finds, in the same order, under the same budget and depth stop.
//
// The walk of a converted tree (goWalk, walk.go) meets a Go container twice at one depth: as
// itself (a goRef, or the value the caller passed), then as the map or []any it converts to, and
// counts both against its budget; a scalar field once. The methods below count, stop and visit
// exactly so, without building the map: container is "convert, then walk the result", elem is
// "take the field as goElem would, then walk it". Values that only the visitor of Blobs or Links
// could tell apart by being converted (a struct whose $type is "blob", which Blobs takes for a
// blob) and the rarer kinds (maps, marshaling methods, unions, UnknownFields) take the walk of
// the converted value, from that value down: what is written here is only the common path.
// typedWalkProperty (walk_typed_test.go) holds the two walks to equal results.

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// typedWalkInfo is what the typed walk needs of a struct's plan beyond the plan itself.
type typedWalkInfo struct {
	order     []int // indexes of p.fields in bytewise order of their keys (the walk's order)
	typeField int   // the index in p.fields of the field keyed "$type", or -1
	// legacyKeys: the struct has fields keyed "cid" and "mimeType", so it may convert to the
	// legacy blob form {cid, mimeType}, which Blobs takes for a blob.
	legacyKeys bool
	// converted: the struct is walked as the map it converts to: it has an UnknownFields field,
	// whose entries join its fields, or fxamacker's toarray option, which goValue refuses.
	converted bool
}

var typedWalkInfos sync.Map // *typedPlan → *typedWalkInfo

var mapStringAnyType = reflect.TypeFor[map[string]any]()

// typedWalkInfoOf returns the typed walk's information on struct plan p, computed on first use.
func typedWalkInfoOf(p *typedPlan) *typedWalkInfo {
	if x, ok := typedWalkInfos.Load(p); ok {
		return x.(*typedWalkInfo)
	}
	info := &typedWalkInfo{order: make([]int, len(p.fields)), typeField: -1}
	var cidKey, mimeKey bool
	for i := range p.fields {
		info.order[i] = i
		switch p.fields[i].name {
		case "$type":
			info.typeField = i
		case "cid":
			cidKey = true
		case "mimeType":
			mimeKey = true
		}
	}
	info.legacyKeys = cidKey && mimeKey
	slices.SortFunc(info.order, func(a, b int) int { return strings.Compare(p.fields[a].name, p.fields[b].name) })
	info.converted = p.unknown != nil || p.toArray
	x, _ := typedWalkInfos.LoadOrStore(p, info)
	return x.(*typedWalkInfo)
}

// typedContainerOf returns the plan of v and the address of its value when the typed walk
// takes v: a Go struct (copied, once, as goValue copies it, to be read through its address), a
// non-nil pointer to one, or a goRef of a struct, slice or array (what a converted map holds).
func typedContainerOf(v any) (*typedPlan, unsafe.Pointer, bool) {
	if r, ok := v.(goRef); ok {
		switch r.p.kind {
		case typedStruct, typedSlice, typedArray:
			return r.p, r.rv.Addr().UnsafePointer(), true
		}
		return nil, nil, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Struct:
		p := typedPlanOf(rv.Type())
		if p.kind != typedStruct {
			return nil, nil, false // its marshaling methods decide its value
		}
		c := reflect.New(rv.Type())
		c.Elem().Set(rv)
		return p, c.UnsafePointer(), true
	case reflect.Pointer:
		if rv.IsNil() || rv.Type().Elem().Kind() != reflect.Struct {
			return nil, nil, false
		}
		p := typedPlanOf(rv.Type())
		if p.kind != typedPointer || p.elem.kind != typedStruct {
			return nil, nil, false
		}
		return p.elem, rv.UnsafePointer(), true
	}
	return nil, nil, false
}

// container walks the Go container of plan p at ptr as walk walks what goValue converts it to,
// at depth: the caller has counted and visited the container itself.
func (w *goWalk) container(p *typedPlan, ptr unsafe.Pointer, depth int) {
	var info *typedWalkInfo
	if p.kind == typedStruct {
		info = typedWalkInfoOf(p)
		if info.converted || typedWalkBlobShaped(p, info, ptr) {
			if g, err := goValue(goRef{p, reflect.NewAt(p.typ, ptr).Elem()}, goAt{depth, MaxDepthCeiling}); err == nil {
				w.walk(g, depth)
			}
			return
		}
	}
	var n int
	var elems unsafe.Pointer
	switch p.kind {
	case typedSlice:
		h := (*typedSliceHeader)(ptr)
		n, elems = h.len, h.data // not nil: a nil slice is no goRef
	case typedArray:
		n, elems = p.len, ptr
	}
	// What walk does with the converted map or []any: count it, visit it (Blobs and Links go on
	// into any container that is not a blob), stop at the depth limit, then its entries.
	if *w.left--; w.stopped || *w.left < 0 || w.stop(depth) {
		return
	}
	if info != nil {
		for _, i := range info.order {
			f := &p.fields[i]
			fp := typedFieldPtr(ptr, f, false)
			if fp == nil || f.omit && typedOmitted(f, fp) {
				continue // not in the converted map
			}
			w.elem(f.plan, fp, depth+1)
		}
		return
	}
	for i := range n {
		w.elem(p.elem, unsafe.Add(elems, uintptr(i)*p.elem.size), depth+1)
	}
}

// typedWalkBlobShaped reports whether the struct at ptr, of plan p, might convert to a map that
// Blobs takes for a blob: one whose "$type" field is written and is "blob", or is not a plain
// string field (its value is then known only once converted), or one with "cid" and "mimeType"
// fields, which may convert to the legacy form.
func typedWalkBlobShaped(p *typedPlan, info *typedWalkInfo, ptr unsafe.Pointer) bool {
	if info.legacyKeys {
		return true // perhaps the legacy form: the converted map tells
	}
	if info.typeField < 0 {
		return false
	}
	f := &p.fields[info.typeField]
	fp := typedFieldPtr(ptr, f, false)
	if fp == nil || f.omit && typedOmitted(f, fp) {
		return false
	}
	return f.plan.kind != typedString || *(*string)(fp) == "blob"
}

// elem walks the value of plan p at ptr, a field or element of a container, as walk walks what
// goElem takes it for, at depth.
func (w *goWalk) elem(p *typedPlan, ptr unsafe.Pointer, depth int) {
	switch p.kind {
	case typedBool, typedString, typedInt, typedBytes, typedByteArray:
		*w.left-- // a generic scalar (or nil, for a nil []byte), which the visitors pass over
		return
	case typedUint:
		*w.left--
		if p.bits == 64 && *(*uint64)(ptr) > math.MaxInt64 && !w.stopped && *w.left >= 0 {
			w.stop(depth) // a goError leaf, which walk hands to other
		}
		return
	case typedPointer:
		if pp := *(*unsafe.Pointer)(ptr); pp != nil {
			w.elem(p.elem, pp, depth)
		} else {
			*w.left-- // nil
		}
		return
	case typedLink:
		w.walk(*(*Link)(ptr), depth)
		return
	case typedBlob:
		// As a *Blob, which the visitors take as the Blob it points to, and which needs no
		// allocation to be passed as an interface.
		w.walk((*Blob)(ptr), depth)
		return
	case typedAny:
		w.walk(*(*any)(ptr), depth) // nil included: walk counts it
		return
	case typedSlice:
		if (*typedSliceHeader)(ptr).data == nil {
			*w.left-- // nil
			return
		}
	case typedMap, typedUnknown:
		if p.typ != mapStringAnyType && p.typ != unknownFieldsType {
			w.walk(goElem(p, reflect.NewAt(p.typ, ptr).Elem(), goAt{depth, MaxDepthCeiling}), depth) // as the rarer kinds below
			return
		}
		m := *(*map[string]any)(ptr)
		if m == nil {
			*w.left--
			return
		}
		// A map[string]any converts to a copy of itself (goElem leaves the values of an any as
		// they are): count and stop for its goRef, then walk the map itself as its copy.
		if *w.left--; w.stopped || *w.left < 0 || w.stop(depth) {
			return
		}
		w.walk(m, depth)
		return
	case typedStruct, typedArray:
	default:
		// The rarer kinds, as goElem takes them: maps, interfaces with methods, text and CBOR
		// marshalers, unions, values outside the data model.
		w.walk(goElem(p, reflect.NewAt(p.typ, ptr).Elem(), goAt{depth, MaxDepthCeiling}), depth)
		return
	}
	// A container: walk counts and visits its goRef, other stops at the depth limit, then the
	// converted value.
	if *w.left--; w.stopped || *w.left < 0 || w.stop(depth) {
		return
	}
	w.container(p, ptr, depth)
}
