package lexicon

import (
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// TestFormatVectors runs the syntax vectors of every checked format through the table.
func TestFormatVectors(t *testing.T) {
	files := map[string]string{
		"nsid": "nsid", "cid": "cid", "record-key": "recordkey", "tid": "tid", "uri": "uri",
		"did": "did", "handle": "handle", "at-identifier": "atidentifier", "at-uri": "aturi",
		"datetime": "datetime", "language": "language",
	}
	if len(formats) != len(files) {
		t.Errorf("%d formats in the table, %d vector files: every format of the spec has both", len(formats), len(files))
	}
	for _, f := range formats {
		base, ok := files[f.name]
		if !ok {
			t.Errorf("format %q has no vector file", f.name)
			continue
		}
		valid := testvec.Syntax(t, base+"_syntax_valid.txt")
		invalid := testvec.Syntax(t, base+"_syntax_invalid.txt")
		if len(valid) == 0 || len(invalid) == 0 {
			t.Fatalf("%s: no vectors", base)
		}
		for _, s := range valid {
			if err := f.check(s); err != nil {
				t.Errorf("%s %q: %v, want valid", f.name, s, err)
			}
		}
		if base == "datetime" || base == "language" {
			// Syntax right, value wrong (month 00, before year 0; a repeated variant or
			// singleton): a Lexicon datetime must be a real instant, and RFC 5646 makes the
			// repeats invalid tags.
			invalid = append(invalid, testvec.Syntax(t, base+"_parse_invalid.txt")...)
		}
		for _, s := range invalid {
			if f.check(s) == nil {
				t.Errorf("%s %q: valid, want invalid", f.name, s)
			}
		}
	}
}

// TestURIFormat: RFC 3986's generic syntax (https://atproto.com/specs/lexicon#uri: "following
// the generic RFC-3986 on URIs"), and the looser check of AllowLooseURI.
func TestURIFormat(t *testing.T) {
	for _, c := range []struct {
		in           string
		strict, lose bool // accepted strictly, accepted under AllowLooseURI
	}{
		{"https://example.com", true, true},
		{"a:b", true, true},
		{"a+b.c-d:x", true, true},
		{"https://user@[::1]:8080/p/a-t_h.~!$&'()*+,;=?q=1&r#frag/?:@", true, true},
		{"https://example.com/%C3%A9%2f", true, true}, // escapes, either case
		{"mailto:someone@example.com", true, true},
		{"h:", false, false},                // nothing after the colon
		{":x", false, false},                // no scheme
		{"1a:x", false, false},              // scheme starts with a letter
		{"a_b:x", false, false},             // '_' is not a scheme character
		{"https://a b", false, false},       // space
		{"https://é.example", false, false}, // non-ASCII: an IRI, not a URI
		{"https://a\x7f", false, false},     // DEL
		// Characters RFC 3986 leaves out (§2), a '%' without two hex digits (§2.1), a second
		// '#' (§3.5: the fragment holds none).
		{"https://example.com/<script>", false, true},
		{`https://example.com/a"b`, false, true},
		{"https://example.com/{x}|^`\\", false, true},
		{"https://example.com/%zz", false, true},
		{"https://example.com/%4", false, true},
		{"https://example.com/%", false, true},
		{"https://example.com/#a#b", false, true},
	} {
		if got := checkURI(c.in) == nil; got != c.strict {
			t.Errorf("checkURI(%q) ok = %v, want %v", c.in, got, c.strict)
		}
		f := formatByName("uri")
		if got := f.checkMode(c.in, AllowLooseURI) == nil; got != c.lose {
			t.Errorf("under AllowLooseURI, %q ok = %v, want %v", c.in, got, c.lose)
		}
		if got := f.checkMode(c.in, Lenient) == nil; got != c.lose {
			t.Errorf("under Lenient, %q ok = %v, want %v", c.in, got, c.lose)
		}
	}
}

// TestURIFormatErrors: a refused uri says what is wrong and where, as the other formats' errors
// do, strictly and under AllowLooseURI.
func TestURIFormatErrors(t *testing.T) {
	f := formatByName("uri")
	for _, c := range []struct {
		in   string
		mode Mode
		want string
	}{
		{"https://de.wikipedia.org/wiki/K\u00f6ln", 0, `invalid URI "https://de.wikipedia.org/wiki/K\u00f6ln": '\u00f6' at offset 31 is not allowed`},
		{"https://de.wikipedia.org/wiki/K\u00f6ln", AllowLooseURI, `'\u00f6' at offset 31 is not allowed`},
		{"https://example.com/a b", 0, `' ' at offset 21 is not allowed`},
		{"https://example.com/{x}", 0, `'{' at offset 20 is not allowed`},
		{"https://example.com/%4", 0, `'%' at offset 20 is not followed by two hex digits`},
		{"https://example.com/#a#b", 0, `a second '#' at offset 22`},
		{"a_b:x", 0, `'_' at offset 1 is not allowed in a scheme`},
		{"1a:x", AllowLooseURI, `'1' at offset 0: a URI starts with a scheme, whose first character is a letter`},
		{"h:", 0, `nothing after the scheme's ':'`},
		{"https", 0, `no ':' after the scheme`},
		{"https://example.com/" + strings.Repeat("x", maxURILen), 0, `8212 bytes; a uri has at most 8192`},
	} {
		err := f.checkMode(c.in, c.mode)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q (mode %d): %v; want it to say %s", c.in, c.mode, err, c.want)
		}
	}
}
