package atident

import (
	"errors"
	"testing"
)

// The module's rule for an empty input (rkey's and tid's, the oldest): on its own it is at fault
// as a whole, Offset -1; given to ValidateAt it has a place in the longer input, Offset base.
func TestEmptyOffset(t *testing.T) {
	for _, tc := range []struct {
		call string
		err  error
		want int
	}{
		{"Validate", Validate(""), -1},
		{"ValidateAt base 0", ValidateAt("", 0), 0},
		{"ValidateAt base 7", ValidateAt("", 7), 7},
	} {
		var e *Error
		if !errors.As(tc.err, &e) || e.Offset != tc.want {
			t.Errorf("%s(\"\") = %v (%+v), want Offset %d", tc.call, tc.err, e, tc.want)
		}
	}
}
