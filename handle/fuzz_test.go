package handle

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/dns"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/testvec"
)

// oracle is the regular expression of https://atproto.com/specs/handle, plus its 253-character
// cap, checked separately because the expression does not bound the length.
var oracle = regexp.MustCompile(`^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)

func oracleValid(s string) bool { return len(s) <= MaxLen && oracle.MatchString(s) }

func FuzzParse(f *testing.F) {
	for _, name := range []string{"handle_syntax_valid.txt", "handle_syntax_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(s)
		want := oracleValid(s)
		if (err == nil) != want || h.IsValid() != want || (Validate(s) == nil) != want || IsValid(s) != want {
			t.Fatalf("Parse(%q) = %#v, %v; oracle says valid=%v", s, h, err, want)
		}
		if err == nil {
			if h.String() != s || MustParse(h.String()) != h || !strings.HasSuffix(s, "."+h.TLD()) {
				t.Fatalf("%q: round trip %#v", s, h)
			}
			if n := h.Normalize(); n.String() != strings.ToLower(s) || !n.Equal(h) || n.Normalize() != n {
				t.Fatalf("%q: Normalize() = %q", s, n)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != "handle" || e.Len != len(s) || len(e.Input) > echo.Max || !strings.HasPrefix(s, e.Input) {
			t.Fatalf("%q: bad error %#v", s, err)
		}
		if e.Offset < -1 || e.Offset > len(s) || e.Err == ErrInvalid || !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: error %+v", s, e)
		}
		if errors.Is(err, ErrCharacter) && dns.Class[s[e.Offset]] != 0 {
			t.Fatalf("%q: offset %d does not point at a bad byte", s, e.Offset)
		}
	})
}
