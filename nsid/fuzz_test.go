package nsid

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/dns"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/testvec"
)

// oracle is the regular expression of https://atproto.com/specs/nsid, plus its 317-character
// cap, checked separately because the expression does not bound the length.
var oracle = regexp.MustCompile(`^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(\.[a-zA-Z]([a-zA-Z0-9]{0,62})?)$`)

func oracleValid(s string) bool { return len(s) <= MaxLen && oracle.MatchString(s) }

func FuzzParse(f *testing.F) {
	for _, name := range []string{"nsid_syntax_valid.txt", "nsid_syntax_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	f.Add("a.b.c.")
	f.Add("A.b-.c")
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		want := oracleValid(s)
		if (err == nil) != want || n.IsValid() != want || (Validate(s) == nil) != want || IsValid(s) != want {
			t.Fatalf("Parse(%q) = %#v, %v; oracle says valid=%v", s, n, err, want)
		}
		if err == nil {
			// Round trip, and the parts put back together.
			if n.String() != s || MustParse(n.String()) != n || n.Authority()+"."+n.Name() != s {
				t.Fatalf("%q: round trip %#v", s, n)
			}
			if nn := n.Normalize(); !strings.EqualFold(nn.String(), s) || nn.Name() != n.Name() || nn.Normalize() != nn {
				t.Fatalf("%q: Normalize() = %q", s, nn)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != "NSID" || e.Len != len(s) || len(e.Input) > echo.Max || !strings.HasPrefix(s, e.Input) {
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
