package nsid

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/apitest"
	"github.com/atcore/atcore/internal/testvec"
)

func TestVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "nsid_syntax_valid.txt") {
		n, err := Parse(s)
		if err != nil || !n.IsValid() || n.String() != s || Validate(s) != nil {
			t.Errorf("Parse(%q) = %v, %v; want valid", s, n, err)
		}
	}
	for _, s := range testvec.Syntax(t, "nsid_syntax_invalid.txt") {
		if n, err := Parse(s); err == nil || n.IsValid() || Validate(s) == nil {
			t.Errorf("Parse(%q) accepts it; want invalid", s)
		}
	}
}

// rep returns s repeated n times.
func rep(s string, n int) string { return strings.Repeat(s, n) }

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		nsid     string
		sentinel error // nil: valid
		offset   int
		reason   string
	}{
		{"three segments", "app.bsky.feed", nil, 0, ""},
		{"shortest", "a.b.c", nil, 0, ""},
		{"digit-led inner segment", "org.4chan.lex.getThing", nil, 0, ""},
		{"all-digit inner segment", "cn.8.lex.stuff", nil, 0, ""},
		{"hyphen inside authority segment", "xn--ls8h.example.foo", nil, 0, ""},
		{"punycode authority labels", "xn--fiqs8s.xn--fiqa61au8b7zsevnm8ak20mc4a87e.record", nil, 0, ""},
		{"name is case-sensitive letters and digits", "com.example.fooBarV2", nil, 0, ""},
		{"upper case anywhere", "COM.EXAMPLE.FOO", nil, 0, ""},
		{"317 characters", "com." + rep(rep("a", 62)+".", 4) + rep("a", 59) + ".b", nil, 0, ""},
		{"318 characters", "com." + rep(rep("a", 62)+".", 4) + rep("a", 60) + ".b", ErrLength, 317, "NSID is 318 bytes long; at most 317 are allowed"},
		{"authority over 253 (vectors win over the text)", "com." + rep("middle.", 40) + "foo", nil, 0, ""},
		{"63-character segment", "com." + rep("a", 63) + ".foo", nil, 0, ""},
		{"64-character segment", "com." + rep("a", 64) + ".foo", ErrSegment, 67, "segment at offset 4 is 64 characters long; at most 63 are allowed"},
		{"63-character name", "com.example." + rep("a", 63), nil, 0, ""},
		{"64-character name", "com.example." + rep("a", 64), ErrSegment, 75, "segment at offset 12 is 64 characters long; at most 63 are allowed"},
		{"64-character top-level domain", rep("a", 64) + ".b.c", ErrSegment, 63, "segment at offset 0 is 64 characters long; at most 63 are allowed"},
		{"empty", "", ErrLength, -1, "empty; an NSID has at least 3 segments, as in com.example.thing"},
		{"two segments", "example.com", ErrSegment, -1, "2 segments; an NSID has at least 3, as in com.example.thing"},
		{"one segment", "com", ErrSegment, -1, "one segment; an NSID has at least 3, as in com.example.thing"},
		{"empty middle segment", "one.two..three", ErrSegment, 8, "empty segment at offset 8"},
		{"leading dot", ".one.two.three", ErrSegment, 0, "empty segment at offset 0"},
		{"trailing dot", "a.b.c.", ErrSegment, 6, "empty segment at offset 6"},
		{"glob is a pattern, not an NSID", "com.example.*", ErrCharacter, 12, "'*' at offset 12 is not allowed in an NSID"},
		{"character not allowed", "com.atproto.feed.p_st", ErrCharacter, 18, "'_' at offset 18 is not allowed in an NSID"},
		{"space at the end", "one.two.three ", ErrCharacter, 13, "' ' at offset 13 is not allowed in an NSID"},
		{"space at the start", " one.two.three", ErrCharacter, 0, "' ' at offset 0 is not allowed in an NSID"},
		{"NUL at the end", "one.two.three\x00", ErrCharacter, 13, `'\x00' at offset 13 is not allowed in an NSID`},
		{"NUL at the start", "\x00one.two.three", ErrCharacter, 0, `'\x00' at offset 0 is not allowed in an NSID`},
		{"newline at the end", "one.two.three\n", ErrCharacter, 13, `'\n' at offset 13 is not allowed in an NSID`},
		{"non-ASCII", "com.exa💩ple.thing", ErrCharacter, 7, `'\U0001f4a9' at offset 7 is not allowed in an NSID`},
		{"Cyrillic look-alike 'а'", "com.exаmple.thing", ErrCharacter, 6, `'\u0430' at offset 6 is not allowed in an NSID`},
		{"fullwidth dot look-alike", "com.example．thing", ErrCharacter, 11, `'\uff0e' at offset 11 is not allowed in an NSID`},
		{"invalid UTF-8", "com.ex\xffample.thing", ErrCharacter, 6, `'\xff' at offset 6 is not allowed in an NSID`},
		{"first segment starts with a digit", "0two.example.foo", ErrPosition, 0, "first segment starts with a digit at offset 0"},
		{"authority segment starts with hyphen", "com.-example.foo", ErrPosition, 4, "segment at offset 4 starts with '-'"},
		{"authority segment ends with hyphen", "com.example-.foo", ErrPosition, 11, "segment at offset 4 ends with '-'"},
		{"top-level domain starts with hyphen", "-com.example.foo", ErrPosition, 0, "segment at offset 0 starts with '-'"},
		{"name starts with a digit", "com.example.2foo", ErrPosition, 12, "name segment at offset 12 starts with a digit"},
		{"name is a digit", "com.example.3", ErrPosition, 12, "name segment at offset 12 starts with a digit"},
		{"name has a hyphen", "a-0.b-1.c-3", ErrPosition, 9, "'-' at offset 9 is not allowed in the name segment (the last one)"},
	} {
		n, err := Parse(tc.nsid)
		if tc.sentinel == nil {
			if err != nil || n.String() != tc.nsid {
				t.Errorf("%s: Parse(%q) = %v, %v; want valid", tc.rule, tc.nsid, n, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Parse(%q) = %v, %v; want an *Error", tc.rule, tc.nsid, n, err)
			continue
		}
		if n != (NSID{}) || e.Offset != tc.offset || e.Reason != tc.reason || !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Parse(%q) = %d, %q, %v; want %d, %q, %v", tc.rule, tc.nsid, e.Offset, e.Reason, e.Err, tc.offset, tc.reason, tc.sentinel)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, `invalid NSID "`) || !strings.HasSuffix(msg, `: `+tc.reason) {
			t.Errorf("%s: message %q", tc.rule, err)
		}
		// The same problem found at offset 10 of a longer input.
		if err := ValidateAt(tc.nsid, 10); !errors.As(err, &e) || e.Offset != apitest.OffsetAt(tc.nsid, tc.offset, 10) {
			t.Errorf("%s: ValidateAt(…, 10) = %v", tc.rule, err)
		}
	}
}

func TestMessageQuoting(t *testing.T) {
	err := Validate("com.exa💩ple.thing")
	want := `invalid NSID "com.exa\U0001f4a9ple.thing": '\U0001f4a9' at offset 7 is not allowed in an NSID`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	long := rep("a", 400)
	if err := Validate(long); err == nil || !strings.Contains(err.Error(), "… (400 bytes)") {
		t.Errorf("long input: %v", err)
	}
}

func TestParts(t *testing.T) {
	for _, tc := range []struct {
		in, authority, name, normalized string
	}{
		{"app.bsky.feed.post", "app.bsky.feed", "post", "app.bsky.feed.post"},
		{"com.example.fooBar", "com.example", "fooBar", "com.example.fooBar"},
		{"COM.Example.fooBar", "COM.Example", "fooBar", "com.example.fooBar"},
		{"one.two.three.four-and.FiVe", "one.two.three.four-and", "FiVe", "one.two.three.four-and.FiVe"},
		{"a.b.c", "a.b", "c", "a.b.c"},
	} {
		n := MustParse(tc.in)
		if n.Authority() != tc.authority || n.Name() != tc.name || n.Normalize().String() != tc.normalized {
			t.Errorf("%q: authority %q, name %q, normalized %q", tc.in, n.Authority(), n.Name(), n.Normalize())
		}
		if nn := n.Normalize(); nn.Authority() != strings.ToLower(tc.authority) || nn.Name() != tc.name || nn != MustParse(tc.normalized) {
			t.Errorf("%q: Normalize() = %#v", tc.in, nn)
		}
	}
	var zero NSID
	if zero.IsValid() || zero.String() != "" || zero.Authority() != "" || zero.Name() != "" || zero.Normalize() != zero {
		t.Errorf("zero NSID: %#v", zero)
	}
}

func TestCompare(t *testing.T) {
	a, b := MustParse("app.bsky.feed.like"), MustParse("app.bsky.feed.post")
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 || (NSID{}).Compare(a) != -1 {
		t.Error("Compare does not order by string")
	}
}

func TestText(t *testing.T) {
	type doc struct {
		Collection NSID `json:"collection"`
	}
	var d doc
	if err := json.Unmarshal([]byte(`{"collection":"app.bsky.feed.post"}`), &d); err != nil || d.Collection != MustParse("app.bsky.feed.post") {
		t.Fatalf("unmarshal: %v, %#v", err, d)
	}
	out, err := json.Marshal(d)
	if err != nil || string(out) != `{"collection":"app.bsky.feed.post"}` {
		t.Errorf("marshal: %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"collection":"app.bsky"}`), &d); !errors.Is(err, ErrSegment) {
		t.Errorf("unmarshal of an invalid NSID: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"collection":""}`), &d); err != nil || d.Collection.IsValid() {
		t.Errorf("empty text: %v, %#v", err, d)
	}
	b, _ := MustParse("a.b.c").AppendText([]byte("x:"))
	if string(b) != "x:a.b.c" {
		t.Errorf("AppendText = %q", b)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("example.com")
}

func TestNoAllocs(t *testing.T) {
	for _, s := range testvec.Syntax(t, "nsid_syntax_valid.txt") {
		// Normalize allocates the lower-cased copy when there is upper case to lower.
		lower := MustParse(s).Normalize().String() == s
		if n := testing.AllocsPerRun(20, func() {
			if _, err := Parse(s); err != nil {
				t.Fatal(err)
			}
			if Validate(s) != nil || ValidateAt(s, 3) != nil {
				t.Fatal("invalid")
			}
			p := MustParse(s)
			_, _ = p.Authority(), p.Name()
			if lower {
				_ = p.Normalize()
			}
		}); n != 0 {
			t.Errorf("%q: %v allocations", s, n)
		}
	}
}
