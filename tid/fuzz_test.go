package tid

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/echo"
)

// seedVectors adds the interop vectors and the spec examples to a fuzz corpus.
func seedVectors(f *testing.F) {
	for _, name := range []string{"tid_syntax_valid.txt", "tid_syntax_invalid.txt"} {
		data, err := os.ReadFile("../testdata/interop/syntax/" + name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f.Add(line)
		}
	}
	for _, s := range append(specValid, specInvalid...) {
		f.Add(s)
	}
	f.Add("3kxn-lhr-3gxq-23")
	f.Add("bzzzzzzzzzzzz")
	f.Add("jzzzzzzzzzzzz")
}

// FuzzParse: Parse never panics, agrees with the spec regex (DECISIONS rule 4), round-trips, and its
// errors say where; ParseLenient and PrefixBounds never panic and agree with Parse.
func FuzzParse(f *testing.F) {
	seedVectors(f)
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		if ok := specRegex.MatchString(s); ok != (err == nil) || ok != IsValid(s) {
			t.Fatalf("Parse(%q) error %v, IsValid %v; the spec regex says %v", s, err, IsValid(s), ok)
		}
		if err == nil {
			if got := id.String(); got != s {
				t.Fatalf("Parse(%q).String() = %q", s, got)
			}
			if back, err := Parse(id.String()); err != nil || back != id {
				t.Fatalf("Parse(String()) = %v, %v; want %v", back, err, id)
			}
			if back, err := ParseLenient(id.Dashed()); err != nil || back != id {
				t.Fatalf("ParseLenient(%q) = %v, %v; want %v", id.Dashed(), back, err, id)
			}
		} else {
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q) error %v (%T), want a *Error matching ErrSyntax", s, err, err)
			}
			if pe.Offset < -1 || pe.Offset > len(s) || (pe.Offset == -1) != (s == "") || len(pe.Input) > echo.Max || !strings.HasPrefix(s, pe.Input) {
				t.Fatalf("Parse(%q): offset %d, input %q out of bounds", s, pe.Offset, pe.Input)
			}
		}
		// ParseLenient accepts what Parse accepts, plus the dashed form only.
		lid, lerr := ParseLenient(s)
		if err == nil && (lerr != nil || lid != id) {
			t.Fatalf("ParseLenient(%q) = %v, %v; Parse gave %v", s, lid, lerr, id)
		}
		if err != nil && lerr == nil {
			if len(s) != 16 || strings.ReplaceAll(s, "-", "") != lid.String() || lid.Dashed() != s {
				t.Fatalf("ParseLenient(%q) = %v, accepted something other than the dashed form", s, lid)
			}
		}
		// A prefix bounds exactly the TIDs that start with it.
		if lo, hi, perr := PrefixBounds(s); perr == nil {
			if !strings.HasPrefix(lo.String(), s) || !strings.HasPrefix(hi.String(), s) || lo > hi {
				t.Fatalf("PrefixBounds(%q) = %v, %v", s, lo, hi)
			}
		} else if len(s) >= 1 && len(s) <= Len && specRegex.MatchString(s+strings.Repeat("2", Len-len(s))) {
			t.Fatalf("PrefixBounds(%q) rejected a valid prefix: %v", s, perr)
		}
	})
}

// FuzzRoundTrip: every uint64 is a TID whose string parses back to it, and whose parts rebuild it
// when the top bit is clear (DECISIONS rules 4 and 5).
func FuzzRoundTrip(f *testing.F) {
	for _, v := range []uint64{0, 1, 1721407246480310<<10 | 1, 1<<63 - 1, 1 << 63, 1<<64 - 1} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v uint64) {
		id := TID(v)
		s := id.String()
		if back, err := Parse(s); err != nil || back != id || !specRegex.MatchString(s) {
			t.Fatalf("Parse(%q) = %v, %v; want %v", s, back, err, id)
		}
		b, _ := id.AppendText(nil)
		if string(b) != s {
			t.Fatalf("AppendText = %q, String = %q", b, s)
		}
		if v&topBit != 0 {
			return
		}
		if back, err := FromUnixMicro(id.UnixMicro(), id.ClockID()); err != nil || back != id {
			t.Fatalf("FromUnixMicro(parts of %v) = %v, %v", id, back, err)
		}
		if back, err := FromTime(id.Time(), id.ClockID()); err != nil || back != id {
			t.Fatalf("FromTime(parts of %v) = %v, %v", id, back, err)
		}
		if lo, hi, err := Bounds(id.Time()); err != nil || lo > id || id > hi {
			t.Fatalf("Bounds(%v) = %v, %v, %v", id.Time(), lo, hi, err)
		}
	})
}
