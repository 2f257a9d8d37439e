package datamodel

import (
	"reflect"
	"strconv"

	"github.com/atcore/atcore/internal/plural"
)

// How error details name what was found: in the data model's terms (an integer, a string, an
// array, an object, bytes, a link), as describe does, and with a Go type only where the Go side is
// the problem: a Go value outside the data model, or a struct field that cannot hold the value.

// describeGo names a Go value outside the data model by its Go type. (Go slices, maps and structs
// of data-model values are inside it: see govalue.go.)
func describeGo(v any) string {
	return "a Go " + reflect.TypeOf(v).String() + " has no data-model form"
}

// count writes n with its noun, singular for one: "1 byte", "3 bytes". noun is a plural that
// ends in s ("bytes", "elements").
func count[N uint64 | int](n N, noun string) string {
	return strconv.FormatUint(uint64(n), 10) + " " + noun[:len(noun)-1] + plural.S(n)
}
