package rkey

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
	"github.com/atcore/atcore/nsid"
)

// keyOracle is DECISIONS rules 1 and 2 as a regular expression, to check the table-driven code.
var keyOracle = regexp.MustCompile(`^[A-Za-z0-9._:~-]{1,512}$`)

func oracleValid(key string) bool {
	return keyOracle.MatchString(key) && key != "." && key != ".."
}

// nsidOracle is the NSID syntax as one regular expression (name segment last), plus the
// 317-character cap checked separately.
var nsidOracle = regexp.MustCompile(`^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+\.[a-zA-Z][a-zA-Z0-9]{0,62}$`)

func nsidOracleValid(s string) bool {
	return len(s) <= 317 && nsidOracle.MatchString(s)
}

func addVectorSeeds(f *testing.F, names ...string) {
	for _, name := range names {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
}

// checkError asserts what every error of this package promises: an *Error, bounded echo, an
// offset inside the input (or -1), and a message that starts as documented.
func checkError(t *testing.T, err error, kind, input string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %T is not an *Error", input, err)
	}
	if e.Kind != kind || e.Len != len(input) || len(e.Input) > MaxEcho || !strings.HasPrefix(input, e.Input) {
		t.Fatalf("%q: bad error fields %+v", input, *e)
	}
	if e.Offset < -1 || e.Offset > len(input) {
		t.Fatalf("%q: offset %d outside the input", input, e.Offset)
	}
	if msg := e.Error(); !strings.HasPrefix(msg, "invalid "+kind+" ") || len(msg) > 6*MaxEcho+200 {
		t.Fatalf("%q: message %q", input, msg)
	}
}

func FuzzValidate(f *testing.F) {
	addVectorSeeds(f, "recordkey_syntax_valid.txt", "recordkey_syntax_invalid.txt")
	for _, s := range []string{"#extra", "", ".", "..", "...", "a\x00", "é", "\xff", strings.Repeat("a", 513)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		want := oracleValid(key)
		err := Validate(key)
		if got := err == nil; got != want || IsValid(key) != want {
			t.Fatalf("Validate(%q) = %v, IsValid = %v; oracle says valid=%v", key, err, IsValid(key), want)
		}
		if err == nil {
			return
		}
		checkError(t, err, "record key", key)
		var e *Error
		errors.As(err, &e)
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: %v does not match ErrInvalid", key, err)
		}
		if errors.Is(err, ErrCharacter) && (e.Offset < 0 || notKeyChar[key[e.Offset]] == 0) {
			t.Fatalf("%q: offset %d does not point at a bad byte", key, e.Offset)
		}
		if strings.HasPrefix(key, ".") && strings.TrimLeft(key, ".") == "" && len(key) > 2 {
			t.Fatalf("%q: dots only, longer than 2, must be valid", key)
		}
	})
}

func FuzzNSID(f *testing.F) {
	addVectorSeeds(f, "nsid_syntax_valid.txt", "nsid_syntax_invalid.txt")
	f.Fuzz(func(t *testing.T, s string) {
		if err := NSID.Check(s); (err == nil) != (nsidOracleValid(s) && IsValid(s)) {
			t.Fatalf("NSID.Check(%q) = %v disagrees", s, err)
		} else if err != nil {
			checkError(t, err, "record key", s)
			if IsValid(s) && !errors.Is(err, nsid.ErrInvalid) {
				t.Fatalf("NSID.Check(%q) = %v does not match nsid.ErrInvalid", s, err)
			}
		}
	})
}

// pathCollectionOracleValid is the collection of a repository path: a valid NSID, normalized
// (https://atproto.com/specs/repository), that is with no upper case before its last dot.
func pathCollectionOracleValid(c string) bool {
	if !nsidOracleValid(c) {
		return false
	}
	authority := c[:strings.LastIndexByte(c, '.')]
	return authority == strings.ToLower(authority)
}

func FuzzParsePath(f *testing.F) {
	addVectorSeeds(f, "nsid_syntax_valid.txt")
	for _, s := range []string{"app.bsky.feed.post/self", "a.b.c/..", "a.b.c/", "/", "a.b.c/d/e", "x/y", "App.bsky.feed.post/self", "app.bsky.feed.postThread/self"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		collection, key, err := ParsePath(path)
		c, k, found := strings.Cut(path, "/")
		want := found && pathCollectionOracleValid(c) && oracleValid(k)
		if (err == nil) != want {
			t.Fatalf("ParsePath(%q) = %v; oracle says valid=%v", path, err, want)
		}
		if err != nil {
			checkError(t, err, "repository path", path)
			if !errors.Is(err, ErrPath) {
				t.Fatalf("%q: %v does not match ErrPath", path, err)
			}
			return
		}
		if collection+"/"+key != path || collection != c {
			t.Fatalf("ParsePath(%q) = %q, %q", path, collection, key)
		}
	})
}

func FuzzParseKeyType(f *testing.F) {
	for _, s := range []string{"tid", "nsid", "any", "literal:self", "literal:", "literal:..", "TID"} {
		f.Add(s, "self")
	}
	f.Fuzz(func(t *testing.T, typ, key string) {
		kt, err := ParseKeyType(typ)
		if err != nil {
			checkError(t, err, "record key type", typ)
			return
		}
		if kt.String() != typ {
			t.Fatalf("ParseKeyType(%q).String() = %q", typ, kt.String())
		}
		if err := kt.Check(key); err != nil {
			checkError(t, err, "record key", key)
		} else if !oracleValid(key) {
			t.Fatalf("%v.Check(%q) accepts an invalid key", kt, key)
		}
	})
}
