package did

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/apitest"
	"github.com/atcore/atcore/internal/testvec"
)

func TestVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "did_syntax_valid.txt") {
		d, err := Parse(s)
		if err != nil || !d.IsValid() || d.String() != s || Validate(s) != nil {
			t.Errorf("Parse(%q) = %v, %v; want valid", s, d, err)
		}
	}
	for _, s := range testvec.Syntax(t, "did_syntax_invalid.txt") {
		if d, err := Parse(s); err == nil || d.IsValid() || Validate(s) == nil {
			t.Errorf("Parse(%.80q) accepts it; want invalid", s)
		}
	}
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		did      string
		sentinel error // nil: valid
		offset   int
		reason   string
	}{
		{"plc", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", nil, 0, ""},
		{"shortest", "did:m:v", nil, 0, ""},
		{"upper case in the identifier", "did:method:VAL", nil, 0, ""},
		{"colons inside", "did:method::::val", nil, 0, ""},
		{"percent inside, not checked", "did:method:val%zz1", nil, 0, ""},
		{"2048 characters", "did:plc:" + rep("a", 2040), nil, 0, ""},
		{"2049 characters", "did:plc:" + rep("a", 2041), ErrLength, 2048, "2049 bytes long; a DID has at most 2048 in atproto"},
		{"empty", "", ErrLength, -1, "empty; a DID looks like did:plc:ewvi7nxzyoun6zhxrhs64oiz"},
		{"upper-case prefix", "DID:method:val", ErrPrefix, 0, `does not start with "did:" (lower case)`},
		{"no prefix", "method:did:val", ErrPrefix, 0, `does not start with "did:" (lower case)`},
		{"prefix alone", "did:", ErrMethod, 4, `nothing after "did:"; a method and an identifier must follow`},
		{"short prefix", "did", ErrPrefix, 0, `does not start with "did:" (lower case)`},
		{"upper-case method", "did:METHOD:val", ErrMethod, 4, "'M' at offset 4: the method is lower-case letters only, then ':'"},
		{"digit in method", "did:m123:val", ErrMethod, 5, "'1' at offset 5: the method is lower-case letters only, then ':'"},
		{"empty method", "did::val", ErrMethod, 4, "empty method at offset 4"},
		{"no identifier", "didmethod:val", ErrPrefix, 0, `does not start with "did:" (lower case)`},
		{"method without colon", "did:method", ErrMethod, -1, "no ':' after the method"},
		{"empty identifier", "did:method:", ErrEnd, 11, "empty method-specific identifier"},
		{"ends with colon", "did:method:val:", ErrEnd, 14, "ends with ':'"},
		{"ends with percent", "did:method:val%", ErrEnd, 14, "ends with '%'"},
		{"path", "did:method:val/two", ErrCharacter, 14, "'/' at offset 14 is not allowed in a DID (a DID has no path, query or fragment)"},
		{"query", "did:method:val?two", ErrCharacter, 14, "'?' at offset 14 is not allowed in a DID (a DID has no path, query or fragment)"},
		{"fragment", "did:method:val#two", ErrCharacter, 14, "'#' at offset 14 is not allowed in a DID (a DID has no path, query or fragment)"},
		{"space at the end", "did:plc:abc ", ErrCharacter, 11, "' ' at offset 11 is not allowed in a DID"},
		{"space at the start", " did:plc:abc", ErrPrefix, 0, `does not start with "did:" (lower case)`},
		{"NUL at the end", "did:plc:abc\x00", ErrCharacter, 11, `'\x00' at offset 11 is not allowed in a DID`},
		{"NUL at the start", "\x00did:plc:abc", ErrPrefix, 0, `does not start with "did:" (lower case)`},
		{"newline at the end", "did:plc:abc\n", ErrCharacter, 11, `'\n' at offset 11 is not allowed in a DID`},
		{"Cyrillic look-alike in the method", "did:рlc:abc", ErrMethod, 4, `'\u0440' at offset 4: the method is lower-case letters only, then ':'`},
		{"Unicode in the identifier", "did:web:bücher.de", ErrCharacter, 9, `'\u00fc' at offset 9 is not allowed in a DID`},
		{"invalid UTF-8", "did:plc:\xff", ErrCharacter, 8, `'\xff' at offset 8 is not allowed in a DID`},
		{"tilde", "did:method:a~b", ErrCharacter, 12, "'~' at offset 12 is not allowed in a DID"},
	} {
		d, err := Parse(tc.did)
		if tc.sentinel == nil {
			if err != nil || d.String() != tc.did {
				t.Errorf("%s: Parse(%q) = %v, %v; want valid", tc.rule, tc.did, d, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Parse(%q) = %v, %v; want an *Error", tc.rule, tc.did, d, err)
			continue
		}
		if d != (DID{}) || e.Offset != tc.offset || e.Reason != tc.reason || !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Parse(%q) = %d, %q, %v; want %d, %q, %v", tc.rule, tc.did, e.Offset, e.Reason, e.Err, tc.offset, tc.reason, tc.sentinel)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, `invalid DID "`) || !strings.HasSuffix(msg, ": "+tc.reason) {
			t.Errorf("%s: message %q", tc.rule, msg)
		}
		if err := ValidateAt(tc.did, 5); !errors.As(err, &e) || e.Offset != apitest.OffsetAt(tc.did, tc.offset, 5) {
			t.Errorf("%s: ValidateAt(…, 5) = %v", tc.rule, err)
		}
	}
}

func TestParts(t *testing.T) {
	for _, tc := range []struct{ in, method, id string }{
		{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "plc", "ewvi7nxzyoun6zhxrhs64oiz"},
		{"did:web:example.com", "web", "example.com"},
		{"did:method::::val", "method", ":::val"},
		{"did:m:v", "m", "v"},
	} {
		d := MustParse(tc.in)
		if d.Method() != tc.method || d.Identifier() != tc.id {
			t.Errorf("%q: %q, %q", tc.in, d.Method(), d.Identifier())
		}
	}
	var zero DID
	if zero.IsValid() || zero.String() != "" || zero.Method() != "" || zero.Identifier() != "" || zero.IsPLC() {
		t.Errorf("zero DID: %#v", zero)
	}
	a, b := MustParse("did:plc:aaa"), MustParse("did:plc:bbb")
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 || zero.Compare(a) != -1 {
		t.Error("Compare does not order by string")
	}
}

func TestPLC(t *testing.T) {
	for _, tc := range []struct {
		did      string
		sentinel error
		offset   int
		reason   string
	}{
		{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", nil, 0, ""},
		{"did:plc:7iza6de2dwap2sbkpav7c6c6", nil, 0, ""},
		{"did:web:example.com", ErrMethod, 4, `method "web" is not plc`},
		{"did:plc:asdf123", ErrPLC, -1, "a did:plc identifier has 24 characters; this has 7"},
		{"did:plc:ewvi7nxzyoun6zhxrhs64oiza", ErrPLC, -1, "a did:plc identifier has 24 characters; this has 25"},
		{"did:plc:EWVI7NXZYOUN6ZHXRHS64OIZ", ErrPLC, 8, "'E' at offset 8 is not a did:plc character (a-z, 2-7)"},
		{"did:plc:ewvi7nxzyoun6zhxrhs64oi1", ErrPLC, 31, "'1' at offset 31 is not a did:plc character (a-z, 2-7)"},
		{"did:plc:ewvi7nxzyoun6zhxrhs64oi8", ErrPLC, 31, "'8' at offset 31 is not a did:plc character (a-z, 2-7)"},
		{"did:plc:ewvi7nxzyoun6zhx:hs64oiz", ErrPLC, 24, "':' at offset 24 is not a did:plc character (a-z, 2-7)"},
		{"did:" + strings.Repeat("m", 2000) + ":x", ErrMethod, 4, `method "` + strings.Repeat("m", 64) + `"… is not plc`}, // the reason echoes 64 bytes of the method, no more
	} {
		d := MustParse(tc.did)
		err := d.CheckPLC()
		if d.IsPLC() != (tc.sentinel == nil) {
			t.Errorf("%q: IsPLC() = %v", tc.did, d.IsPLC())
		}
		if tc.sentinel == nil {
			if err != nil {
				t.Errorf("%q: CheckPLC() = %v", tc.did, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset != tc.offset || e.Reason != tc.reason || !errors.Is(err, tc.sentinel) {
			t.Errorf("%q: CheckPLC() = %v; want %d, %q", tc.did, err, tc.offset, tc.reason)
		}
	}
	if err := (DID{}).CheckPLC(); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero DID: CheckPLC() = %v", err)
	}
}

func TestWebHost(t *testing.T) {
	for _, tc := range []struct {
		did      string
		host     string
		sentinel error
		offset   int
		reason   string
	}{
		{"did:web:example.com", "example.com", nil, 0, ""},
		{"did:web:user.example.com", "user.example.com", nil, 0, ""},
		{"did:web:Example.COM", "Example.COM", nil, 0, ""},
		{"did:web:xn--ls8h.test", "xn--ls8h.test", nil, 0, ""},
		{"did:web:localhost", "localhost", nil, 0, ""},
		{"did:web:localhost%3A1234", "localhost:1234", nil, 0, ""},
		{"did:web:localhost%3a8080", "localhost:8080", nil, 0, ""},
		{"did:web:localhost%3A65535", "localhost:65535", nil, 0, ""},
		{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "", ErrMethod, 4, `method "plc" is not web`},
		{"did:web:example.com:u:alice", "", ErrWeb, 19, "':' at offset 19: path-based did:web is not supported in atproto"},
		{"did:web:example.com%3A443", "", ErrWeb, 19, "port at offset 19: only localhost may have a port"},
		{"did:web:localhost%3A0", "", ErrWeb, 20, `port "0" at offset 20 is not a number from 1 to 65535`},
		{"did:web:localhost%3A65536", "", ErrWeb, 20, `port "65536" at offset 20 is not a number from 1 to 65535`},
		{"did:web:localhost%3A08080", "", ErrWeb, 20, `port "08080" at offset 20 is not a number from 1 to 65535`},
		{"did:web:localhost%3Aabc", "", ErrWeb, 20, `port "abc" at offset 20 is not a number from 1 to 65535`},
		{"did:web:localhost%3A", "", ErrWeb, 20, `port "" at offset 20 is not a number from 1 to 65535`},
		{"did:web:localhost%3A" + strings.Repeat("1", 2000), "", ErrWeb, 20, `port "` + strings.Repeat("1", 64) + `"… at offset 20 is not a number from 1 to 65535`},
		{"did:" + strings.Repeat("m", 2000) + ":x", "", ErrMethod, 4, `method "` + strings.Repeat("m", 64) + `"… is not web`},
		{"did:web:exa%2Dmple.com", "", ErrWeb, 11, "'%' at offset 11: only %3A (the colon before a port) may be encoded in a did:web host"},
		{"did:web:example", "", ErrWeb, -1, "host: a single label; a host name has at least two, as in example.com"},
		{"did:web:127.0.0.1", "", ErrWeb, 16, "host: top-level domain at offset 16 starts with a digit"},
		{"did:web:exa_mple.com", "", ErrWeb, 11, "host: '_' at offset 11 is not allowed in a host name"},
		{"did:web:-example.com", "", ErrWeb, 8, "host: label at offset 8 starts with '-'"},
		{"did:web:laptop.local", "", ErrWeb, 15, `top-level domain "local" at offset 15 is not allowed in atproto`},
		{"did:web:foo.onion", "", ErrWeb, 12, `top-level domain "onion" at offset 12 is not allowed in atproto`},
		{"did:web:foo.localhost", "", ErrWeb, 12, `top-level domain "localhost" at offset 12 is not allowed in atproto`},
	} {
		host, err := MustParse(tc.did).WebHost()
		if tc.sentinel == nil {
			if err != nil || host != tc.host {
				t.Errorf("%q: WebHost() = %q, %v; want %q", tc.did, host, err, tc.host)
			}
			continue
		}
		var e *Error
		if host != "" || !errors.As(err, &e) || e.Offset != tc.offset || e.Reason != tc.reason || !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: WebHost() = %q, %v; want %d, %q", tc.did, host, err, tc.offset, tc.reason)
		}
	}
	if _, err := (DID{}).WebHost(); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero DID: WebHost() = %v", err)
	}
}

func TestText(t *testing.T) {
	var v struct {
		DID DID `json:"did"`
	}
	if err := json.Unmarshal([]byte(`{"did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz"}`), &v); err != nil || v.DID != MustParse("did:plc:ewvi7nxzyoun6zhxrhs64oiz") {
		t.Fatalf("unmarshal: %v, %#v", err, v)
	}
	if out, err := json.Marshal(v); err != nil || string(out) != `{"did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz"}` {
		t.Errorf("marshal: %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"did":"did:plc:"}`), &v); !errors.Is(err, ErrEnd) {
		t.Errorf("unmarshal of an invalid DID: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"did":""}`), &v); err != nil || v.DID.IsValid() {
		t.Errorf("empty: %v %#v", err, v)
	}
	b, _ := MustParse("did:m:v").AppendText([]byte("x "))
	if string(b) != "x did:m:v" {
		t.Errorf("AppendText = %q", b)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("did:plc:")
}

func TestNoAllocs(t *testing.T) {
	for _, s := range testvec.Syntax(t, "did_syntax_valid.txt") {
		if n := testing.AllocsPerRun(20, func() {
			d, err := Parse(s)
			if err != nil || Validate(s) != nil || ValidateAt(s, 5) != nil {
				t.Fatal(err)
			}
			_, _, _ = d.Method(), d.Identifier(), d.IsPLC()
		}); n != 0 {
			t.Errorf("%q: %v allocations", s, n)
		}
	}
	plc, web := MustParse("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), MustParse("did:web:example.com")
	if n := testing.AllocsPerRun(100, func() {
		if plc.CheckPLC() != nil {
			t.Fatal("CheckPLC")
		}
		if _, err := web.WebHost(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("CheckPLC and WebHost: %v allocations", n)
	}
}

// TestBase32Lower checks the word-at-a-time test against a byte loop on every byte value in
// every position.
func TestBase32Lower(t *testing.T) {
	ref := func(id string) bool {
		for i := 0; i < len(id); i++ {
			if c := id[i]; !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
				return false
			}
		}
		return len(id) == plcLen
	}
	base := []byte("ewvi7nxzyoun6zhxrhs64oiz")
	for i := range base {
		for c := 0; c < 256; c++ {
			b := append([]byte(nil), base...)
			b[i] = byte(c)
			if got, want := isBase32Lower(string(b)), ref(string(b)); got != want {
				t.Fatalf("isBase32Lower(%q) = %v, want %v", b, got, want)
			}
		}
	}
}
