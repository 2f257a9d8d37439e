package datamodel

import (
	"encoding"
	"reflect"
	"sync"

	"github.com/fxamacker/cbor/v2"
)

// fxamacker's encoder recurses once per level of a Go value and has no depth limit or cycle
// check: a map that contains itself, or a []any nested a million deep, would overflow the
// goroutine stack, a fatal error that kills the process. MarshalCBORStruct therefore walks the
// value first, down to MaxDepthCeiling levels, when its type allows unbounded nesting (it holds
// an interface, or is recursive); a type without either nests no deeper than its declaration, and
// costs nothing.

// structTypeBounded caches, per reflect.Type, whether the type's nesting is bounded.
var structTypeBounded sync.Map

var (
	cborMarshalerType = reflect.TypeFor[cbor.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// boundedType reports whether every value of t nests no deeper than t's declaration: no
// interface inside, no recursion. Types that encode themselves (Link, Blob, tid.TID) are leaves.
func boundedType(t reflect.Type) bool {
	if b, ok := structTypeBounded.Load(t); ok {
		return b.(bool)
	}
	b := boundedTypeIn(t, map[reflect.Type]bool{})
	structTypeBounded.Store(t, b)
	return b
}

func boundedTypeIn(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if t.Implements(cborMarshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	if visiting[t] {
		return false // recursive
	}
	visiting[t] = true
	defer delete(visiting, t)
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return boundedTypeIn(t.Elem(), visiting)
	case reflect.Map:
		return boundedTypeIn(t.Key(), visiting) && boundedTypeIn(t.Elem(), visiting)
	case reflect.Struct:
		for i := range t.NumField() {
			if !boundedTypeIn(t.Field(i).Type, visiting) {
				return false
			}
		}
	}
	return true
}

// structDepth walks v, at nesting depth depth, and refuses it (ErrTooDeep) if it goes deeper than
// MaxDepthCeiling: a cyclic value always does. Each map, slice, array, struct and pointer counts
// a level, so the walk itself recurses at most MaxDepthCeiling deep.
func structDepth(v reflect.Value, depth int) *Error {
	if depth > MaxDepthCeiling {
		return valueError(ErrTooDeep, overLimit(-1, "", MaxDepthCeiling))
	}
	if !v.IsValid() || boundedType(v.Type()) {
		return nil
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return structDepth(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := structDepth(v.Index(i), depth+1); err != nil {
				return err.atIndex(i)
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if err := structDepth(it.Value(), depth+1); err != nil {
				if k := it.Key(); k.Kind() == reflect.String {
					return err.atKey(k.String())
				}
				return err
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if err := structDepth(v.Field(i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
