package datamodel

import (
	"reflect"
)

// How error details name what was found: in the data model's terms (an integer, a string, an
// array, an object, bytes, a link), as describe does, and with a Go type only where the Go side is
// the problem: a Go value outside the data model, or a struct field that cannot hold the value.

// describeGo names a Go value outside the data model by its Go type. (Go slices, maps and structs
// of data-model values are inside it: see govalue.go.)
func describeGo(v any) string {
	return "a Go " + reflect.TypeOf(v).String() + " has no data-model form"
}
