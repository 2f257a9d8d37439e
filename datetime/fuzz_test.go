package datetime

import (
	"errors"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/atcore/atcore/internal/testvec"
)

// The spec gives no regular expression for datetimes; these oracles are the package doc's
// layouts (strict, then lenient) as regular expressions, with the calendar checked by the
// standard library in oracleTime.
var (
	strictOracle  = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,20})?(Z|([+-])([0-9]{2}):([0-9]{2}))$`)
	lenientOracle = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})([.,][0-9]+)?(|Z|z|([+-])([0-9]{2})(?::?([0-9]{2}))?)$`)
)

// oracleTime returns the instant that the groups of an oracle match name, or false if a value
// is out of range: the fields must survive time.Date without being normalized, and the instant
// must not precede year zero.
func oracleTime(m []string, strict bool) (time.Time, bool) {
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	y, mo, d, h, mi, sec := num(m[1]), num(m[2]), num(m[3]), num(m[4]), num(m[5]), num(m[6])
	if h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	var ns int
	if f := m[7]; f != "" {
		digits := (f[1:] + "000000000")[:9]
		ns = num(digits)
	}
	offset := 0
	if m[9] != "" {
		oh, om := num(m[10]), num(m[11])
		if oh > 23 || om > 59 {
			return time.Time{}, false
		}
		offset = oh*3600 + om*60
		if m[9] == "-" {
			if offset == 0 && strict {
				return time.Time{}, false
			}
			offset = -offset
		}
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.FixedZone("", offset))
	if t.Year() != y || int(t.Month()) != mo || t.Day() != d {
		return time.Time{}, false
	}
	if t.Before(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)) {
		return time.Time{}, false
	}
	return t, true
}

func addSeeds(f *testing.F) {
	for _, name := range []string{"datetime_syntax_valid.txt", "datetime_syntax_invalid.txt", "datetime_parse_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	for _, s := range []string{"1985-04-12t23:20:50,5z", "1985-04-12 23:20:50+0100", "1985-04-12T23:20:50-00", "2024-02-29T00:00:00Z", "0000-01-01T00:00:00-00:00"} {
		f.Add(s)
	}
}

func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		want, valid := time.Time{}, false
		if m := strictOracle.FindStringSubmatch(s); m != nil {
			want, valid = oracleTime(m, true)
		}
		d, err := Parse(s)
		if (err == nil) != valid || IsValid(s) != valid {
			t.Fatalf("Parse(%q) = %v, IsValid = %v; oracle says valid=%v", s, err, IsValid(s), valid)
		}
		if err != nil {
			checkError(t, err, s)
			return
		}
		if !d.Time().Equal(want) || d.Offset() != offsetOf(want) {
			t.Fatalf("Parse(%q): %v offset %d, oracle %v", s, d.Time(), d.Offset(), want)
		}
		if d.String() != s || MustParse(d.String()) != d {
			t.Fatalf("Parse(%q) does not round-trip: %q", s, d.String())
		}
		if l, err := ParseLenient(s); err != nil || l != d {
			t.Fatalf("ParseLenient(%q) = %v, %v; Parse gave %v", s, l, err, d)
		}
	})
}

func FuzzParseLenient(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		want, valid := time.Time{}, false
		if m := lenientOracle.FindStringSubmatch(s); m != nil {
			want, valid = oracleTime(m, false)
		}
		d, err := ParseLenient(s)
		if (err == nil) != valid {
			t.Fatalf("ParseLenient(%q) = %v; oracle says valid=%v", s, err, valid)
		}
		if err != nil {
			checkError(t, err, s)
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrRange) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if !d.Time().Equal(want) || d.Offset() != offsetOf(want) || d.String() != s {
			t.Fatalf("ParseLenient(%q): %v offset %d, oracle %v", s, d.Time(), d.Offset(), want)
		}
	})
}

func offsetOf(t time.Time) int {
	_, off := t.Zone()
	return off
}
