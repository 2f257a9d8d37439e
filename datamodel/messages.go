package datamodel

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/fxamacker/cbor/v2"
)

// How error details name what was found: in the data model's terms (an integer, a string, an
// array, an object, bytes, a link), as describe does, and with a Go type only where the Go side is
// the problem: a Go value outside the data model, or a struct field that cannot hold the value.

// describeGo names a Go value outside the data model by its Go type. (Go slices, maps and structs
// of data-model values are inside it: see govalue.go.)
func describeGo(v any) string {
	return "a Go " + reflect.TypeOf(v).String() + " has no data-model form"
}

// cborKindNames turns fxamacker's names of CBOR types into the data model's.
var cborKindNames = map[string]string{
	"positive integer":  "an integer",
	"negative integer":  "an integer",
	"byte string":       "bytes or a link",
	"UTF-8 text string": "a string",
	"array":             "an array",
	"map":               "an object",
	"tag":               "a link",
	"primitives":        "a boolean or null",
}

// structErrorDetail words an error of fxamacker's struct decoder or encoder in the data model's
// terms: "found a string for Go field post.text of type int64" rather than "cannot unmarshal
// UTF-8 text string into Go struct field".
func structErrorDetail(err error) string {
	var te *cbor.UnmarshalTypeError
	var ue *cbor.UnknownFieldError
	var se *cbor.UnsupportedTypeError
	switch {
	case errors.As(err, &te):
		found, ok := cborKindNames[te.CBORType]
		if !ok {
			found = te.CBORType
		}
		s := "found " + found + " for "
		if te.StructFieldName != "" {
			s += "Go field " + te.StructFieldName + " of type " + te.GoType
		} else {
			s += "a Go value of type " + te.GoType
		}
		// fxamacker's own specifics (an integer that overflows the field) come last, in
		// parentheses; they are kept.
		if msg := te.Error(); strings.HasSuffix(msg, ")") {
			if i := strings.LastIndex(msg, " of type "+te.GoType+" ("); i >= 0 {
				s += msg[i+len(" of type "+te.GoType):]
			}
		}
		return s
	case errors.As(err, &ue):
		return "no Go field for the key of map entry " + strconv.Itoa(ue.Index) + " (counting from 0)"
	case errors.As(err, &se):
		return "a Go " + se.Type.String() + " has no data-model form"
	}
	return strings.TrimPrefix(err.Error(), "cbor: ")
}
