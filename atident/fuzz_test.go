package atident

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// The spec's two regular expressions (https://atproto.com/specs/did and
// https://atproto.com/specs/handle) with their length limits: an at-identifier is either.
var (
	didOracle    = regexp.MustCompile(`^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$`)
	handleOracle = regexp.MustCompile(`^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)
)

func FuzzParse(f *testing.F) {
	for _, name := range []string{"atidentifier_syntax_valid.txt", "atidentifier_syntax_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		isDID := len(s) <= 2048 && didOracle.MatchString(s)
		isHandle := len(s) <= 253 && handleOracle.MatchString(s)
		if (err == nil) != (isDID || isHandle) || IsValid(s) != (err == nil) || id.IsDID() != isDID || id.IsHandle() != isHandle {
			t.Fatalf("Parse(%q) = %#v, %v; oracle says DID %v, handle %v", s, id, err, isDID, isHandle)
		}
		if err == nil {
			if id.String() != s || MustParse(id.String()) != id || id.Normalize().String() != map[bool]string{true: s, false: strings.ToLower(s)}[isDID] {
				t.Fatalf("%q: round trip %#v", s, id)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Len != len(s) || e.Offset < -1 || e.Offset > len(s) || !errors.Is(err, ErrInvalid) || e.part == nil {
			t.Fatalf("%q: bad error %#v", s, err)
		}
	})
}
