package datetime

import (
	"errors"
	"fmt"
	"math/rand/v2"
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
		if (err == nil) != valid || IsValid(s) != valid || (Validate(s) == nil) != valid {
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

// TestOracleRandom compares Parse and ParseLenient with the oracles on seeded random strings
// near the layout (fields at their edges, one character changed, inserted or cut): a
// deterministic complement to the fuzz targets that runs with every go test.
func TestOracleRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3339, 1))
	const noise = "0123456789-:.,+TtZz _\x00"
	edges := []string{"00", "01", "12", "13", "23", "24", "28", "29", "30", "31", "59", "60", "99"}
	var strict, lenient int
	for range 50_000 {
		b := []byte(fmt.Sprintf("%04d-%s-%s%c%s:%s:%s", r.IntN(10000), edges[r.IntN(13)], edges[r.IntN(13)],
			"TTTt "[r.IntN(5)], edges[r.IntN(13)], edges[r.IntN(13)], edges[r.IntN(13)]))
		if r.IntN(2) == 0 {
			b = append(b, ".,"[r.IntN(2)])
			for range r.IntN(24) {
				b = append(b, byte('0'+r.IntN(10)))
			}
		}
		switch r.IntN(5) {
		case 0:
			b = append(b, "Zz"[r.IntN(2)])
		case 1:
			b = append(b, "+-"[r.IntN(2)])
			b = append(b, edges[r.IntN(13)]...)
			if r.IntN(3) > 0 {
				b = append(b, ':')
			}
			b = append(b, edges[r.IntN(13)]...)
		case 2:
			b = append(b, "+-"[r.IntN(2)], '0', '0')
		case 3:
			b = append(b, "Z"...)
		}
		switch r.IntN(6) {
		case 0:
			b[r.IntN(len(b))] = noise[r.IntN(len(noise))]
		case 1:
			b = b[:r.IntN(len(b))]
		case 2:
			i := r.IntN(len(b))
			b = append(b[:i], append([]byte{noise[r.IntN(len(noise))]}, b[i:]...)...)
		case 3:
			copy(b, "0000-01-01T00")
		}
		s := string(b)
		_, okStrict := oracleMatch(strictOracle, s, true)
		_, okLenient := oracleMatch(lenientOracle, s, false)
		if okStrict {
			strict++
		}
		if okLenient {
			lenient++
		}
		if _, err := Parse(s); (err == nil) != okStrict {
			t.Fatalf("Parse(%q) = %v; oracle says valid=%v", s, err, okStrict)
		} else if err != nil {
			checkError(t, err, s)
		}
		if _, err := ParseLenient(s); (err == nil) != okLenient {
			t.Fatalf("ParseLenient(%q) = %v; oracle says valid=%v", s, err, okLenient)
		} else if err != nil {
			checkError(t, err, s)
		}
	}
	if strict < 1000 || lenient < 2*strict {
		t.Errorf("generated %d strict and %d lenient valid datetimes; want more of each", strict, lenient)
	}
}

func oracleMatch(re *regexp.Regexp, s string, strict bool) (time.Time, bool) {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	return oracleTime(m, strict)
}
