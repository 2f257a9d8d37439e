package datetime

import (
	"errors"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// Everything Parse accepts, ParseLenient accepts with the same result.
func TestLenientAcceptsStrict(t *testing.T) {
	for _, s := range testvec.Syntax(t, "datetime_syntax_valid.txt") {
		d, err := ParseLenient(s)
		if err != nil || d != MustParse(s) {
			t.Errorf("ParseLenient(%q) = %v, %v", s, d, err)
		}
	}
}

// Each tolerance of ParseLenient's doc, and what stays rejected.
func TestLenient(t *testing.T) {
	tests := []struct {
		rule, in string
		same     string // the strict datetime of the same instant and offset; "" if rejected
		is       error
		offset   int
	}{
		{"lower-case t", "1985-04-12t23:20:50.123Z", "1985-04-12T23:20:50.123Z", nil, 0},
		{"lower-case z", "1985-04-12T23:20:50.123z", "1985-04-12T23:20:50.123Z", nil, 0},
		{"space separator", "1985-04-12 23:20:50.123Z", "1985-04-12T23:20:50.123Z", nil, 0},
		{"comma decimal mark", "1985-04-12T23:20:50,123Z", "1985-04-12T23:20:50.123Z", nil, 0},
		{"25 fraction digits", "1985-04-12T23:20:50.1234567890123456789012345Z", "1985-04-12T23:20:50.123456789Z", nil, 0},
		{"no time zone", "1985-04-12T23:20:50.123", "1985-04-12T23:20:50.123Z", nil, 0},
		{"no time zone, no fraction", "1985-04-12T23:20:50", "1985-04-12T23:20:50Z", nil, 0},
		{"offset without colon", "1985-04-12T23:20:50.123+0730", "1985-04-12T23:20:50.123+07:30", nil, 0},
		{"offset hours only", "1985-04-12T23:20:50.123-07", "1985-04-12T23:20:50.123-07:00", nil, 0},
		{"-00:00 as UTC", "1985-04-12T23:20:50.123-00:00", "1985-04-12T23:20:50.123+00:00", nil, 0},
		{"-0000 as UTC", "1985-04-12T23:20:50.123-0000", "1985-04-12T23:20:50.123+00:00", nil, 0},
		{"-00 as UTC", "1985-04-12T23:20:50.123-00", "1985-04-12T23:20:50.123+00:00", nil, 0},
		{"all at once", "1985-04-12 23:20:50,5+0100", "1985-04-12T23:20:50.5+01:00", nil, 0},

		{"underscore separator", "1985-04-12_23:20:50Z", "", ErrSyntax, 10},
		{"no seconds", "1985-04-12T23:20Z", "", ErrSyntax, 16},
		{"one-digit month", "1985-4-12T23:20:50Z", "", ErrSyntax, 6},
		{"five-digit year", "01985-04-12T23:20:50Z", "", ErrSyntax, 4},
		{"month 13", "1985-13-12 23:20:50", "", ErrRange, 5},
		{"day 31 of April", "1985-04-31t23:20:50z", "", ErrRange, 8},
		{"point without digits", "1985-04-12T23:20:50.Z", "", ErrSyntax, 20},
		{"offset of 3 digits", "1985-04-12T23:20:50+070", "", ErrSyntax, 19},
		{"offset hours 24", "1985-04-12T23:20:50+2400", "", ErrRange, 19},
		{"offset minutes 60", "1985-04-12T23:20:50+0060", "", ErrRange, 19},
		{"before year zero", "0000-01-01T00:00:00+01", "", ErrRange, 19},
		{"trailing space", "1985-04-12T23:20:50Z ", "", ErrSyntax, 19},
		{"leading space", " 1985-04-12T23:20:50Z", "", ErrSyntax, 0},
		{"named zone", "1985-04-12T23:20:50 UTC", "", ErrSyntax, 19},
		{"empty", "", "", ErrSyntax, 0},
		{"layout letters for the year", "YYYY-04-12 23:20:50Z", "", ErrSyntax, 0},
		{"layout letter in the second", "1985-04-12 23:20:5S", "", ErrSyntax, 18},
	}
	for _, tt := range tests {
		d, err := ParseLenient(tt.in)
		if tt.is != nil {
			if err == nil {
				t.Errorf("%s: ParseLenient(%q) accepted it", tt.rule, tt.in)
				continue
			}
			e := checkError(t, err, tt.in)
			if !errors.Is(err, tt.is) || e.Offset != tt.offset {
				t.Errorf("%s: ParseLenient(%q) = %v (offset %d); want %v at offset %d", tt.rule, tt.in, err, e.Offset, tt.is, tt.offset)
			}
			continue
		}
		want := MustParse(tt.same)
		if err != nil || d.String() != tt.in || !d.Time().Equal(want.Time()) || d.Offset() != want.Offset() {
			t.Errorf("%s: ParseLenient(%q) = %v (%v, offset %d), %v; want %v", tt.rule, tt.in, d, d.Time(), d.Offset(), err, want.Time())
		}
		if IsValid(tt.in) {
			t.Errorf("%s: %q is valid strictly; the row tests nothing", tt.rule, tt.in)
		}
		// Through a text column: Value writes the strict form, which Scan reads back.
		var back Datetime
		if v, err := d.Value(); err != nil {
			t.Errorf("%s: Value: %v", tt.rule, err)
		} else if err := back.Scan(v); err != nil || !back.Time().Equal(want.Time()) || back.Offset() != want.Offset() {
			t.Errorf("%s: Scan(Value()) = %v, %v; want %v", tt.rule, back, err, want)
		}
	}
}
