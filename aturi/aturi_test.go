package aturi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/internal/testvec"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
)

func TestVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "aturi_syntax_valid.txt") {
		u, err := Parse(s)
		if err != nil || !u.IsValid() || u.String() != s || Validate(s) != nil {
			t.Errorf("Parse(%.80q) = %v, %v; want valid", s, u, err)
		}
	}
	for _, s := range testvec.Syntax(t, "aturi_syntax_invalid.txt") {
		if u, err := Parse(s); err == nil || u.IsValid() || Validate(s) == nil {
			t.Errorf("Parse(%.80q) accepts it; want invalid", s)
		}
	}
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

func TestRules(t *testing.T) {
	const plc = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
	for _, tc := range []struct {
		rule     string
		uri      string
		sentinel error // nil: valid
		part     error // a sentinel of the part's package the error must match too
		offset   int
		reason   string
	}{
		{"DID authority", "at://" + plc, nil, nil, 0, ""},
		{"handle authority", "at://alice.bsky.social", nil, nil, 0, ""},
		{"collection", "at://" + plc + "/app.bsky.feed.post", nil, nil, 0, ""},
		{"record", "at://" + plc + "/app.bsky.feed.post/3k5nobkf2w72g", nil, nil, 0, ""},
		{"percent inside a DID", "at://did:web:localhost%3A1234/a.b.c/k", nil, nil, 0, ""},
		{"upper-case handle", "at://Alice.Bsky.Social/App.Bsky.feed.post", nil, nil, 0, ""},
		{"512-character key", "at://did:plc:asdf123/com.atproto.feed.post/" + rep("o", 512), nil, nil, 0, ""},
		{"longest strict form", "at://did:m:" + rep("a", 2042) + "/" + "com." + rep(rep("a", 62)+".", 4) + rep("a", 59) + ".b/" + rep("k", 512), nil, nil, 0, ""},
		{"over 8 KiB", "at://did:plc:asdf123/com.atproto.feed.post/" + rep("o", 8200), ErrLength, nil, 8192, "8243 bytes long; an AT URI has at most 8192"},
		{"upper-case scheme", "AT://did:plc:asdf123", ErrScheme, nil, 0, `does not start with "at://" (lower case)`},
		{"no scheme", "did:plc:asdf123", ErrScheme, nil, 0, `does not start with "at://" (lower case)`},
		{"space first", " at://did:plc:asdf123", ErrScheme, nil, 0, `does not start with "at://" (lower case)`},
		{"NUL first", "\x00at://did:plc:asdf123", ErrScheme, nil, 0, `does not start with "at://" (lower case)`},
		{"one slash", "at:/did:plc:asdf123", ErrScheme, nil, 0, `does not start with "at://" (lower case)`},
		{"empty", "", ErrLength, nil, -1, "empty; an AT URI looks like at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g"},
		{"fragment", "at://did:plc:asdf123/com.atproto.feed.post#/frag", ErrQuery, nil, 42, "'#' at offset 42: an at-uri has no query or fragment part"},
		{"empty fragment", "at://did:plc:asdf123#", ErrQuery, nil, 20, "'#' at offset 20: an at-uri has no query or fragment part"},
		{"query", "at://did:plc:asdf123/a.b.c?x=1", ErrQuery, nil, 26, "'?' at offset 26: an at-uri has no query or fragment part"},
		{"empty authority", "at://", ErrAuthority, handle.ErrLength, 5, "authority: handle: empty; a handle is a host name such as alice.example.com"},
		{"empty authority before a path", "at:///did:plc:asdf123", ErrAuthority, handle.ErrLength, 5, "authority: handle: empty; a handle is a host name such as alice.example.com"},
		{"upper-case DID prefix", "at://DID:plc:asdf123", ErrAuthority, did.ErrPrefix, 5, `authority: DID: does not start with "did:" (lower case)`},
		{"empty DID identifier", "at://did:plc:", ErrAuthority, did.ErrEnd, 13, "authority: DID: empty method-specific identifier"},
		{"userinfo", "at://user:pass@foo.com", ErrAuthority, handle.ErrCharacter, 9, "authority: handle: ':' at offset 9 is not allowed in a handle"},
		{"lone '@'", "at://@alice.test", ErrAuthority, handle.ErrCharacter, 5, "authority: handle: '@' at offset 5 is not allowed in a handle"},
		{"port", "at://example.com:3000", ErrAuthority, handle.ErrCharacter, 16, "authority: handle: ':' at offset 16 is not allowed in a handle"},
		{"bare name", "at://computer", ErrAuthority, handle.ErrLabel, -1, "authority: handle: a single label; a handle has at least two, as in example.com"},
		{"space at the end of the authority", "at://did:plc:asdf123 ", ErrAuthority, did.ErrCharacter, 20, "authority: DID: ' ' at offset 20 is not allowed in a DID"},
		{"look-alike in the handle", "at://аlice.test", ErrAuthority, handle.ErrCharacter, 5, `authority: handle: '\u0430' at offset 5 is not allowed in a handle`},
		{"trailing slash after the authority", "at://did:plc:asdf123/", ErrPath, nil, 20, "trailing '/' at offset 20"},
		{"double slash", "at://user.bsky.social//com.atproto.feed.post", ErrPath, nil, 22, "empty path segment at offset 22"},
		{"trailing slash after the collection", "at://did:plc:asdf123/com.atproto.feed.post/", ErrPath, nil, 42, "trailing '/' at offset 42"},
		{"trailing slash after the key", "at://did:plc:asdf123/com.atproto.feed.post/record/", ErrPath, nil, 49, "'/' at offset 49: an at-uri path has at most two segments, collection and record key"},
		{"three segments", "at://did:plc:asdf123/com.atproto.feed.post/a/b", ErrPath, nil, 44, "'/' at offset 44: an at-uri path has at most two segments, collection and record key"},
		{"collection not an NSID", "at://did:plc:asdf123/short/stuff", ErrCollection, nsid.ErrSegment, -1, "collection: one segment; an NSID has at least 3, as in com.example.thing"},
		{"bad collection character, offset in the URI", "at://did:plc:asdf123/com.atproto.feed.p@st", ErrCollection, nsid.ErrCharacter, 39, "collection: '@' at offset 39 is not allowed in an NSID"},
		{"percent-encoded collection", "at://did:plc:asdf123/com.atproto.feed.p%73t", ErrCollection, nsid.ErrCharacter, 39, "collection: '%' at offset 39 is not allowed in an NSID"},
		{"key '.'", "at://did:plc:asdf123/com.atproto.feed.post/.", ErrRecordKey, rkey.ErrReserved, 43, `record key: "." is reserved and is never a record key`},
		{"key '..'", "at://did:plc:asdf123/com.atproto.feed.post/..", ErrRecordKey, rkey.ErrReserved, 43, `record key: ".." is reserved and is never a record key`},
		{"percent-encoded key", "at://did:plc:asdf123/com.atproto.feed.post/%30", ErrRecordKey, rkey.ErrCharacter, 43, "record key: '%' at offset 43 is not allowed"},
		{"513-character key", "at://did:plc:asdf123/com.atproto.feed.post/" + rep("o", 513), ErrRecordKey, rkey.ErrLength, 43 + 512, "record key: 513 bytes long; a record key has at most 512"},
		{"NUL at the end", "at://did:plc:asdf123/com.atproto.feed.post/k\x00", ErrRecordKey, rkey.ErrCharacter, 44, `record key: '\x00' at offset 44 is not allowed`},
	} {
		u, err := Parse(tc.uri)
		if tc.sentinel == nil {
			if err != nil || u.String() != tc.uri {
				t.Errorf("%s: Parse(%.80q) = %v, %v; want valid", tc.rule, tc.uri, u, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Parse(%q) = %v, %v; want an *Error", tc.rule, tc.uri, u, err)
			continue
		}
		if u != (URI{}) || e.Offset != tc.offset || e.Reason != tc.reason || !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Parse(%q) = %d, %q, %v; want %d, %q, %v", tc.rule, tc.uri, e.Offset, e.Reason, e.Err, tc.offset, tc.reason, tc.sentinel)
		}
		if tc.part != nil && !errors.Is(err, tc.part) {
			t.Errorf("%s: %v does not match %v", tc.rule, err, tc.part)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, `invalid AT URI "`) || !strings.HasSuffix(msg, ": "+tc.reason) {
			t.Errorf("%s: message %q", tc.rule, msg)
		}
	}
}

func TestMessage(t *testing.T) {
	want := `invalid AT URI "at://did:plc:asdf123/com.atproto.feed.p@st": collection: '@' at offset 39 is not allowed in an NSID`
	if err := Validate("at://did:plc:asdf123/com.atproto.feed.p@st"); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestParts(t *testing.T) {
	for _, tc := range []struct {
		in, authority, collection, key, normalized string
	}{
		{"at://did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "", "", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz"},
		{"at://Alice.Test", "Alice.Test", "", "", "at://alice.test"},
		{"at://alice.test/App.Bsky.Feed.postV2", "alice.test", "App.Bsky.Feed.postV2", "", "at://alice.test/app.bsky.feed.postV2"},
		{"at://did:web:Example.com/a.b.c/SelF", "did:web:Example.com", "a.b.c", "SelF", "at://did:web:Example.com/a.b.c/SelF"},
		{"at://XX.LCS.MIT.EDU/COM.example.Thing/3k5nobkf2w72g", "XX.LCS.MIT.EDU", "COM.example.Thing", "3k5nobkf2w72g", "at://xx.lcs.mit.edu/com.example.Thing/3k5nobkf2w72g"},
	} {
		u := MustParse(tc.in)
		if u.Authority().String() != tc.authority || u.Collection().String() != tc.collection || u.RecordKey() != tc.key {
			t.Errorf("%q: %q %q %q", tc.in, u.Authority(), u.Collection(), u.RecordKey())
		}
		if n := u.Normalize(); n.String() != tc.normalized || n != MustParse(tc.normalized) || n.Normalize() != n {
			t.Errorf("%q: Normalize() = %q", tc.in, n)
		}
		if tc.collection == "" && u.Collection().IsValid() {
			t.Errorf("%q: collection %#v", tc.in, u.Collection())
		}
	}
	var zero URI
	if zero.IsValid() || zero.String() != "" || zero.Authority().IsValid() || zero.Collection().IsValid() || zero.RecordKey() != "" {
		t.Errorf("zero URI: %#v", zero)
	}
	a, b := MustParse("at://a.test"), MustParse("at://b.test")
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 || zero.Compare(a) != -1 {
		t.Error("Compare does not order by string")
	}
}

func TestNew(t *testing.T) {
	d := atident.MustParse("did:plc:ewvi7nxzyoun6zhxrhs64oiz")
	post := nsid.MustParse("app.bsky.feed.post")
	for _, tc := range []struct {
		auth     atident.ID
		coll     nsid.NSID
		key      string
		want     string
		sentinel error
	}{
		{d, nsid.NSID{}, "", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz", nil},
		{d, post, "", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post", nil},
		{d, post, "3k5nobkf2w72g", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g", nil},
		{atident.MustParse("Alice.Test"), post, "self", "at://Alice.Test/app.bsky.feed.post/self", nil},
		{atident.ID{}, post, "self", "", ErrAuthority},
		{d, nsid.NSID{}, "self", "", ErrPath},
		{d, post, "a/b", "", ErrPath},
		{d, post, "..", "", ErrRecordKey},
		{d, post, "a b", "", ErrRecordKey},
	} {
		u, err := New(tc.auth, tc.coll, tc.key)
		if tc.sentinel == nil {
			if err != nil || u.String() != tc.want || u != MustParse(tc.want) {
				t.Errorf("New(%v, %v, %q) = %v, %v; want %s", tc.auth, tc.coll, tc.key, u, err, tc.want)
			}
			continue
		}
		if !errors.Is(err, tc.sentinel) || u.IsValid() {
			t.Errorf("New(%v, %v, %q) = %v, %v; want %v", tc.auth, tc.coll, tc.key, u, err, tc.sentinel)
		}
	}
}

func TestText(t *testing.T) {
	const s = "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g"
	var ref struct {
		URI URI    `json:"uri"`
		CID string `json:"cid"`
	}
	if err := json.Unmarshal([]byte(`{"uri":"`+s+`","cid":"x"}`), &ref); err != nil || ref.URI != MustParse(s) {
		t.Fatalf("unmarshal: %v, %#v", err, ref)
	}
	if out, err := json.Marshal(ref); err != nil || string(out) != `{"uri":"`+s+`","cid":"x"}` {
		t.Errorf("marshal: %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"uri":"at://x"}`), &ref); !errors.Is(err, ErrAuthority) {
		t.Errorf("unmarshal of an invalid URI: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"uri":""}`), &ref); err != nil || ref.URI.IsValid() {
		t.Errorf("empty: %v, %#v", err, ref)
	}
	b, _ := MustParse("at://a.test").AppendText([]byte("<"))
	if string(b) != "<at://a.test" {
		t.Errorf("AppendText = %q", b)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("at://a.test/")
}

func TestNoAllocs(t *testing.T) {
	for _, s := range testvec.Syntax(t, "aturi_syntax_valid.txt") {
		lower := MustParse(s).Normalize() == MustParse(s)
		if n := testing.AllocsPerRun(20, func() {
			u, err := Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			_, _, _ = u.Authority(), u.Collection(), u.RecordKey()
			if lower {
				_ = u.Normalize()
			}
		}); n != 0 {
			t.Errorf("%.60q: %v allocations", s, n)
		}
	}
}
