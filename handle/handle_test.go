package handle

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/apitest"
	"github.com/atcore/atcore/internal/testvec"
)

func TestVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "handle_syntax_valid.txt") {
		h, err := Parse(s)
		if err != nil || !h.IsValid() || h.String() != s || Validate(s) != nil {
			t.Errorf("Parse(%q) = %v, %v; want valid", s, h, err)
		}
	}
	for _, s := range testvec.Syntax(t, "handle_syntax_invalid.txt") {
		if h, err := Parse(s); err == nil || h.IsValid() || Validate(s) == nil {
			t.Errorf("Parse(%q) accepts it; want invalid", s)
		}
	}
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		handle   string
		sentinel error // nil: valid
		offset   int
		reason   string
	}{
		{"two labels", "a.co", nil, 0, ""},
		{"shortest", "a.b", nil, 0, ""},
		{"digits first in inner labels", "8.cn", nil, 0, ""},
		{"upper case", "XX.LCS.MIT.EDU", nil, 0, ""},
		{"punycode label", "xn--ls8h.test", nil, 0, ""},
		{"punycode top-level domain", "xn--fiqa61au8b7zsevnm8ak20mc4a87e.xn--fiqs8s", nil, 0, ""},
		{"double hyphen inside", "john.t--t", nil, 0, ""},
		{"253 characters", rep(rep("a", 62)+".", 4) + rep("a", 1), nil, 0, ""},
		{"254 characters", rep(rep("a", 62)+".", 4) + rep("a", 2), ErrLength, 253, "254 bytes long; a handle has at most 253"},
		{"63-character label", "short." + rep("o", 63) + ".test", nil, 0, ""},
		{"64-character label", "short." + rep("o", 64) + ".test", ErrLabel, 69, "label at offset 6 is 64 characters long; at most 63 are allowed"},
		{"63-character top-level domain", "short." + rep("o", 63), nil, 0, ""},
		{"64-character top-level domain", "short." + rep("o", 64), ErrLabel, 69, "label at offset 6 is 64 characters long; at most 63 are allowed"},
		{"empty", "", ErrLength, -1, "empty; a handle is a host name such as alice.example.com"},
		{"bare top-level domain", "org", ErrLabel, -1, "a single label; a handle has at least two, as in example.com"},
		{"trailing dot", "name.org.", ErrLabel, 9, "empty label at offset 9"},
		{"leading dot", ".john.test", ErrLabel, 0, "empty label at offset 0"},
		{"double dot", "john..test", ErrLabel, 5, "empty label at offset 5"},
		{"top-level domain starts with a digit", "john.0", ErrPosition, 5, "top-level domain at offset 5 starts with a digit"},
		{"IPv4 address", "127.0.0.1", ErrPosition, 8, "top-level domain at offset 8 starts with a digit"},
		{"IPv6 address", "fe80::7325:8a97:c100:94b", ErrCharacter, 4, "':' at offset 4 is not allowed in a handle"},
		{"label starts with '-'", "-john.test", ErrPosition, 0, "label at offset 0 starts with '-'"},
		{"label ends with '-'", "xn--bcher-.tld", ErrPosition, 9, "label at offset 0 ends with '-'"},
		{"top-level domain ends with '-'", "john.tes-", ErrPosition, 8, "label at offset 5 ends with '-'"},
		{"underscore", "jo_hn.test", ErrCharacter, 2, "'_' at offset 2 is not allowed in a handle"},
		{"at sign", "jo@hn.test", ErrCharacter, 2, "'@' at offset 2 is not allowed in a handle"},
		{"space at the start", " john.test", ErrCharacter, 0, "' ' at offset 0 is not allowed in a handle"},
		{"space at the end", "john.test ", ErrCharacter, 9, "' ' at offset 9 is not allowed in a handle"},
		{"NUL at the start", "\x00john.test", ErrCharacter, 0, `'\x00' at offset 0 is not allowed in a handle`},
		{"NUL at the end", "john.test\x00", ErrCharacter, 9, `'\x00' at offset 9 is not allowed in a handle`},
		{"tab at the end", "john.test\t", ErrCharacter, 9, `'\t' at offset 9 is not allowed in a handle`},
		{"Unicode label", "bücher.test", ErrCharacter, 1, `'\u00fc' at offset 1 is not allowed in a handle`},
		{"Cyrillic look-alike 'о'", "jоhn.test", ErrCharacter, 1, `'\u043e' at offset 1 is not allowed in a handle`},
		{"zero-width joiner", "jo\u200dhn.test", ErrCharacter, 2, `'\u200d' at offset 2 is not allowed in a handle`},
		{"ideographic full stop look-alike", "john。test", ErrCharacter, 4, `'\u3002' at offset 4 is not allowed in a handle`},
		{"invalid UTF-8", "jo\xc3hn.test", ErrCharacter, 2, `'\xc3' at offset 2 is not allowed in a handle`},
	} {
		h, err := Parse(tc.handle)
		if tc.sentinel == nil {
			if err != nil || h.String() != tc.handle {
				t.Errorf("%s: Parse(%q) = %v, %v; want valid", tc.rule, tc.handle, h, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Parse(%q) = %v, %v; want an *Error", tc.rule, tc.handle, h, err)
			continue
		}
		if h != (Handle{}) || e.Offset != tc.offset || e.Reason != tc.reason || !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Parse(%q) = %d, %q, %v; want %d, %q, %v", tc.rule, tc.handle, e.Offset, e.Reason, e.Err, tc.offset, tc.reason, tc.sentinel)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, `invalid handle "`) || !strings.HasSuffix(msg, ": "+tc.reason) {
			t.Errorf("%s: message %q", tc.rule, msg)
		}
		if err := ValidateAt(tc.handle, 5); !errors.As(err, &e) || e.Offset != apitest.OffsetAt(tc.handle, tc.offset, 5) {
			t.Errorf("%s: ValidateAt(…, 5) = %v", tc.rule, err)
		}
	}
}

func TestMessage(t *testing.T) {
	want := `invalid handle "jo_hn.test": '_' at offset 2 is not allowed in a handle`
	if err := Validate("jo_hn.test"); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestUsability(t *testing.T) {
	for _, tc := range []struct {
		handle     string
		disallowed bool
		invalid    bool
	}{
		{"alice.bsky.social", false, false},
		{"john.test", false, false}, // .test is for development, not disallowed
		{"laptop.local", true, false},
		{"blah.arpa", true, false},
		{"SRI-NIC.ARPA", true, false},
		{"2gzyxa5ihm7nsggfxnu52rck2vv4rvmdlkiu3zzui5du4xyclen53wid.onion", true, false},
		{"a.alt", true, false},
		{"foo.example", true, false},
		{"corp.internal", true, false},
		{"foo.localhost", true, false},
		{"foo.invalid", true, false},
		{"handle.invalid", true, true},
		{"Handle.INVALID", true, true},
		{"handle.invalid.com", false, false},
		{"example.com", false, false}, // .example is disallowed, example.com is not
		{"foo.locals", false, false},
		{"foo.onio", false, false},
	} {
		h := MustParse(tc.handle)
		if h.HasDisallowedTLD() != tc.disallowed || h.IsInvalidHandle() != tc.invalid {
			t.Errorf("%q: HasDisallowedTLD %v, IsInvalidHandle %v; want %v, %v", tc.handle, h.HasDisallowedTLD(), h.IsInvalidHandle(), tc.disallowed, tc.invalid)
		}
	}
	if Invalid != MustParse("handle.invalid") || !Invalid.IsInvalidHandle() {
		t.Errorf("Invalid = %#v", Invalid)
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want, tld string }{
		{"XX.LCS.MIT.EDU", "xx.lcs.mit.edu", "EDU"},
		{"alice.bsky.social", "alice.bsky.social", "social"},
		{"Alice.Test", "alice.test", "Test"},
	} {
		h := MustParse(tc.in)
		n := h.Normalize()
		if n.String() != tc.want || n != MustParse(tc.want) || h.TLD() != tc.tld || !h.Equal(n) || !n.Equal(h) {
			t.Errorf("%q: Normalize() = %q, TLD %q", tc.in, n, h.TLD())
		}
	}
	if MustParse("a.test").Equal(MustParse("b.test")) || (Handle{}).Equal(MustParse("a.test")) {
		t.Error("Equal of different handles")
	}
	var zero Handle
	if zero.IsValid() || zero.String() != "" || zero.TLD() != "" || zero.HasDisallowedTLD() || zero.IsInvalidHandle() || zero.Normalize() != zero {
		t.Errorf("zero Handle: %#v", zero)
	}
}

func TestText(t *testing.T) {
	var d struct {
		Handle Handle `json:"handle"`
	}
	if err := json.Unmarshal([]byte(`{"handle":"alice.test"}`), &d); err != nil || d.Handle != MustParse("alice.test") {
		t.Fatalf("unmarshal: %v, %#v", err, d)
	}
	if out, err := json.Marshal(d); err != nil || string(out) != `{"handle":"alice.test"}` {
		t.Errorf("marshal: %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"handle":"alice"}`), &d); !errors.Is(err, ErrLabel) {
		t.Errorf("unmarshal of an invalid handle: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"handle":""}`), &d); err != nil || d.Handle.IsValid() {
		t.Errorf("empty: %v %#v", err, d)
	}
	b, _ := MustParse("a.test").AppendText([]byte("@"))
	if string(b) != "@a.test" {
		t.Errorf("AppendText = %q", b)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("org")
}

func TestNoAllocs(t *testing.T) {
	for _, s := range testvec.Syntax(t, "handle_syntax_valid.txt") {
		lower := s == strings.ToLower(s)
		if n := testing.AllocsPerRun(20, func() {
			h, err := Parse(s)
			if err != nil || Validate(s) != nil || ValidateAt(s, 5) != nil {
				t.Fatal(err)
			}
			_, _, _ = h.TLD(), h.HasDisallowedTLD(), h.IsInvalidHandle()
			if lower {
				_ = h.Normalize()
			}
		}); n != 0 {
			t.Errorf("%q: %v allocations", s, n)
		}
	}
}
