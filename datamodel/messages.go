package datamodel

import (
	"reflect"
)

// How error details name what was found: in the data model's terms (an integer, a string, an
// array, an object, bytes, a link), as describe does, and with a Go type only where the Go side is
// the problem: a Go value outside the data model, or a struct field that cannot hold the value.

// describeGo names a Go value outside the data model: its Go type and, for a slice, map or
// struct, the form the package takes instead, so that the fix reads off the message.
func describeGo(v any) string {
	t := reflect.TypeOf(v)
	s := "a Go " + t.String()
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return s + ", not a data-model array ([]any)"
	case reflect.Map:
		return s + ", not a data-model object (map[string]any)"
	case reflect.Struct:
		return s + ", not a data-model object (MarshalCBORStruct encodes structs)"
	}
	return s + ", outside the data model"
}
