package datamodel

// The containers of the typed JSON decoder (typed_json_decode.go): objects into structs and Go
// maps, arrays into slices and arrays, and the objects the generic decoder decides.
//
//	typedJSONDecoder.object      an object into a struct: keys matched to fields, duplicates refused
//	typedJSONDecoder.memberStart a member's key, and the rules decided by it ($link, $bytes, $type)
//	typedJSONDecoder.mapOf       an object into a Go map (genericMap: into a map[string]any)
//	typedJSONDecoder.array       an array into a slice or array (structArray: a toarray struct)
//	typedJSONDecoder.generic     an object decided by the generic decoder (links, bytes, bad $type)
//	typedJSONDecoder.blobShape   the blob rule on an object typed "blob" read into a struct or map
//	typedJSONField               which field a key names

import (
	"reflect"
	"strconv"
	"sync"
	"unsafe"
)

// generic reads the object at start again with the generic decoder, at the depth of its parent
// and with the value budget it had, for an object a Go struct or map (plan p, field f) was to
// receive but whose meaning only the whole object decides: a $link or $bytes object, one beyond
// MaxDepth (which only a $link or $bytes object may be), one with a bad "$type". It returns the
// generic decoder's error, or the mismatch for the link or bytes it read.
func (t *typedJSONDecoder) generic(p *typedPlan, f *typedField, start, depth, left int) error {
	d := t.jsonDecoder
	d.pos, d.depth, d.left = start, depth, left
	v, err := d.value()
	if err != nil {
		return err
	}
	return t.fail(ErrGoType, start, describe(v)+" for "+typedGoName(f, p))
}

// blobShape checks the object at start, read into a Go struct or map, as the generic decoder
// reads it when its "$type" is "blob": exactly the blob shape (DECISIONS rule 13), or the
// generic decoder's error. The generic read starts from left, the value budget at the object's
// start, as the first read did, not from what that read left (which counted the object's
// values once already); d.pos and d.left are left as the first read left them.
func (t *typedJSONDecoder) blobShape(start, depth, left int) error {
	d := t.jsonDecoder
	end, after := d.pos, d.left
	d.pos, d.depth, d.left = start, depth, left
	_, err := d.value()
	d.pos, d.depth, d.left = end, depth, after
	return err
}

// typedJSONFieldIndex holds, for the structs with many fields, a map from key to field index:
// smaller structs are searched in a loop.
var typedJSONFieldIndex sync.Map // *typedPlan → map[string]int

const typedJSONLinearFields = 16

// typedJSONField returns the index in p.fields of the field with key key, or -1; hint is where to look
// first (the field after the last one found: keys often come in the fields' order).
func typedJSONField(p *typedPlan, key string, hint int) int {
	fs := p.fields
	if len(fs) > typedJSONLinearFields {
		m, ok := typedJSONFieldIndex.Load(p)
		if !ok {
			idx := make(map[string]int, len(fs))
			for i := range fs {
				idx[fs[i].name] = i
			}
			m, _ = typedJSONFieldIndex.LoadOrStore(p, idx)
		}
		if i, ok := m.(map[string]int)[key]; ok {
			return i
		}
		return -1
	}
	for i := hint; i < len(fs); i++ {
		if fs[i].name == key {
			return i
		}
	}
	for i := 0; i < hint && i < len(fs); i++ {
		if fs[i].name == key {
			return i
		}
	}
	return -1
}

// memberStart reads the key of a member of the object that starts at start, for a Go struct or
// map, and applies the rules on reserved keys that can be decided from the key and the first
// bytes of the value: a "$link" or "$bytes" key makes the object a link or bytes (reserved is
// set: the caller hands the object to generic), and "$type" must hold a non-empty string
// (rule 11). blob reports a "$type" of "blob".
func (t *typedJSONDecoder) memberStart() (key string, keyOff int, reserved, blob bool, err error) {
	d := t.jsonDecoder
	keyOff = d.pos
	if key, err = d.memberKey(); err != nil {
		return "", 0, false, false, err
	}
	if key == "" || key[0] != '$' {
		return key, keyOff, false, false, nil
	}
	switch key {
	case "$link", "$bytes":
		return key, keyOff, true, false, nil
	case "$type":
		valOff := d.pos
		if valOff >= len(d.data) || d.data[valOff] != '"' {
			return key, keyOff, true, false, nil
		}
		b, serr := d.string()
		if serr != nil {
			return "", 0, false, false, atKey(serr, key)
		}
		d.pos = valOff // read again into its Go value
		return key, keyOff, len(b) == 0, string(b) == "blob", nil
	}
	return key, keyOff, false, false, nil
}

// sep reads what follows a member or element: ',' (more) or the closing byte.
func (t *typedJSONDecoder) sep(closing byte, what string) (more bool, err error) {
	d := t.jsonDecoder
	if d.pos < len(d.data) && d.data[d.pos] == ',' {
		d.pos++
		d.skipSpace()
		return true, nil
	}
	more, serr := d.next(closing, what)
	if serr != nil {
		return false, serr
	}
	return more, nil
}

// object decodes the object at d.pos into the struct of plan p at ptr. A key is matched to its
// field exactly; a key with no field is kept in the struct's UnknownFields field if it has one,
// else refused under DisallowUnknownFields, else read (and so checked) and dropped.
func (t *typedJSONDecoder) object(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start, depth, left := d.pos, d.depth, d.left
	if d.data[start] != '{' {
		return t.mismatch(p, f, start, "")
	}
	d.depth++
	if d.depth > d.limits.MaxDepth {
		return t.generic(p, f, start, depth, left)
	}
	d.room()
	d.pos++
	d.skipSpace()
	var unknown *UnknownFields
	if p.unknown != nil {
		unknown = (*UnknownFields)(unsafe.Add(ptr, p.unknown.offset))
		*unknown = nil
	}
	// Which fields have been read, to find duplicate keys: a bit each.
	var seenBits [4]uint64
	seen := seenBits[:]
	if len(p.fields) > 64*len(seenBits) {
		seen = make([]uint64, (len(p.fields)+63)/64)
	}
	base := len(t.names)
	var names map[string]struct{} // the keys with no field, once there are many
	blob := false
	n := 0
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
	} else {
		for hint := 0; ; {
			if n >= d.limits.MaxElements {
				return d.failTooManyElements()
			}
			key, keyOff, reserved, isBlob, err := t.memberStart()
			if err != nil {
				return err
			}
			if reserved {
				t.names = t.names[:base]
				return t.generic(p, f, start, depth, left)
			}
			blob = blob || isBlob
			if fi := typedJSONField(p, key, hint); fi >= 0 {
				if seen[fi/64]&(1<<(fi%64)) != 0 {
					return atKey(d.fail(ErrDuplicateKey, keyOff, strconv.Quote(key)), key)
				}
				seen[fi/64] |= 1 << (fi % 64)
				hint = fi + 1
				fd := &p.fields[fi]
				err = t.decode(fd.plan, fd, typedFieldPtr(ptr, fd, true))
			} else {
				if dup := t.seenKey(base, &names, key); dup {
					return atKey(d.fail(ErrDuplicateKey, keyOff, strconv.Quote(key)), key)
				}
				switch {
				case unknown != nil:
					var v any
					if v, err = d.value(); err == nil {
						if *unknown == nil {
							*unknown = make(UnknownFields)
						}
						(*unknown)[key] = v
					}
				case t.disallowUnknown:
					return errUnknownField(p.typ, key, keyOff).atKey(key)
				default:
					_, err = d.value()
				}
			}
			if err != nil {
				return atKey(err, key)
			}
			n++
			more, err := t.sep('}', "',' or '}'")
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	return t.endObject(base, n, start, depth, left, blob)
}

// endObject finishes an object read into a struct or a Go map, after its '}': it forgets the
// object's keys (t.names from base), leaves its level, counts its n members against MaxValues,
// and checks the blob shape if its "$type" was "blob", as the generic decoder does; left is the
// value budget at the object's start.
func (t *typedJSONDecoder) endObject(base, n, start, depth, left int, blob bool) error {
	d := t.jsonDecoder
	clear(t.names[base:])
	t.names = t.names[:base]
	d.depth--
	if err := d.take(n, start); err != nil {
		return err
	}
	if blob {
		return t.blobShape(start, depth, left)
	}
	return nil
}

// seenKey records key, a key of the object whose keys (those with no field, for a struct) start
// at t.names[base], and reports whether it was there already: by comparing while they are few,
// then in a map.
func (t *typedJSONDecoder) seenKey(base int, set *map[string]struct{}, key string) bool {
	if *set != nil {
		if _, ok := (*set)[key]; ok {
			return true
		}
		(*set)[key] = struct{}{}
		return false
	}
	for _, k := range t.names[base:] {
		if k == key {
			return true
		}
	}
	t.names = append(t.names, key)
	if len(t.names)-base > jsonQuadraticDupLimit {
		*set = make(map[string]struct{}, 2*(len(t.names)-base))
		for _, k := range t.names[base:] {
			(*set)[k] = struct{}{}
		}
	}
	return false
}

// mapOf decodes the object at d.pos into the Go map of plan p at ptr (made if nil; entries are
// added to an existing one).
func (t *typedJSONDecoder) mapOf(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start, depth, left := d.pos, d.depth, d.left
	if d.data[start] != '{' {
		return t.mismatch(p, f, start, "")
	}
	if p.elem.kind == typedAny && p.typ.Key().Kind() == reflect.String && p.typ.Key().PkgPath() == "" {
		return t.genericMap(p, f, ptr)
	}
	d.depth++
	if d.depth > d.limits.MaxDepth {
		return t.generic(p, f, start, depth, left)
	}
	d.room()
	d.pos++
	d.skipSpace()
	mv := reflect.NewAt(p.typ, ptr).Elem()
	if mv.IsNil() {
		mv.Set(reflect.MakeMap(p.typ))
	}
	tmp := reflect.New(p.elem.typ)
	kt := p.typ.Key()
	base := len(t.names)
	var names map[string]struct{} // the keys read, once there are many
	blob := false
	n := 0
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
	} else {
		for {
			if n >= d.limits.MaxElements {
				return d.failTooManyElements()
			}
			key, keyOff, reserved, isBlob, err := t.memberStart()
			if err != nil {
				return err
			}
			if reserved {
				return t.generic(p, f, start, depth, left)
			}
			blob = blob || isBlob
			// Duplicates are found among the keys read, not by the map's size: the map may hold
			// entries already.
			if t.seenKey(base, &names, key) {
				return atKey(d.fail(ErrDuplicateKey, keyOff, strconv.Quote(key)), key)
			}
			tmp.Elem().SetZero()
			if err := t.decode(p.elem, f, tmp.UnsafePointer()); err != nil {
				return atKey(err, key)
			}
			kv := reflect.ValueOf(key)
			if kt != kv.Type() {
				kv = kv.Convert(kt)
			}
			mv.SetMapIndex(kv, tmp.Elem())
			n++
			more, err := t.sep('}', "',' or '}'")
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	return t.endObject(base, n, start, depth, left, blob)
}

// genericMap decodes an object into a map[string]any (or a named type of that shape) with the
// generic decoder. A blob read there gives its members, as UnmarshalCBORStruct gives them.
func (t *typedJSONDecoder) genericMap(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start := d.pos
	v, err := d.value()
	if err != nil {
		return err
	}
	var m map[string]any
	switch x := v.(type) {
	case map[string]any:
		m = x
	case Blob:
		if x.Legacy {
			m = map[string]any{"cid": x.Ref.String(), "mimeType": x.MimeType}
		} else {
			m = map[string]any{"$type": "blob", "ref": x.Ref, "mimeType": x.MimeType, "size": x.Size}
		}
	default:
		return t.fail(ErrGoType, start, describe(v)+" for "+typedGoName(f, p))
	}
	dst := (*map[string]any)(ptr)
	if *dst == nil {
		*dst = m
		return nil
	}
	for k, v := range m {
		(*dst)[k] = v
	}
	return nil
}

// typedJSONChunk is the length of the first backing array of a slice being read (JSON declares
// no length); it then doubles as elements arrive, so that memory stays proportional to the
// elements present.
const typedJSONChunk = 4

// array decodes the array at d.pos into the slice or array of plan p at ptr. A Go array takes an
// array of exactly its length, as in UnmarshalCBORStruct.
func (t *typedJSONDecoder) array(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start := d.pos
	if d.data[start] != '[' {
		return t.mismatch(p, f, start, "")
	}
	if p.typ == typedJSONAnySlice {
		v, err := d.array() // []any: the generic decoder's array, from its slabs
		if err != nil {
			return err
		}
		*(*[]any)(ptr) = v.([]any)
		return nil
	}
	d.depth++
	if d.depth > d.limits.MaxDepth {
		return d.fail(ErrTooDeep, start, overLimit(-1, "", d.limits.MaxDepth))
	}
	d.room()
	d.pos++
	d.skipSpace()
	size := p.elem.size
	var s reflect.Value // the slice's backing array, grown as elements arrive
	var base unsafe.Pointer
	n := 0
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
	} else {
		for {
			if n >= d.limits.MaxElements {
				return d.failTooManyElements()
			}
			if d.left--; d.left < 0 {
				return errTooManyValues(d.pos, d.limits.MaxValues)
			}
			var err error
			switch {
			case p.kind == typedArray && n < p.len:
				err = t.decode(p.elem, f, unsafe.Add(ptr, uintptr(n)*size))
			case p.kind == typedArray:
				// Exactly its length, as UnmarshalCBORStruct: a dropped element is lost data.
				return t.mismatch(p, f, start, "more than "+count(p.len, "elements"))
			default:
				if !s.IsValid() || n == s.Len() {
					grown := reflect.MakeSlice(p.typ, max(typedJSONChunk, 2*n), max(typedJSONChunk, 2*n))
					if s.IsValid() {
						reflect.Copy(grown, s)
					}
					s, base = grown, grown.UnsafePointer()
				}
				err = t.decode(p.elem, f, unsafe.Add(base, uintptr(n)*size))
			}
			if err != nil {
				return atIndex(err, n)
			}
			n++
			more, err := t.sep(']', "',' or ']'")
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	d.depth--
	if p.kind == typedArray {
		if n != p.len {
			return t.mismatch(p, f, start, count(n, "elements"))
		}
		return nil
	}
	if !s.IsValid() {
		s = reflect.MakeSlice(p.typ, 0, 0) // empty, not nil: the value is an empty array
	}
	reflect.NewAt(p.typ, ptr).Elem().Set(s.Slice3(0, n, n))
	return nil
}

var typedJSONAnySlice = reflect.TypeFor[[]any]()

// structArray decodes the array at d.pos into a struct marked toarray (fxamacker's
// `_ struct{}` field tagged `cbor:",toarray"`), whose fields are its elements in declaration order, as
// UnmarshalCBORStruct reads it: elements beyond the fields are read (and so checked) and dropped,
// fields beyond the elements are left as they are.
func (t *typedJSONDecoder) structArray(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start := d.pos
	if d.data[start] != '[' {
		return t.mismatch(p, f, start, "a toarray struct is an array")
	}
	d.depth++
	if d.depth > d.limits.MaxDepth {
		return d.fail(ErrTooDeep, start, overLimit(-1, "", d.limits.MaxDepth))
	}
	d.room()
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return nil
	}
	for n := 0; ; {
		if n >= d.limits.MaxElements {
			return d.failTooManyElements()
		}
		if d.left--; d.left < 0 {
			return errTooManyValues(d.pos, d.limits.MaxValues)
		}
		var err error
		if n < len(p.fields) {
			fd := &p.fields[n]
			err = t.decode(fd.plan, fd, typedFieldPtr(ptr, fd, true))
		} else {
			_, err = d.value()
		}
		if err != nil {
			return atIndex(err, n)
		}
		n++
		more, err := t.sep(']', "',' or ']'")
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	d.depth--
	return nil
}
