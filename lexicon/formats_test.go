package lexicon

import (
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

func TestURIFormat(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"https://example.com", true},
		{"a:b", true},
		{"a+b.c-d:x", true},
		{"h:", false},                // nothing after the colon
		{":x", false},                // no scheme
		{"1a:x", false},              // scheme starts with a letter
		{"a_b:x", false},             // '_' is not a scheme character
		{"https://a b", false},       // space
		{"https://é.example", false}, // non-ASCII: an IRI, not a URI
		{"https://a\x7f", false},     // DEL
	} {
		if got := checkURI(c.in) == nil; got != c.ok {
			t.Errorf("checkURI(%q) ok = %v, want %v", c.in, got, c.ok)
		}
	}
}
