package aturi

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/testvec"
)

// The oracle is the spec's restricted grammar, at://AUTHORITY[/COLLECTION[/RKEY]], with each part
// checked by the regular expression its own spec gives (did, handle, nsid, record-key) and that
// spec's length limit: no code shared with the package.
var (
	shapeOracle  = regexp.MustCompile(`^at://([^/]*)(?:/([^/]*)(?:/(.*))?)?$`)
	didOracle    = regexp.MustCompile(`^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$`)
	handleOracle = regexp.MustCompile(`^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)
	nsidOracle   = regexp.MustCompile(`^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(\.[a-zA-Z]([a-zA-Z0-9]{0,62})?)$`)
	rkeyOracle   = regexp.MustCompile(`^[a-zA-Z0-9_~.:-]{1,512}$`)
)

// oracle returns whether s is valid and its parts.
func oracle(s string) (ok bool, auth, coll, key string) {
	if len(s) > MaxLen {
		return false, "", "", ""
	}
	m := shapeOracle.FindStringSubmatchIndex(s)
	if m == nil {
		return false, "", "", ""
	}
	part := func(i int) (string, bool) {
		if m[2*i] < 0 {
			return "", false
		}
		return s[m[2*i]:m[2*i+1]], true
	}
	auth, _ = part(1)
	if !(len(auth) <= 2048 && didOracle.MatchString(auth) || len(auth) <= 253 && handleOracle.MatchString(auth)) {
		return false, "", "", ""
	}
	coll, hasColl := part(2)
	if hasColl && !(len(coll) <= 317 && nsidOracle.MatchString(coll)) {
		return false, "", "", ""
	}
	key, hasKey := part(3)
	if hasKey && (!rkeyOracle.MatchString(key) || key == "." || key == "..") {
		return false, "", "", ""
	}
	return true, auth, coll, key
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"aturi_syntax_valid.txt", "aturi_syntax_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		want, auth, coll, key := oracle(s)
		if (err == nil) != want || u.IsValid() != want || IsValid(s) != want || (Validate(s) == nil) != want {
			t.Fatalf("Parse(%q) = %#v, %v; oracle says valid=%v", s, u, err, want)
		}
		if err == nil {
			if u.String() != s || MustParse(s) != u || u.Authority().String() != auth || u.Collection().String() != coll || u.RecordKey() != key {
				t.Fatalf("%q: parts %q %q %q; oracle %q %q %q", s, u.Authority(), u.Collection(), u.RecordKey(), auth, coll, key)
			}
			if b, err := New(u.Authority(), u.Collection(), u.RecordKey()); err != nil || b != u {
				t.Fatalf("%q: New from its parts = %v, %v", s, b, err)
			}
			if n := u.Normalize(); !strings.EqualFold(n.String(), s) || n.RecordKey() != key || n.Normalize() != n {
				t.Fatalf("%q: Normalize() = %q", s, n)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != "AT URI" || e.Len != len(s) || len(e.Input) > echo.Max || !strings.HasPrefix(s, e.Input) {
			t.Fatalf("%q: bad error %#v", s, err)
		}
		if e.Offset < -1 || e.Offset > len(s) || e.Err == ErrInvalid || !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: error %+v", s, e)
		}
		if d := invalid(s); !sameError(err, d) {
			t.Fatalf("%q: Parse's error %v differs from the diagnosis %v", s, err, d)
		}
	})
}
