package did

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/testvec"
)

// oracle is the regular expression of https://atproto.com/specs/did, plus its 2048-character
// limit, which the expression leaves out.
var oracle = regexp.MustCompile(`^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$`)

func oracleValid(s string) bool { return len(s) <= MaxLen && oracle.MatchString(s) }

// plcOracle is the exact did:plc form.
var plcOracle = regexp.MustCompile(`^did:plc:[a-z2-7]{24}$`)

func FuzzParse(f *testing.F) {
	for _, name := range []string{"did_syntax_valid.txt", "did_syntax_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	f.Add("did:web:localhost%3A1234")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		want := oracleValid(s)
		if (err == nil) != want || d.IsValid() != want || (Validate(s) == nil) != want || IsValid(s) != want {
			t.Fatalf("Parse(%q) = %#v, %v; oracle says valid=%v", s, d, err, want)
		}
		if err == nil {
			if d.String() != s || MustParse(d.String()) != d || "did:"+d.Method()+":"+d.Identifier() != s {
				t.Fatalf("%q: round trip %#v", s, d)
			}
			if d.IsPLC() != plcOracle.MatchString(s) || (d.CheckPLC() == nil) != d.IsPLC() {
				t.Fatalf("%q: IsPLC() = %v, CheckPLC() = %v", s, d.IsPLC(), d.CheckPLC())
			}
			if host, err := d.WebHost(); err == nil && (d.Method() != "web" || strings.ContainsAny(host, "%/")) {
				t.Fatalf("%q: WebHost() = %q", s, host)
			} else if err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("%q: WebHost() error %v", s, err)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != "DID" || e.Len != len(s) || len(e.Input) > echo.Max || !strings.HasPrefix(s, e.Input) {
			t.Fatalf("%q: bad error %#v", s, err)
		}
		if e.Offset < -1 || e.Offset > len(s) || e.Err == ErrInvalid || !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: error %+v", s, e)
		}
		if errors.Is(err, ErrCharacter) && notIDChar[s[e.Offset]] == 0 {
			t.Fatalf("%q: offset %d does not point at a bad byte", s, e.Offset)
		}
	})
}
