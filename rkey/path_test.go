package rkey

import (
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/nsid"
)

func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		rule       string
		path       string
		collection string
		key        string
		part       error // the key sentinel the error must also match, if any
		offset     int
		message    string // "" when valid
	}{
		{"TID key", "app.bsky.feed.post/3jui7kd54zh2y", "app.bsky.feed.post", "3jui7kd54zh2y", nil, 0, ""},
		{"literal key", "app.bsky.actor.profile/self", "app.bsky.actor.profile", "self", nil, 0, ""},
		{"key with colons (rule 1)", "com.example.thing/did:plc:abc", "com.example.thing", "did:plc:abc", nil, 0, ""},
		{"key '...' (rule 2)", "com.example.thing/...", "com.example.thing", "...", nil, 0, ""},
		{"512-character key", "a.b.c/" + strings.Repeat("k", 512), "a.b.c", strings.Repeat("k", 512), nil, 0, ""},
		{"no slash", "app.bsky.feed.post", "", "", nil, -1,
			`invalid repository path "app.bsky.feed.post": no '/' between the collection and the record key`},
		{"empty", "", "", "", nil, -1,
			`invalid repository path "": no '/' between the collection and the record key`},
		{"empty collection", "/self", "", "", nil, 0,
			`invalid repository path "/self": collection: empty; an NSID has at least 3 segments, as in com.example.thing`},
		{"collection not an NSID", "example.com/self", "", "", nil, -1,
			`invalid repository path "example.com/self": collection: 2 segments; an NSID has at least 3, as in com.example.thing`},
		{"collection not normalized", "App.bsky.feed.post/self", "", "", nil, 0,
			`invalid repository path "App.bsky.feed.post/self": collection: 'A' at offset 0: the NSID of a repository path is normalized, its authority in lower case`},
		{"upper case in the name is normal", "app.bsky.feed.postThread/self", "app.bsky.feed.postThread", "self", nil, 0, ""},
		{"collection with a bad character", "app.bsky.feed.p@st/self", "", "", nil, 15,
			`invalid repository path "app.bsky.feed.p@st/self": collection: '@' at offset 15 is not allowed in an NSID`},
		{"empty key", "app.bsky.feed.post/", "", "", ErrLength, 19,
			`invalid repository path "app.bsky.feed.post/": record key: empty; a record key has 1 to 512 characters`},
		{"key '.' (rule 2)", "app.bsky.feed.post/.", "", "", ErrReserved, 19,
			`invalid repository path "app.bsky.feed.post/.": record key: "." is reserved and is never a record key`},
		{"key '..' (rule 2): no path traversal", "app.bsky.feed.post/..", "", "", ErrReserved, 19,
			`invalid repository path "app.bsky.feed.post/..": record key: ".." is reserved and is never a record key`},
		{"bad key character, offset within the path", "app.bsky.feed.post/a b", "", "", ErrCharacter, 20,
			`invalid repository path "app.bsky.feed.post/a b": record key: ' ' at offset 20 is not allowed`},
		{"three segments", "app.bsky.feed.post/a/b", "", "", ErrCharacter, 20,
			`invalid repository path "app.bsky.feed.post/a/b": second '/' at offset 20; a path has exactly two segments`},
		{"trailing slash", "app.bsky.feed.post/self/", "", "", ErrCharacter, 23,
			`invalid repository path "app.bsky.feed.post/self/": second '/' at offset 23; a path has exactly two segments`},
		{"513-character key", "a.b.c/" + strings.Repeat("k", 513), "", "", ErrLength, 6 + 512,
			`invalid repository path "a.b.c/` + strings.Repeat("k", 58) + `"… (519 bytes): record key: 513 bytes long; a record key has at most 512`},
	} {
		collection, key, err := ParsePath(tc.path)
		if tc.message == "" {
			if err != nil || collection != tc.collection || key != tc.key {
				t.Errorf("%s: ParsePath(%.40q) = %q, %.40q, %v", tc.rule, tc.path, collection, key, err)
			}
			if err := ValidatePath(tc.path); err != nil {
				t.Errorf("%s: ValidatePath = %v", tc.rule, err)
			}
			continue
		}
		if err == nil || collection != "" || key != "" {
			t.Errorf("%s: ParsePath(%q) = %q, %q, %v; want an error", tc.rule, tc.path, collection, key, err)
			continue
		}
		if err.Error() != tc.message {
			t.Errorf("%s: message\n got %s\nwant %s", tc.rule, err, tc.message)
		}
		if !errors.Is(err, ErrPath) {
			t.Errorf("%s: %v does not match ErrPath", tc.rule, err)
		}
		if tc.part != nil && !(errors.Is(err, tc.part) && errors.Is(err, ErrInvalid)) {
			t.Errorf("%s: %v does not match %v and ErrInvalid", tc.rule, err, tc.part)
		}
		if tc.part == nil && errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v matches ErrInvalid, but the key is not at fault", tc.rule, err)
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset != tc.offset || e.Kind != "repository path" {
			t.Errorf("%s: got %+v, want offset %d", tc.rule, e, tc.offset)
		}
		if ValidatePath(tc.path) == nil {
			t.Errorf("%s: ValidatePath accepts it", tc.rule)
		}
	}
}

func TestParsePathNoAllocs(t *testing.T) {
	path := "app.bsky.feed.post/3jui7kd54zh2y"
	if n := testing.AllocsPerRun(100, func() {
		if _, _, err := ParsePath(path); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ParsePath allocates %v times", n)
	}
}

// A collection at fault: errors.As finds the NSID's own *nsid.Error, as through an AT URI's.
func TestParsePathNSIDError(t *testing.T) {
	_, _, err := ParsePath("app.bsky..post/self")
	var ne *nsid.Error
	if !errors.As(err, &ne) || !errors.Is(err, nsid.ErrInvalid) || !errors.Is(err, ErrPath) || ne.Offset != 9 {
		t.Errorf("%v: *nsid.Error %+v", err, ne)
	}
}
