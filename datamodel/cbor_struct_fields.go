package datamodel

import (
	"encoding"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/fxamacker/cbor/v2"
)

// Where the struct path's errors are: fxamacker reports neither the path of a Link or Blob whose
// MarshalCBOR fails (it returns the method's error as it is) nor the map that holds an unknown
// key (only the entry's index). Errors are rare, so they are located here, after the fact, by
// walking the Go value or the Go type beside the data, with fxamacker's naming of struct fields.

// structField is a field of a struct as fxamacker encodes and decodes it: its map key and its
// index path (through embedded structs).
type structField struct {
	key       string
	idx       []int
	omitEmpty bool // omitempty or omitzero: not written when empty
}

// structFields returns the fields of struct type t under the map keys fxamacker gives them: the
// name in the `cbor` tag, else in the `json` tag, else the Go name; "-" skips a field, unexported
// fields are skipped, and the fields of an untagged embedded struct are promoted unless a field
// of a shallower level has the same key. They are sorted by key in DAG-CBOR order, the order in
// which fxamacker writes them. (fxamacker's finer rules, for two embedded fields of one key at
// the same level, are not followed: this is for locating errors, and a field not found here
// only leaves the error less precisely located.)
func structFields(t reflect.Type) []structField {
	var out []structField
	seen := map[string]bool{}
	level := []structField{{idx: nil}}
	for depth := 0; len(level) > 0 && depth < 16; depth++ {
		var next []structField
		var found []structField
		for _, l := range level {
			st := t
			if l.idx != nil {
				st = t.FieldByIndex(l.idx).Type
				for st.Kind() == reflect.Pointer {
					st = st.Elem()
				}
			}
			for i := range st.NumField() {
				f := st.Field(i)
				ft := f.Type
				for ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !f.IsExported() && !(f.Anonymous && ft.Kind() == reflect.Struct) {
					continue
				}
				tag := f.Tag.Get("cbor")
				if tag == "" {
					tag = f.Tag.Get("json")
				}
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				omit := false
				for _, o := range strings.Split(opts, ",") {
					omit = omit || o == "omitempty" || o == "omitzero"
				}
				idx := append(slices.Clone(l.idx), i)
				if f.Anonymous && ft.Kind() == reflect.Struct && name == "" {
					next = append(next, structField{idx: idx})
					continue
				}
				if name == "" {
					name = f.Name
				}
				if !seen[name] {
					found = append(found, structField{key: name, idx: idx, omitEmpty: omit})
				}
			}
		}
		for _, f := range found {
			seen[f.key] = true
		}
		out = append(out, found...)
		level = next
	}
	slices.SortFunc(out, func(a, b structField) int {
		if cborKeyLess(a.key, b.key) {
			return -1
		}
		if cborKeyLess(b.key, a.key) {
			return 1
		}
		return 0
	})
	return out
}

// structFieldByKey returns the field, of a struct's fields, that fxamacker decodes the map key
// key into: the one of that key, else the first whose key matches it case-insensitively, as
// fxamacker's default matching does.
func structFieldByKey(fields []structField, key string) (structField, bool) {
	for _, f := range fields {
		if f.key == key {
			return f, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.key, key) {
			return f, true
		}
	}
	return structField{}, false
}

// structMarshalerError finds in v, at nesting depth depth, the first value (in the order
// fxamacker writes them) whose MarshalCBOR method returns an *Error, such as an undefined Link or
// a Blob without a MimeType, and returns that error with the path to it, as MarshalCBOR would
// report it. It returns nil if there is none.
func structMarshalerError(v reflect.Value, depth int) *Error {
	if !v.IsValid() || depth > MaxDepthCeiling {
		return nil
	}
	if v.Type().Implements(cborMarshalerType) && v.CanInterface() {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return nil
		}
		_, err := v.Interface().(cbor.Marshaler).MarshalCBOR()
		var e *Error
		if errors.As(err, &e) {
			c := *e
			c.path = nil
			return &c
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return structMarshalerError(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes
		}
		for i := range v.Len() {
			if err := structMarshalerError(v.Index(i), depth+1); err != nil {
				return err.atIndex(i)
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			if cborKeyLess(a.String(), b.String()) {
				return -1
			}
			return 1
		})
		for _, k := range keys {
			if err := structMarshalerError(v.MapIndex(k), depth+1); err != nil {
				return err.atKey(k.String())
			}
		}
	case reflect.Struct:
		for _, f := range structFields(v.Type()) {
			fv, err := v.FieldByIndexErr(f.idx)
			if err != nil || f.omitEmpty && structEmpty(fv) {
				continue // behind a nil embedded pointer, or empty and omitted: not written
			}
			if err := structMarshalerError(fv, depth+1); err != nil {
				return err.atKey(f.key)
			}
		}
	}
	return nil
}

// structEmpty reports whether v is empty in the sense of omitempty: the zero value, or an empty
// slice, map or string.
func structEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
		return v.Len() == 0
	}
	return v.IsZero()
}

// structErrorFinder walks the bytes UnmarshalCBORStruct decoded beside the Go type it decoded
// them into, to locate fxamacker's error: the map key that its strict decoder
// (DisallowUnknownFields) found no field for, of which fxamacker reports only the entry's index,
// not the map; or the value whose UnmarshalCBOR method (Link, Blob) failed, which reports offsets
// from the start of its own item and no path. The bytes have passed the scanner, so the walk meets
// no error of its own.
type structErrorFinder struct {
	data        []byte
	lim         Limits
	strict      cbor.DecMode // the decoder that refused, to ask it about one key
	unknownKeys bool         // report a key with no field
	methods     bool         // report an UnmarshalCBOR method's error
	fields      map[reflect.Type][]structField
}

var (
	cborUnmarshalerType   = reflect.TypeFor[cbor.Unmarshaler]()
	textUnmarshalerType   = reflect.TypeFor[encoding.TextUnmarshaler]()
	cborMajorsWithEntries = [8]bool{4: true, 5: true}
)

// find walks the item at off, decoded into a value of type t at nesting depth depth, in the order
// of the bytes (fxamacker's order), and returns the offset after it, or the error for the first
// unknown key within it, with the key's offset and the member's path.
func (u *structErrorFinder) find(off int, t reflect.Type, depth int) (int, *Error) {
	pointer := t.Kind() == reflect.Pointer // null makes it nil: no method is called
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(cborUnmarshalerType) {
		end := u.skip(off)
		if u.methods && !(pointer && u.data[off] == cborNull) {
			err := reflect.New(t).Interface().(cbor.Unmarshaler).UnmarshalCBOR(u.data[off:end])
			var e *Error
			if errors.As(err, &e) {
				located := *e
				located.path = nil
				located.Offset = off + max(e.Offset, 0)
				return 0, &located
			}
		}
		return end, nil
	}
	major, n, p, err := cborHead(u.data, off)
	if err != nil || !cborMajorsWithEntries[major] || depth > MaxDepthCeiling ||
		reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return u.skip(off), nil
	}
	switch {
	case major == 5 && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map && t.Key().Kind() == reflect.String):
		for range n {
			_, klen, ks, _ := cborHead(u.data, p)
			ke := ks + int(klen)
			key := string(u.data[ks:ke])
			elem := reflect.Type(nil)
			if t.Kind() == reflect.Map {
				elem = t.Elem()
			} else if f, ok := u.field(t, key); ok {
				elem = t.FieldByIndex(f.idx).Type
			} else if u.unknownKeys && u.unknown(t, key) {
				return 0, errUnknownField(t, key, p).atKey(key)
			}
			var ferr *Error
			if elem == nil {
				p = u.skip(ke)
			} else if p, ferr = u.find(ke, elem, depth+1); ferr != nil {
				return 0, ferr.atKey(key)
			}
		}
		return p, nil
	case major == 4 && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := range int(n) {
			var ferr *Error
			if p, ferr = u.find(p, t.Elem(), depth+1); ferr != nil {
				return 0, ferr.atIndex(i)
			}
		}
		return p, nil
	}
	return u.skip(off), nil
}

// field returns the field of struct type t for key (see structFieldByKey), the fields of each
// type found once per walk.
func (u *structErrorFinder) field(t reflect.Type, key string) (structField, bool) {
	if u.fields == nil {
		u.fields = map[reflect.Type][]structField{}
	}
	fields, ok := u.fields[t]
	if !ok {
		fields = structFields(t)
		u.fields[t] = fields
	}
	return structFieldByKey(fields, key)
}

// unknown asks the strict decoder itself whether struct type t has no field for key, by decoding
// the map {key: null} into a new t: its answer follows every one of its matching rules, including
// those structFields leaves out.
func (u *structErrorFinder) unknown(t reflect.Type, key string) bool {
	probe := cborAppendHead([]byte{cborMajorMap | 1}, cborMajorText, uint64(len(key)))
	probe = append(append(probe, key...), cborNull)
	var ue *cbor.UnknownFieldError
	return errors.As(u.strict.Unmarshal(probe, reflect.New(t).Interface()), &ue)
}

// skip returns the offset after the item at off.
func (u *structErrorFinder) skip(off int) int {
	s := cborScanner{data: u.data, lim: &u.lim, left: math.MaxInt}
	end, err := s.value(off, 1)
	if err != nil {
		return len(u.data) // not reached: the bytes were scanned with these limits
	}
	return end
}

// errUnknownField is the error for the map key key, at off, which struct type t has no field
// for (DisallowUnknownFields).
func errUnknownField(t reflect.Type, key string, off int) *Error {
	return cborErr(ErrGoType, off, "no field of Go type "+t.String()+" for the key "+strconv.Quote(key))
}
