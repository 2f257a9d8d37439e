package datamodel

import (
	"errors"
	"reflect"
	"slices"
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
