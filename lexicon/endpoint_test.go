package lexicon

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestParseParams(t *testing.T) {
	c := realCatalog(t)
	for _, r := range []struct {
		endpoint, query string
		want            map[string]any
		errs            []string // "path rule"
	}{
		{"app.bsky.feed.getAuthorFeed", "actor=alice.bsky.social&limit=10",
			map[string]any{"actor": "alice.bsky.social", "limit": int64(10), "filter": "posts_with_replies", "includePins": false}, nil},
		{"app.bsky.feed.getAuthorFeed", "actor=did:plc:z72i7hdynmk6r22z27h6tvur&includePins=true&filter=anything&other=x",
			map[string]any{"actor": "did:plc:z72i7hdynmk6r22z27h6tvur", "limit": int64(50), "filter": "anything", "includePins": true}, nil},
		{"app.bsky.feed.getAuthorFeed", "limit=0&includePins=yes", nil, []string{"/actor required", "/includePins type", "/limit minimum"}},
		{"app.bsky.feed.getAuthorFeed", "actor=-bad-&limit=%2B5", nil, []string{"/actor format", "/limit type"}},
		{"app.bsky.feed.getAuthorFeed", "actor=a.com&actor=b.com", nil, []string{"/actor type"}},
		{"app.bsky.feed.getAuthorFeed", "actor=a.com&limit=99999999999999999999", nil, []string{"/limit type"}},
		{"app.bsky.feed.getAuthorFeed", "actor=a.com&filter=%FF%FE", nil, []string{"/filter type"}},
		{"app.bsky.feed.getPosts", "uris=at://b.com/app.bsky.feed.post/3j&uris=at://b.com/a%80b", nil, []string{"/uris/1 type"}},
		{"app.bsky.feed.getPosts", "uris=at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3k&uris=at://b.com/app.bsky.feed.post/3j",
			map[string]any{"uris": []any{"at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3k", "at://b.com/app.bsky.feed.post/3j"}}, nil},
		{"app.bsky.feed.getPosts", strings.Repeat("&uris=at://b.com/app.bsky.feed.post/3j", 26)[1:], nil, []string{"/uris maxLength"}},
		{"app.bsky.actor.getSuggestions", "limit=3", map[string]any{"limit": int64(3)}, nil},
		{"com.atproto.sync.subscribeRepos", "cursor=12", map[string]any{"cursor": int64(12)}, nil},
		{"com.atproto.server.createSession", "", map[string]any{}, nil}, // a procedure without params
	} {
		q, err := url.ParseQuery(r.query)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.ParseParams(r.endpoint, q)
		if r.errs == nil {
			if err != nil || !reflect.DeepEqual(got, r.want) {
				t.Errorf("%s?%s: %#v, %v; want %#v", r.endpoint, r.query, got, err, r.want)
			}
			continue
		}
		var list []string
		var es Errors
		var e *Error
		switch {
		case errors.As(err, &es):
			for _, e := range es {
				list = append(list, e.Path+" "+e.Rule)
			}
		case errors.As(err, &e):
			list = []string{e.Path + " " + e.Rule}
		}
		if got != nil || strings.Join(list, ",") != strings.Join(r.errs, ",") || !errors.Is(err, ErrValue) {
			t.Errorf("%s?%s: %v (%q); want %q", r.endpoint, r.query, err, list, r.errs)
		}
	}
	if _, err := c.ParseParams("app.bsky.feed.post", nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("a record is no endpoint: %v", err)
	}
	q, _ := url.ParseQuery("actor=a.com&limit=1&limit=2")
	const want = `invalid value at "/limit": type: given 2 times; a parameter of type integer is given once`
	if _, err := c.ParseParams("app.bsky.feed.getAuthorFeed", q); err == nil || err.Error() != want {
		t.Errorf("a repeated parameter: %v; want %s", err, want)
	}
}

// TestNotFoundNoType checks that a name the catalog lacks, given by the caller, is not reported
// as a $type: only ValidateRecord reads the name from the value's "$type".
func TestNotFoundNoType(t *testing.T) {
	c := realCatalog(t)
	in := mustJSON(t, `{}`)
	for _, tt := range []struct {
		name string
		call func() error
	}{
		{"ParseParams", func() error { _, err := c.ParseParams("com.example.getNothing", nil); return err }},
		{"ValidateInput", func() error { return c.ValidateInput("app.bsky.feed.getTimeline", in, Options{}) }},
		{"ValidateOutput", func() error { return c.ValidateOutput("app.bsky.feed.post", in, Options{}) }},
		{"ValidateMessage", func() error { return c.ValidateMessage("com.example.subscribeNothing", "#info", in, Options{}) }},
		{"ValidateValue", func() error { return c.ValidateValue("app.bsky.feed.defs#nothing", in, Options{}) }},
	} {
		err := tt.call()
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrNotFound) || e.Rule != "" || strings.Contains(err.Error(), "$type") {
			t.Errorf("%s: %v (rule %q); want ErrNotFound naming no $type", tt.name, err, e.Rule)
		}
	}
}

func TestValidateBodies(t *testing.T) {
	c := realCatalog(t)
	in := mustJSON(t, `{"repo": "alice.bsky.social", "collection": "app.bsky.feed.post", "record": {"$type": "app.bsky.feed.post"}}`)
	if err := c.ValidateInput("com.atproto.repo.createRecord", in, Options{}); err != nil {
		t.Error(err)
	}
	bad := mustJSON(t, `{"repo": "alice.bsky.social", "collection": "not an nsid", "record": {}}`)
	err := c.ValidateInput("com.atproto.repo.createRecord", bad, Options{})
	var e *Error
	if !errors.As(err, &e) || e.Path != "/collection" || e.Rule != "format" {
		t.Errorf("input: %v", err)
	}
	out := mustJSON(t, `{"uri": "at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3k", "cid": "bafyreihc3nqam3jekojph32ubr62vdz6ev62lhhuwnbljurrx4g3laa45i"}`)
	if err := c.ValidateOutput("com.atproto.repo.createRecord", out, Options{}); err != nil {
		t.Error(err)
	}
	err = c.ValidateOutput("com.atproto.repo.createRecord", mustJSON(t, `{"uri": "at://x.com/a.b.c/d"}`), Options{})
	if !errors.As(err, &e) || e.Path != "/cid" || e.Rule != "required" {
		t.Errorf("output: %v", err)
	}
	// A query has no input; a record is no endpoint; */* input is not described: any body.
	if err := c.ValidateInput("app.bsky.feed.getTimeline", in, Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("query input: %v", err)
	}
	if err := c.ValidateOutput("app.bsky.feed.post", in, Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("record output: %v", err)
	}
	if err := c.ValidateInput("com.atproto.repo.uploadBlob", "anything", Options{}); err != nil {
		t.Errorf("uploadBlob: %v", err)
	}
}

func TestValidateMessage(t *testing.T) {
	c := realCatalog(t)
	info := mustJSON(t, `{"name": "OutdatedCursor"}`)
	if err := c.ValidateMessage("com.atproto.sync.subscribeRepos", "#info", info, Options{}); err != nil {
		t.Error(err)
	}
	err := c.ValidateMessage("com.atproto.sync.subscribeRepos", "#info", mustJSON(t, `{"name": 3}`), Options{})
	var e *Error
	if !errors.As(err, &e) || e.Path != "/name" || e.Rule != "type" {
		t.Errorf("%v", err)
	}
	if err := c.ValidateMessage("app.bsky.feed.getTimeline", "#info", info, Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("%v", err)
	}
	// A payload's $type, which it should leave out, must name the frame's type if it is there.
	withType := mustJSON(t, `{"$type": "com.atproto.sync.subscribeRepos#info", "name": "OutdatedCursor"}`)
	if err := c.ValidateMessage("com.atproto.sync.subscribeRepos", "#info", withType, Options{}); err != nil {
		t.Errorf("a payload with its own $type: %v", err)
	}
	other := mustJSON(t, `{"$type": "com.atproto.sync.subscribeRepos#commit", "name": "OutdatedCursor"}`)
	err = c.ValidateMessage("com.atproto.sync.subscribeRepos", "#info", other, Options{})
	if !errors.As(err, &e) || e.Path != "/$type" || e.Rule != "$type" {
		t.Errorf("a payload whose $type contradicts the frame: %v", err)
	}
	// The endpoint named with #main is the same endpoint: its messages are still checked.
	err = c.ValidateMessage("com.atproto.sync.subscribeRepos#main", "#info", mustJSON(t, `{"name": 3}`), Options{})
	if !errors.As(err, &e) || e.Path != "/name" || e.Rule != "type" {
		t.Errorf("endpoint#main: %v", err)
	}
}

// TestValidateMessageNotObject: "Message payloads must always be objects"
// (https://atproto.com/specs/event-stream#framing), whatever the frame's type: one that the open
// message union does not list was once accepted whatever it was (a string, an integer, null, a
// blob).
func TestValidateMessageNotObject(t *testing.T) {
	c := realCatalog(t)
	const sub = "com.atproto.sync.subscribeRepos"
	for _, v := range []any{"str", int64(3), nil, mustJSON(t, `[1]`), mustJSON(t, blob("image/png", "1"))} {
		err := c.ValidateMessage(sub, "#notListed", v, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Path != "" || e.Rule != "type" {
			t.Errorf("unlisted type, payload %v: %v; want a type error at the top", v, err)
		}
	}
	// An object of a type the open union does not list is still taken (clients ignore
	// unknown types), as before.
	if err := c.ValidateMessage(sub, "#notListed", mustJSON(t, `{"a": 1}`), Options{}); err != nil {
		t.Errorf("unlisted type, object payload: %v", err)
	}
	// A Go value that the data model writes as an object is one.
	if err := c.ValidateMessage(sub, "#notListed", map[string]string{"a": "b"}, Options{}); err != nil {
		t.Errorf("unlisted type, map[string]string payload: %v", err)
	}
	// Listed types were, and are, refused when not objects.
	if err := c.ValidateMessage(sub, "#info", "str", Options{}); err == nil {
		t.Error("listed type, string payload: accepted")
	}
}

// unlistedMessageSchema is a subscription whose open message union lists one type, #a.
const unlistedMessageSchema = `{"lexicon": 1, "id": "com.example.o", "defs": {
	  "main": {"type": "subscription", "message": {"schema": {"type": "union", "refs": ["#a"]}}},
	  "a": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}`

// A message of a type the open union does not list is not checked against a schema, but it is
// still a value of the data model: one that MarshalCBOR refuses is refused with "data-model", as
// the same member of a listed message is, and as an unlisted variant of a record's open union is.
func TestValidateMessageUnlistedDataModel(t *testing.T) {
	c := catalogOf(t, "o.json", unlistedMessageSchema)
	for _, r := range []struct {
		typ  string
		v    map[string]any
		path string
	}{
		{"#a", map[string]any{"n": int64(1), "f": 1.5}, "/f"}, // listed: refused before and after
		{"#zz", map[string]any{"f": 1.5}, "/f"},
		{"#zz", map[string]any{"f": []any{map[string]any{"x": 1.5}}}, "/f/0/x"},
		{"#zz", map[string]any{"b": map[string]any{"$type": "blob"}}, "/b"},
		{"#zz", map[string]any{"l": map[string]any{"$link": "x"}}, "/l/$link"},
	} {
		err := c.ValidateMessage("com.example.o", r.typ, r.v, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Rule != "data-model" || e.Path != r.path || !errors.Is(err, ErrValue) {
			t.Errorf("%s %v: %v; want data-model at %q", r.typ, r.v, err, r.path)
		}
	}
	if err := c.ValidateMessage("com.example.o", "#zz", map[string]any{"n": "x", "i": int32(3)}, Options{}); err != nil {
		t.Errorf("an unlisted message of data-model values: %v", err)
	}
}

// A message's $type, when there is one, must name the type of its frame, whether the union lists
// that type or not: a payload of an unlisted type that claims to be a listed variant (and is not
// one) contradicts its header as much as one of a listed type does.
func TestValidateMessageUnlistedTypeMismatch(t *testing.T) {
	c := catalogOf(t, "o.json", unlistedMessageSchema)
	for _, r := range []struct {
		typ string
		v   map[string]any
	}{
		{"#a", map[string]any{"$type": "com.example.o#zz", "n": int64(1)}}, // refused before and after
		{"#zz", map[string]any{"$type": "com.example.o#a", "n": "x"}},
		{"#zz", map[string]any{"$type": "com.example.o#other"}},
	} {
		err := c.ValidateMessage("com.example.o", r.typ, r.v, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Rule != "$type" || e.Path != "/$type" || !errors.Is(err, ErrValue) {
			t.Errorf("%s %v: %v; want $type at /$type", r.typ, r.v, err)
		}
	}
	for _, v := range []map[string]any{{"$type": "com.example.o#zz", "n": "x"}, {"n": "x"}} {
		if err := c.ValidateMessage("com.example.o", "#zz", v, Options{}); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
}
