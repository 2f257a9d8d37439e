package lexicon

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

// testSchema is a record type exercising the rules the interop vectors leave out.
const testSchema = `{"lexicon": 1, "id": "com.example.thing", "defs": {
  "main": {"type": "record", "key": "tid", "record": {"type": "object",
    "required": ["name"], "nullable": ["maybe"],
    "properties": {
      "name": {"type": "string", "maxGraphemes": 3},
      "maybe": {"type": "string"},
      "flag": {"type": "boolean", "const": true},
      "count": {"type": "integer", "minimum": 0, "default": 1},
      "kind": {"type": "string", "knownValues": ["a", "b"]},
      "exact": {"type": "string", "const": "x"},
      "crlf": {"type": "string", "minGraphemes": 2},
      "pic": {"type": "blob", "accept": ["image/*", "video/mp4"], "maxSize": 100},
      "any": {"type": "blob", "accept": ["*/*"]},
      "list": {"type": "array", "items": {"type": "ref", "ref": "#item"}, "maxLength": 3},
      "embed": {"type": "union", "refs": ["#item", "com.example.thing"]},
      "nothing": {"type": "null"},
      "link": {"type": "cid-link"},
      "when": {"type": "string", "format": "tid"},
      "at": {"type": "string", "format": "datetime"},
      "nested": {"type": "object", "properties": {"a/b": {"type": "integer"}, "c~d": {"type": "integer"}}},
      "file": {"type": "ref", "ref": "#file"},
      "free": {"type": "unknown"}
    }}},
  "file": {"type": "object", "required": ["cid", "mimeType"], "properties": {"cid": {"type": "string", "format": "cid"}, "mimeType": {"type": "string", "maxLength": 10}}},
  "item": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 9}}},
  "extra": {"type": "object", "properties": {"n": {"type": "string"}}},
  "mark": {"type": "token"}
}}`

func testCatalog(t testing.TB) *Catalog {
	t.Helper()
	return catalogOf(t, "thing.json", testSchema)
}

// catalogOf is the catalog of one schema document, doc, read from file.
func catalogOf(t testing.TB, file, doc string) *Catalog {
	t.Helper()
	s, err := ParseSchema(file, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustJSON(t testing.TB, s string) any {
	t.Helper()
	v, err := datamodel.UnmarshalJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const blobJSON = `{"$type": "blob", "ref": {"$link": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u"}, "mimeType": "%s", "size": %s}`

func blob(mime, size string) string {
	return strings.Replace(strings.Replace(blobJSON, "%s", mime, 1), "%s", size, 1)
}

func TestValidateRules(t *testing.T) {
	c := testCatalog(t)
	for _, r := range []struct {
		name, rec, path, rule string // rule "" = valid
		o                     Options
	}{
		{"minimal", `{"name": "abc"}`, "", "", Options{}},
		{"graphemes: 3 emoji of many code points", `{"name": "👩‍👩‍👦‍👦🏳️‍🌈é"}`, "", "", Options{}},
		{"graphemes: 4", `{"name": "abcd"}`, "/name", "maxGraphemes", Options{}},
		{"graphemes: CR LF is one", `{"name": "a", "crlf": "\r\n"}`, "/crlf", "minGraphemes", Options{}},
		{"graphemes: combining mark after ASCII", `{"name": "e\u0301e\u0301e\u0301"}`, "", "", Options{}},
		{"nullable null", `{"name": "a", "maybe": null}`, "", "", Options{}},
		{"required null", `{"name": null}`, "/name", "nullable", Options{}},
		{"boolean const", `{"name": "a", "flag": false}`, "/flag", "const", Options{}},
		{"integer minimum", `{"name": "a", "count": -1}`, "/count", "minimum", Options{}},
		{"knownValues are not enforced", `{"name": "a", "kind": "zzz"}`, "", "", Options{}},
		{"string const", `{"name": "a", "exact": "y"}`, "/exact", "const", Options{}},
		{"blob accept image/*", `{"name": "a", "pic": ` + blob("image/png", "5") + `}`, "", "", Options{}},
		{"blob accept case-insensitive", `{"name": "a", "pic": ` + blob("Image/PNG", "5") + `}`, "", "", Options{}},
		{"blob accept, MIME parameters dropped", `{"name": "a", "pic": ` + blob("image/png; q=1", "5") + `}`, "", "", Options{}},
		{"blob accept exact", `{"name": "a", "pic": ` + blob("video/mp4", "5") + `}`, "", "", Options{}},
		{"blob accept refused", `{"name": "a", "pic": ` + blob("video/webm", "5") + `}`, "/pic", "accept", Options{}},
		{"blob accept image/ alone", `{"name": "a", "pic": ` + blob("image/", "5") + `}`, "/pic", "accept", Options{}},
		{"blob */*", `{"name": "a", "any": ` + blob("application/x-thing", "5") + `}`, "", "", Options{}},
		{"blob maxSize", `{"name": "a", "pic": ` + blob("image/png", "101") + `}`, "/pic", "maxSize", Options{}},
		{"legacy blob strict", `{"name": "a", "pic": {"cid": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u", "mimeType": "image/png"}}`, "/pic", "blob", Options{}},
		{"legacy blob lenient", `{"name": "a", "pic": {"cid": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u", "mimeType": "image/png"}}`, "", "", Options{Mode: AllowLegacyBlob}},
		{"legacy blob lenient, accept still checked", `{"name": "a", "pic": {"cid": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u", "mimeType": "text/plain"}}`, "/pic", "accept", Options{Mode: Lenient}},
		// The legacy blob's shape, where the schema says object or unknown, is that object: the
		// decoders read it as a legacy Blob, which "can only be parsed for known Lexicons"
		// (https://atproto.com/specs/data-model#blob-type).
		{"an object of the legacy blob's shape", `{"name": "a", "file": {"cid": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u", "mimeType": "text/plain"}}`, "", "", Options{}},
		{"an object of the legacy blob's shape, checked", `{"name": "a", "file": {"cid": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u", "mimeType": "text/plain; charset=utf-8"}}`, "/file/mimeType", "maxLength", Options{}},
		{"an unknown of the legacy blob's shape", `{"name": "a", "free": {"cid": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u", "mimeType": "x"}}`, "", "", Options{}},
		{"an unknown that is a blob", `{"name": "a", "free": ` + blob("image/png", "5") + `}`, "/free", "type", Options{}},
		{"array of refs", `{"name": "a", "list": [{"n": 1}, {"n": 2}]}`, "", "", Options{}},
		{"array element", `{"name": "a", "list": [{"n": 1}, {"n": 10}]}`, "/list/1/n", "maximum", Options{}},
		{"array element required", `{"name": "a", "list": [{}]}`, "/list/0/n", "required", Options{}},
		{"array maxLength", `{"name": "a", "list": [{"n": 1}, {"n": 1}, {"n": 1}, {"n": 1}]}`, "/list", "maxLength", Options{}},
		{"union local variant", `{"name": "a", "embed": {"$type": "com.example.thing#item", "n": 1}}`, "", "", Options{}},
		{"union local variant invalid", `{"name": "a", "embed": {"$type": "com.example.thing#item", "n": 99}}`, "/embed/n", "maximum", Options{}},
		{"union record variant", `{"name": "a", "embed": {"$type": "com.example.thing", "name": "b"}}`, "", "", Options{}},
		{"union record variant invalid", `{"name": "a", "embed": {"$type": "com.example.thing", "name": "bbbb"}}`, "/embed/name", "maxGraphemes", Options{}},
		{"union #main is not the $type of main", `{"name": "a", "embed": {"$type": "com.example.thing#main", "name": "b"}}`, "/embed/$type", "$type", Options{}},
		{"open union, unlisted variant", `{"name": "a", "embed": {"$type": "com.example.other", "x": 1}}`, "", "", Options{}},
		{"open union, unlisted variant named #name", `{"name": "a", "embed": {"$type": "com.example.other#view", "x": 1}}`, "", "", Options{}},
		{"open union, a $type that is no NSID", `{"name": "a", "embed": {"$type": "hello", "x": 1}}`, "/embed/$type", "$type", Options{}},
		{"open union, a $type with an empty #name", `{"name": "a", "embed": {"$type": "com.example.x#", "x": 1}}`, "/embed/$type", "$type", Options{}},
		{"open union, a $type whose #name starts with a digit", `{"name": "a", "embed": {"$type": "com.example.x#1a", "x": 1}}`, "/embed/$type", "$type", Options{}},
		{"open union, a $type the catalog holds as a token", `{"name": "a", "embed": {"$type": "com.example.thing#mark"}}`, "/embed/$type", "$type", Options{}},
		{"open union, unlisted variant named with #main", `{"name": "a", "embed": {"$type": "com.example.other#main", "x": 1}}`, "/embed/$type", "$type", Options{}},
		{"open union, unlisted variant the catalog knows", `{"name": "a", "list": [{"n": 1, "$type": "com.example.thing#item"}], "embed": {"$type": "com.example.thing#extra", "n": 1}}`, "/embed/n", "type", Options{}},
		{"null type", `{"name": "a", "nothing": 1}`, "/nothing", "type", Options{}},
		{"cid-link", `{"name": "a", "link": {"$link": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u"}}`, "", "", Options{}},
		{"format tid", `{"name": "a", "when": "3kxnlhr3gxq23"}`, "", "", Options{}},
		{"format tid refused", `{"name": "a", "when": "3KXNLHR3GXQ23"}`, "/when", "format", Options{}},
		{"datetime strict", `{"name": "a", "at": "2024-11-07T18:20:55.004Z"}`, "", "", Options{}},
		{"datetime without zone, strict", `{"name": "a", "at": "2024-11-07T18:20:55.004"}`, "/at", "format", Options{}},
		{"datetime without zone, lenient", `{"name": "a", "at": "2024-11-07T18:20:55.004"}`, "", "", Options{Mode: AllowLenientDatetime}},
		{"datetime month 13, lenient", `{"name": "a", "at": "2024-13-07T18:20:55.004Z"}`, "/at", "format", Options{Mode: Lenient}},
		{"pointer escaping", `{"name": "a", "nested": {"a/b": "x"}}`, "/nested/a~1b", "type", Options{}},
		{"pointer escaping ~", `{"name": "a", "nested": {"c~d": "x"}}`, "/nested/c~0d", "type", Options{}},
		{"rkey matches tid", `{"name": "a"}`, "", "", Options{RKey: "3kxnlhr3gxq23"}},
		{"rkey is not a tid", `{"name": "a"}`, "", "key", Options{RKey: "self"}},
		{"collection matches", `{"name": "a"}`, "", "", Options{Collection: "com.example.thing"}},
		{"collection differs", `{"name": "a"}`, "/$type", "$type", Options{Collection: "com.example.other"}},
	} {
		var rec any = mustJSON(t, strings.Replace(r.rec, "{", `{"$type": "com.example.thing", `, 1))
		err := c.ValidateRecord(rec, r.o)
		if r.rule == "" {
			if err != nil {
				t.Errorf("%s: %v", r.name, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrValue) {
			t.Errorf("%s: %v, want an *Error matching ErrValue", r.name, err)
			continue
		}
		if e.Path != r.path || e.Rule != r.rule {
			t.Errorf("%s: %v; want at %q rule %q", r.name, err, r.path, r.rule)
		}
	}
}

func TestRecordShape(t *testing.T) {
	c := testCatalog(t)
	for _, r := range []struct {
		rec        string
		path, rule string
		sentinel   error
	}{
		{`[]`, "", "type", ErrValue},
		{`{"name": "a"}`, "/$type", "$type", ErrValue},
		{`{"$type": "com.example.nothing"}`, "", "$type", ErrNotFound},
		// A $type no record type can have is a bad value, not an unknown type, which
		// optimistic validation would let pass.
		{`{"$type": "com.example.thing#item", "n": 1}`, "/$type", "$type", ErrValue},    // an object
		{`{"$type": "com.example.thing#main", "name": 3}`, "/$type", "$type", ErrValue}, // the record, misnamed
		{`{"$type": "com.example.nothing#main"}`, "/$type", "$type", ErrValue},
		{`{"$type": "hello"}`, "/$type", "$type", ErrValue},                        // not an NSID
		{`{"$type": "Com.Example.thing", "name": 3}`, "/$type", "$type", ErrValue}, // another case
	} {
		err := c.ValidateRecord(mustJSON(t, r.rec), Options{})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, r.sentinel) || e.Path != r.path || e.Rule != r.rule {
			t.Errorf("%s: %v; want %v at %q rule %q", r.rec, err, r.sentinel, r.path, r.rule)
		}
	}
	// A main definition that is not a record: a query.
	err := realCatalog(t).ValidateRecord(mustJSON(t, `{"$type": "app.bsky.feed.getTimeline"}`), Options{})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrValue) || e.Path != "/$type" || !strings.Contains(e.Detail, "is a query, not a record type") {
		t.Errorf("a query as a record's $type: %v", err)
	}
}

// TestCheckRecordAll: every problem listed, warnings apart, each with its pointer.
// A record stored under another collection: a full check reports that, and goes on against the
// schema its $type names; ValidateRecord stops at it.
func TestCheckRecordOtherCollection(t *testing.T) {
	c := testCatalog(t)
	rec := mustJSON(t, `{"$type": "com.example.thing", "count": -2}`)
	r := c.CheckRecord(rec, Options{Collection: "com.example.other"})
	var errs []string
	for _, e := range r.Errors {
		errs = append(errs, e.Path+" "+e.Rule)
	}
	if want := "/$type $type,/count minimum,/name required"; strings.Join(errs, ",") != want {
		t.Errorf("errors %q, want %s", errs, want)
	}
	var e *Error
	if err := c.ValidateRecord(rec, Options{Collection: "com.example.other"}); !errors.As(err, &e) || e.Path != "/$type" {
		t.Errorf("ValidateRecord: %v", err)
	}
}

func TestCheckRecordAll(t *testing.T) {
	c := testCatalog(t)
	rec := mustJSON(t, `{"$type": "com.example.thing", "flag": false, "count": -2, "extra": 1,
		"list": [{"n": 10}, {"n": "x"}, {"n": 1, "more": true}],
		"embed": {"$type": "com.example.other"}}`)
	r := c.CheckRecord(rec, Options{RKey: "self"})
	var errs, warns []string
	for _, e := range r.Errors {
		errs = append(errs, e.Path+" "+e.Rule)
	}
	for _, w := range r.Warnings {
		warns = append(warns, w.Path+" "+w.Rule)
	}
	wantErrs := []string{" key", "/count minimum", "/flag const", "/list/0/n maximum", "/list/1/n type", "/name required"}
	wantWarns := []string{"/embed/$type refs", "/list/2/more properties", "/extra properties"}
	if strings.Join(errs, ",") != strings.Join(wantErrs, ",") {
		t.Errorf("errors %q\nwant %q", errs, wantErrs)
	}
	if strings.Join(warns, ",") != strings.Join(wantWarns, ",") {
		t.Errorf("warnings %q\nwant %q", warns, wantWarns)
	}
	if len(r.Warnings) > 2 {
		if got, want := r.Warnings[2].Error(), `warning at "/extra": properties: field not in the schema (ignored)`; got != want {
			t.Errorf("a warning reads %q, want %q", got, want)
		}
	}
	var es Errors
	if !errors.As(r.Err(), &es) || len(es) != len(wantErrs) || !errors.Is(r.Err(), ErrValue) {
		t.Errorf("Err() = %v", r.Err())
	}
	if err := c.ValidateRecord(rec, Options{}); err == nil || !strings.HasPrefix(err.Error(), `invalid value at "/count": minimum: -2 is below the minimum 0`) {
		t.Errorf("ValidateRecord: %v", err)
	}
}

func TestValidateValue(t *testing.T) {
	c := testCatalog(t)
	if err := c.ValidateValue("com.example.thing#item", mustJSON(t, `{"n": 3}`), Options{}); err != nil {
		t.Error(err)
	}
	err := c.ValidateValue("com.example.thing#item", mustJSON(t, `{"n": 30}`), Options{})
	var e *Error
	if !errors.As(err, &e) || e.Path != "/n" || e.Rule != "maximum" {
		t.Errorf("%v", err)
	}
	if err := c.ValidateValue("com.example.thing#nothing", mustJSON(t, `{}`), Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("%v, want ErrNotFound", err)
	}
	r := c.CheckValue("com.example.thing#item", mustJSON(t, `{"n": 30, "z": 1}`), Options{})
	if len(r.Errors) != 1 || len(r.Warnings) != 1 {
		t.Errorf("%+v", r)
	}
}

func TestGraphemeCount(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int64
	}{
		{"", 0}, {"abc", 3}, {"\r\n", 1}, {"a\r\nb", 3}, {"\r\r\n", 2}, {"e\u0301", 1},
		{"ab\u0301c", 3}, {"👩‍👩‍👦‍👦", 1}, {"🏳️‍🌈x", 2}, {"🇫🇷🇩🇪", 2}, {"\xff\xfe", 2},
		// An Indic conjunct is two clusters under Unicode 15.0, which uniseg v0.4.7 implements,
		// and one under 15.1's GB9c: doc.go says so, and this row fails when uniseg changes.
		{"क्ष", 2},
	} {
		if got := graphemeCount(c.s, -1); got != c.want {
			t.Errorf("graphemeCount(%q) = %d, want %d", c.s, got, c.want)
		}
	}
	if got := graphemeCount(strings.Repeat("é", 1000), 5); got != 5 {
		t.Errorf("limit: %d", got)
	}
}

// TestLongTypeBounded: a $type that names nothing, or the id of a schema that is not an NSID,
// is echoed in the error's Detail at most echo.Max bytes (and "…"), whatever its length: the
// record or document is untrusted, and an error must not grow with it.
func TestLongTypeBounded(t *testing.T) {
	c := testCatalog(t)
	long := strings.Repeat("x", 100_000)
	for _, o := range []Options{{}, {Collection: "com.example.thing"}} {
		err := c.ValidateRecord(mustJSON(t, `{"$type": "`+long+`"}`), o)
		var e *Error
		if !errors.As(err, &e) || len(e.Detail) > 200 || len(err.Error()) > 300 {
			t.Errorf("%+v: a %d-byte error", o, len(fmt.Sprint(err)))
		}
	}
	// An open union's variant whose $type names no Lexicon type: an error, bounded the same way.
	r := c.CheckRecord(mustJSON(t, `{"$type": "com.example.thing", "name": "a", "embed": {"$type": "`+long+`"}}`), Options{})
	if len(r.Errors) != 1 || len(r.Warnings) != 0 || len(r.Errors[0].Detail) > 200 {
		t.Errorf("unlisted variant: errors %.300v, %d warnings", r.Errors, len(r.Warnings))
	}
	_, err := ParseSchema("x.json", []byte(`{"lexicon": 1, "id": "`+long+`", "defs": {}}`))
	var e *Error
	if !errors.As(err, &e) || len(e.Detail) > 200 {
		t.Errorf("schema with a long id: a %d-byte error", len(fmt.Sprint(err)))
	}
}
