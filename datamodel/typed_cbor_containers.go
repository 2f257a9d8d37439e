package datamodel

// The typed CBOR decoder's containers (see typed_cbor_decode.go): maps into structs and Go maps,
// arrays into slices, arrays and toarray structs, with the map rules of rules.go.
//
//	typedDecoder.fields      a map into a struct: keys matched to fields in one merge
//	typedDecoder.mapRules    the rules on "$type" and blobs (DECISIONS rules 11, 13) for a map read
//	typedDecoder.mapOf       a map into a Go map
//	typedDecoder.slice       an array into a slice or array
//	typedDecoder.structArray an array into a toarray struct

import (
	"reflect"
	"strconv"
	"unsafe"
)

// container reads the head of the map (major type 5) or array (4) at off, for a value of plan
// p, and checks it against the limits as UnmarshalCBOR does: its count and where its entries
// start. A head of another type is ErrGoType, with why in the detail.
func (d *typedDecoder) container(p *typedPlan, f *typedField, off, depth int, want byte, why string) (uint64, int, *Error) {
	major, n, q, err := cborHead(d.data, off)
	if err != nil {
		return 0, 0, err
	}
	if major != want {
		return 0, 0, d.mismatch(p, f, off, why)
	}
	if err := cborContainer(d.data, &d.lim, &d.left, major, n, off, q, depth); err != nil {
		return 0, 0, err
	}
	return n, q, nil
}

// fields decodes the map at off into the struct of plan p at ptr. Keys arrive in canonical order
// and p.fields are in that order too, so each key is matched by moving one cursor forward, and
// only exactly (case-sensitively): a key with no field is kept in the struct's UnknownFields
// field if it has one, else refused under DisallowUnknownFields, else checked and skipped.
func (d *typedDecoder) fields(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	data := d.data
	n, q, err := d.container(p, f, off, depth, 5, "")
	if err != nil {
		return 0, err
	}
	var unknown *UnknownFields
	if p.unknown != nil {
		unknown = (*UnknownFields)(unsafe.Add(ptr, p.unknown.offset))
		*unknown = nil
	}
	entries := q
	pks, pke, typeOff := 0, -1, -1
	fi := 0
	for i := 0; i < int(n); i++ {
		ks, ke, err := cborKey(data, &d.lim, q, pks, pke)
		if err != nil {
			return 0, err
		}
		if ke-ks >= len("$link") && data[ks] == '$' {
			if typeOff, err = d.reserved(q, ks, ke, depth); err != nil {
				return 0, err
			}
		}
		key := data[ks:ke]
		for fi < len(p.fields) && typedKeyLess(p.fields[fi].name, key) {
			fi++
		}
		switch {
		case fi < len(p.fields) && p.fields[fi].name == string(key):
			fd := &p.fields[fi]
			q, err = d.decode(fd.plan, fd, typedFieldPtr(ptr, fd, true), ke, depth+1)
			fi++
		case unknown != nil:
			var v any
			if v, q, err = d.value(ke, depth+1); err == nil {
				if *unknown == nil {
					*unknown = make(UnknownFields, int(n)-i)
				}
				(*unknown)[d.str(ks, ke)] = v
			}
		case d.disallowUnknown:
			return 0, errUnknownField(p.typ, string(key), q).atKey(string(key))
		default:
			q, err = d.skip(ke, depth+1)
		}
		if err != nil {
			return 0, err.atKey(string(key))
		}
		pks, pke = ks, ke
	}
	return q, d.mapRules(off, entries, int(n), typeOff, depth)
}

// typedKeyLess reports whether the field key name sorts before the input key key (DAG-CBOR
// order).
func typedKeyLess(name string, key []byte) bool {
	if len(name) != len(key) {
		return len(name) < len(key)
	}
	return name < string(key)
}

// reserved applies the rules on the map key data[ks:ke] (head at off), which starts with '$':
// no "$link" or "$bytes" key (rule 10), and "$type" a non-empty string (rule 11), which is
// checked here, before the value is decoded into any Go type, as the scanner checks it. It
// returns the offset of the value of a "$type" key, else -1.
func (d *typedDecoder) reserved(off, ks, ke, depth int) (int, *Error) {
	if err := cborReservedKey(d.data, off, ks, ke); err != nil {
		return -1, err
	}
	if string(d.data[ks:ke]) != "$type" {
		return -1, nil
	}
	if ke < len(d.data) && d.data[ke]&0xe0 == cborMajorText && d.data[ke] != cborMajorText {
		return ke, nil
	}
	if _, err := d.skip(ke, depth+1); err != nil {
		return -1, err.atKey("$type")
	}
	err := errType(describeHead(d.data[ke]))
	err.Offset = ke
	return -1, err
}

// mapRules applies rule 13 to the map of n entries at entries (head at off), once read: a map
// whose "$type" (its value at typeOff, -1 if none) is "blob" has exactly the blob shape, which
// UnmarshalCBOR turns into a Blob; with the generic decoder's error otherwise.
func (d *typedDecoder) mapRules(off, entries, n, typeOff, depth int) *Error {
	data := d.data
	if typeOff < 0 || len(data)-typeOff < len(cborTextBlob) || string(data[typeOff:typeOff+len(cborTextBlob)]) != cborTextBlob {
		return nil
	}
	if cborBlobShape(data, &d.lim, entries, n) {
		return nil
	}
	s := cborScanner{data: data, lim: &d.lim, left: int(^uint(0) >> 1)}
	end, _ := s.value(off, depth) // read before: no error
	return cborBlobError(data[off:end], d.lim, off, depth)
}

// mapOf decodes the map at off into the Go map of plan p at ptr (made if nil; entries are added
// to an existing one).
func (d *typedDecoder) mapOf(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	data := d.data
	n, q, err := d.container(p, f, off, depth, 5, "")
	if err != nil {
		return 0, err
	}
	entries := q
	pks, pke, typeOff := 0, -1, -1
	generic := p.elem.kind == typedAny
	var m map[string]any
	var mv, tmp reflect.Value
	if generic {
		// map[string]any and the named types of its shape (UnknownFields): set directly.
		m = *(*map[string]any)(ptr)
		if m == nil {
			m = make(map[string]any, n)
			*(*map[string]any)(ptr) = m
		}
	} else {
		mv = reflect.NewAt(p.typ, ptr).Elem()
		if mv.IsNil() {
			mv.Set(reflect.MakeMapWithSize(p.typ, int(n)))
		}
		tmp = reflect.New(p.elem.typ)
	}
	for i := 0; i < int(n); i++ {
		ks, ke, err := cborKey(data, &d.lim, q, pks, pke)
		if err != nil {
			return 0, err
		}
		if ke-ks >= len("$link") && data[ks] == '$' {
			if typeOff, err = d.reserved(q, ks, ke, depth); err != nil {
				return 0, err
			}
		}
		k := d.str(ks, ke)
		if generic {
			var v any
			if v, q, err = d.value(ke, depth+1); err == nil {
				m[k] = v
			}
		} else {
			tmp.Elem().SetZero()
			if q, err = d.decode(p.elem, f, tmp.UnsafePointer(), ke, depth+1); err == nil {
				kv := reflect.ValueOf(k)
				if kt := p.typ.Key(); kt != kv.Type() {
					kv = kv.Convert(kt)
				}
				mv.SetMapIndex(kv, tmp.Elem())
			}
		}
		if err != nil {
			return 0, err.atKey(k)
		}
		pks, pke = ks, ke
	}
	return q, d.mapRules(off, entries, int(n), typeOff, depth)
}

// typedSliceChunk bounds, in bytes, the backing array made for an array's elements before they
// are read: beyond it the slice grows as elements arrive, so that a count the input declares
// (each element takes a byte or more) does not become an allocation of count times a large
// element size.
const typedSliceChunk = 64 << 10

// slice decodes the array at off into the slice or array of plan p at ptr. A Go array takes an
// array of exactly its length (as a [N]byte takes exactly N bytes): a shorter or longer one is
// ErrGoType, since dropping elements or adding zeros would write back another record.
func (d *typedDecoder) slice(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	n, q, err := d.container(p, f, off, depth, 4, "")
	if err != nil {
		return 0, err
	}
	size := p.elem.size
	if p.kind == typedArray {
		if n != uint64(p.len) {
			// Exactly: elements dropped or zeros added would come back as another record.
			return 0, d.mismatch(p, f, off, count(n, "elements"))
		}
		for i := 0; i < int(n); i++ {
			if q, err = d.decode(p.elem, f, unsafe.Add(ptr, uintptr(i)*size), q, depth+1); err != nil {
				return 0, err.atIndex(i)
			}
		}
		return q, nil
	}
	sv := reflect.NewAt(p.typ, ptr).Elem()
	if p.typ == typedAnySliceType {
		// []any: carved from the generic decoder's slab, as UnmarshalCBOR's arrays are.
		a := d.slabs.array(int(n))
		for i := range a {
			if a[i], q, err = d.value(q, depth+1); err != nil {
				return 0, err.atIndex(i)
			}
		}
		*(*[]any)(ptr) = a
		return q, nil
	}
	// The backing array is allocated by Grow on the field itself (reflect.MakeSlice would
	// allocate the slice header too: two allocations for one).
	if n == 0 {
		// An empty slice, not nil: nil is written back as null (rule 15), [] as [].
		*(*typedSliceHeader)(ptr) = typedSliceHeader{data: unsafe.Pointer(&typedEmptyArray)}
		return q, nil
	}
	c := int(n)
	if size > 0 && uintptr(c) > typedSliceChunk/size {
		c = max(1, int(typedSliceChunk/size))
	}
	*(*typedSliceHeader)(ptr) = typedSliceHeader{}
	sv.Grow(c)
	sv.SetLen(c)
	for i := 0; i < int(n); i++ {
		if i == sv.Len() {
			sv.Grow(min(i, int(n)-i))
			sv.SetLen(min(2*i, int(n)))
		}
		h := (*typedSliceHeader)(ptr)
		if q, err = d.decode(p.elem, f, unsafe.Add(h.data, uintptr(i)*size), q, depth+1); err != nil {
			return 0, err.atIndex(i)
		}
	}
	return q, nil
}

var typedAnySliceType = reflect.TypeFor[[]any]()

// typedEmptyArray is where every empty slice decoded points: nothing is ever read or written
// through it.
var typedEmptyArray [0]byte

// errUnknownField is the error for the map key key, at off, which struct type t has no field
// for (DisallowUnknownFields).
func errUnknownField(t reflect.Type, key string, off int) *Error {
	return cborErr(ErrGoType, off, "no field of Go type "+t.String()+" for the key "+strconv.Quote(key))
}

// structArray decodes the array at off into the fields of a toarray struct, in order; elements
// past the last field are checked and skipped.
func (d *typedDecoder) structArray(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	n, q, err := d.container(p, f, off, depth, 4, "a toarray struct is an array")
	if err != nil {
		return 0, err
	}
	for i := 0; i < int(n); i++ {
		if i < len(p.fields) {
			fd := &p.fields[i]
			q, err = d.decode(fd.plan, fd, typedFieldPtr(ptr, fd, true), q, depth+1)
		} else {
			q, err = d.skip(q, depth+1)
		}
		if err != nil {
			return 0, err.atIndex(i)
		}
	}
	return q, nil
}
