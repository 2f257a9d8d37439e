package atident

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/internal/apitest"
	"github.com/atcore/atcore/internal/testvec"
)

func TestVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "atidentifier_syntax_valid.txt") {
		id, err := Parse(s)
		if err != nil || !id.IsValid() || id.String() != s || Validate(s) != nil {
			t.Errorf("Parse(%q) = %v, %v; want valid", s, id, err)
		}
	}
	for _, s := range testvec.Syntax(t, "atidentifier_syntax_invalid.txt") {
		if id, err := Parse(s); err == nil || id.IsValid() || Validate(s) == nil {
			t.Errorf("Parse(%.80q) accepts it; want invalid", s)
		}
	}
	// Every DID and handle vector is an at-identifier vector too, except the invalid DIDs that
	// are valid handles ("did.method.val").
	for _, f := range []struct {
		name  string
		valid bool
	}{{"did_syntax_valid.txt", true}, {"did_syntax_invalid.txt", false}, {"handle_syntax_valid.txt", true}, {"handle_syntax_invalid.txt", false}} {
		for _, s := range testvec.Syntax(t, f.name) {
			if f.name == "did_syntax_invalid.txt" && !strings.HasPrefix(s, "did:") {
				continue
			}
			if (Validate(s) == nil) != f.valid {
				t.Errorf("%s: Validate(%.80q) = %v", f.name, s, Validate(s))
			}
		}
	}
}

func TestWhich(t *testing.T) {
	for _, tc := range []struct {
		in         string
		isDID      bool
		normalized string
	}{
		{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", true, "did:plc:ewvi7nxzyoun6zhxrhs64oiz"},
		{"did:web:Example.COM", true, "did:web:Example.COM"},
		{"alice.bsky.social", false, "alice.bsky.social"},
		{"XX.LCS.MIT.EDU", false, "xx.lcs.mit.edu"},
	} {
		id := MustParse(tc.in)
		d, isDID := id.DID()
		h, isHandle := id.Handle()
		if isDID != tc.isDID || isHandle == tc.isDID || id.IsDID() != tc.isDID || id.IsHandle() == tc.isDID {
			t.Errorf("%q: DID %v, handle %v", tc.in, isDID, isHandle)
		}
		if tc.isDID && (d != did.MustParse(tc.in) || h.IsValid()) || !tc.isDID && (h != handle.MustParse(tc.in) || d.IsValid()) {
			t.Errorf("%q: parts %#v %#v", tc.in, d, h)
		}
		if id.String() != tc.in || id.Normalize().String() != tc.normalized || id.Normalize() != MustParse(tc.normalized) {
			t.Errorf("%q: String %q, Normalize %q", tc.in, id, id.Normalize())
		}
	}
	if FromDID(did.MustParse("did:m:v")) != MustParse("did:m:v") || FromHandle(handle.MustParse("a.test")) != MustParse("a.test") {
		t.Error("FromDID/FromHandle")
	}
	var zero ID
	if zero.IsValid() || zero.IsDID() || zero.IsHandle() || zero.String() != "" || zero.Normalize() != zero {
		t.Errorf("zero ID: %#v", zero)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		in      string
		part    error
		offset  int
		message string
	}{
		{"did:plc:", did.ErrEnd, 8, `invalid at-identifier "did:plc:": DID: empty method-specific identifier`},
		{"DID:plc:abc", did.ErrPrefix, 0, `invalid at-identifier "DID:plc:abc": DID: does not start with "did:" (lower case)`},
		{"did:METHOD:val", did.ErrMethod, 4, `invalid at-identifier "did:METHOD:val": DID: 'M' at offset 4: the method is lower-case letters only, then ':'`},
		{"jo_hn.test", handle.ErrCharacter, 2, `invalid at-identifier "jo_hn.test": handle: '_' at offset 2 is not allowed in a handle`},
		{"@handle", handle.ErrCharacter, 0, `invalid at-identifier "@handle": handle: '@' at offset 0 is not allowed in a handle`},
		{"blah", handle.ErrLabel, -1, `invalid at-identifier "blah": handle: a single label; a handle has at least two, as in example.com`},
		{"did:thing", did.ErrMethod, -1, `invalid at-identifier "did:thing": DID: no ':' after the method`},
		{"did:thing.test", did.ErrMethod, 9, `invalid at-identifier "did:thing.test": DID: '.' at offset 9: the method is lower-case letters only, then ':'`},
		{"", handle.ErrLength, -1, `invalid at-identifier "": handle: empty; a handle is a host name such as alice.example.com`},
		{" alice.test", handle.ErrCharacter, 0, `invalid at-identifier " alice.test": handle: ' ' at offset 0 is not allowed in a handle`},
		{"alice.test\x00", handle.ErrCharacter, 10, `invalid at-identifier "alice.test\x00": handle: '\x00' at offset 10 is not allowed in a handle`},
	} {
		_, err := Parse(tc.in)
		var e *Error
		if !errors.As(err, &e) || e.Offset != tc.offset || err.Error() != tc.message || !errors.Is(err, ErrInvalid) || !errors.Is(err, tc.part) {
			t.Errorf("Parse(%q) = %v (%+v)\nwant %s at %d", tc.in, err, e, tc.message, tc.offset)
		}
		if err := ValidateAt(tc.in, 5); !errors.As(err, &e) || e.Offset != apitest.OffsetAt(tc.in, tc.offset, 5) {
			t.Errorf("ValidateAt(%q, 5) = %v", tc.in, err)
		}
	}
	if ValidateAt("alice.test", 5) != nil {
		t.Error("ValidateAt rejects a handle")
	}
}

func TestText(t *testing.T) {
	var v struct {
		Repo ID `json:"repo"`
	}
	for _, s := range []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "alice.test"} {
		if err := json.Unmarshal([]byte(`{"repo":"`+s+`"}`), &v); err != nil || v.Repo != MustParse(s) {
			t.Fatalf("unmarshal: %v, %#v", err, v)
		}
		if out, err := json.Marshal(v); err != nil || string(out) != `{"repo":"`+s+`"}` {
			t.Errorf("marshal: %s, %v", out, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"repo":"alice"}`), &v); !errors.Is(err, ErrInvalid) {
		t.Errorf("unmarshal of an invalid identifier: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"repo":""}`), &v); err != nil || v.Repo.IsValid() {
		t.Errorf("empty: %v %#v", err, v)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("alice")
}

func TestNoAllocs(t *testing.T) {
	for _, s := range testvec.Syntax(t, "atidentifier_syntax_valid.txt") {
		if n := testing.AllocsPerRun(20, func() {
			id, err := Parse(s)
			if err != nil || ValidateAt(s, 5) != nil {
				t.Fatal(err)
			}
			_, _ = id.DID()
			_, _ = id.Handle()
			_ = id.String()
		}); n != 0 {
			t.Errorf("%q: %v allocations", s, n)
		}
	}
}
