package lexicon

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doc wraps definitions in a document with the id com.example.test.
func doc(defs string) []byte {
	return []byte(`{"lexicon": 1, "id": "com.example.test", "defs": {` + defs + `}}`)
}

// TestSchemaRefused: each row breaks one rule of https://atproto.com/specs/lexicon and must be
// refused at that JSON Pointer with that rule, at parse time or when the catalog is built.
func TestSchemaRefused(t *testing.T) {
	for _, c := range []struct {
		rule, path, defs string
	}{
		{"defs", "/defs", ``},
		{"type", "/defs/a/type", `"a": {"type": "strong"}`},
		{"type", "/defs/a/type", `"a": {"type": "union", "refs": []}`},
		{"type", "/defs/a/type", `"a": {"type": "params", "properties": {}}`},
		{"main", "/defs/a/type", `"a": {"type": "query"}`},
		{"type", "/defs/a/properties/t/type", `"a": {"type": "object", "properties": {"t": {"type": "token"}}}`},
		{"type", "/defs/a/properties/q/type", `"a": {"type": "object", "properties": {"q": {"type": "query"}}}`},
		{"properties", "/defs/a", `"a": {"type": "object"}`},
		{"required", "/defs/a/required/0", `"a": {"type": "object", "properties": {}, "required": ["x"]}`},
		{"nullable", "/defs/a/nullable/0", `"a": {"type": "object", "properties": {}, "nullable": ["x"]}`},
		{"items", "/defs/a", `"a": {"type": "array"}`},
		{"maxLength", "/defs/a/maxLength", `"a": {"type": "string", "minLength": 3, "maxLength": 2}`},
		{"minLength", "/defs/a/minLength", `"a": {"type": "string", "minLength": -1}`},
		{"maxGraphemes", "/defs/a/maxGraphemes", `"a": {"type": "string", "maxGraphemes": 1.5}`},
		{"maximum", "/defs/a/maximum", `"a": {"type": "integer", "minimum": 3, "maximum": 2}`},
		{"enum", "/defs/a/enum/1", `"a": {"type": "integer", "enum": [1, "2"]}`},
		{"format", "/defs/a/format", `"a": {"type": "string", "format": "email"}`},
		{"default", "/defs/a/default", `"a": {"type": "string", "const": "x", "default": "x"}`},
		{"const", "/defs/a/const", `"a": {"type": "boolean", "const": "true"}`},
		{"default", "/defs/a/default", `"a": {"type": "boolean", "const": true, "default": true}`},
		{"default", "/defs/a/default", `"a": {"type": "integer", "const": 1, "default": 1}`},
		{"default", "/defs/a/default", `"a": {"type": "integer", "maximum": 5, "default": 6}`},
		{"const", "/defs/a/const", `"a": {"type": "integer", "enum": [1, 2], "const": 3}`},
		{"default", "/defs/a/default", `"a": {"type": "string", "enum": ["x"], "default": "y"}`},
		{"default", "/defs/a/default", `"a": {"type": "string", "maxGraphemes": 1, "default": "ab"}`},
		{"const", "/defs/a/const", `"a": {"type": "string", "format": "did", "const": "nope"}`},
		{"accept", "/defs/a/accept/0", `"a": {"type": "blob", "accept": ["*"]}`},
		{"accept", "/defs/a/accept/0", `"a": {"type": "blob", "accept": ["text/ht*"]}`},
		{"maxSize", "/defs/a/maxSize", `"a": {"type": "blob", "maxSize": -1}`},
		{"refs", "/defs/a/properties/u/refs", `"a": {"type": "object", "properties": {"u": {"type": "union", "refs": [], "closed": true}}}`},
		{"ref", "/defs/a/properties/r/ref", `"a": {"type": "object", "properties": {"r": {"type": "ref", "ref": "#nothing"}}}`},
		{"ref", "/defs/a/properties/r/ref", `"a": {"type": "object", "properties": {"r": {"type": "ref", "ref": "com.example.other#x"}}}`},
		{"ref", "/defs/a/properties/r/ref", `"a": {"type": "object", "properties": {"r": {"type": "ref", "ref": "#t"}}}, "t": {"type": "token"}`},
		{"ref", "/defs/a/properties/r/ref", `"a": {"type": "object", "properties": {"r": {"type": "ref", "ref": "not an nsid#x"}}}`},
		{"refs", "/defs/a/properties/u/refs/0", `"a": {"type": "object", "properties": {"u": {"type": "union", "refs": ["#s"]}}}, "s": {"type": "string"}`},
		{"key", "/defs/main/key", `"main": {"type": "record", "key": "uuid", "record": {"type": "object", "properties": {}}}`},
		{"type", "/defs/main/record/type", `"main": {"type": "record", "key": "tid", "record": {"type": "string"}}`},
		{"type", "/defs/main/parameters/properties/o/type", `"main": {"type": "query", "parameters": {"type": "params", "properties": {"o": {"type": "object", "properties": {}}}}}`},
		{"type", "/defs/main/parameters/type", `"main": {"type": "query", "parameters": {"type": "object", "properties": {}}}`},
		{"input", "/defs/main/input", `"main": {"type": "query", "input": {"encoding": "application/json"}}`},
		{"input", "/defs/main/input", `"main": {"type": "subscription", "message": {"schema": {"type": "union", "refs": []}}, "input": {"encoding": "application/json"}}`},
		{"encoding", "/defs/main/output", `"main": {"type": "query", "output": {}}`},
		{"type", "/defs/main/output/schema/type", `"main": {"type": "query", "output": {"encoding": "application/json", "schema": {"type": "string"}}}`},
		{"type", "/defs/main/message/schema/type", `"main": {"type": "subscription", "message": {"schema": {"type": "object", "properties": {}}}}`},
		{"name", "/defs/main/errors/0/name", `"main": {"type": "query", "errors": [{"name": "Bad Thing"}]}`},
		{"collection", "/defs/main/permissions/0/collection", `"main": {"type": "permission-set", "permissions": [{"type": "permission", "resource": "repo", "collection": []}]}`},
		{"collection", "/defs/main/permissions/0/collection/0", `"main": {"type": "permission-set", "permissions": [{"type": "permission", "resource": "repo", "collection": ["*"]}]}`},
		{"action", "/defs/main/permissions/0/action/0", `"main": {"type": "permission-set", "permissions": [{"type": "permission", "resource": "repo", "collection": ["a.b.c"], "action": ["read"]}]}`},
		{"aud", "/defs/main/permissions/0", `"main": {"type": "permission-set", "permissions": [{"type": "permission", "resource": "rpc", "lxm": ["a.b.c"]}]}`},
		{"aud", "/defs/main/permissions/0/aud", `"main": {"type": "permission-set", "permissions": [{"type": "permission", "resource": "rpc", "lxm": ["*"], "aud": "*"}]}`},
		{"aud", "/defs/main/permissions/0/aud", `"main": {"type": "permission-set", "permissions": [{"type": "permission", "resource": "rpc", "lxm": ["a.b.c"], "aud": "did:web:example.com"}]}`},
		{"type", "/defs/main/permissions/0/type", `"main": {"type": "permission-set", "permissions": [{"type": "object", "properties": {}}]}`},
		{"defs", "/defs/a-b", `"a-b": {"type": "string"}`},
	} {
		s, err := ParseSchema("test.json", doc(c.defs))
		if err == nil {
			_, err = NewCatalog(s)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %s: %v, want an *Error", c.rule, c.defs, err)
			continue
		}
		if !errors.Is(err, ErrSchema) || e.File != "test.json" || e.Path != c.path || e.Rule != c.rule {
			t.Errorf("%s: %s:\n\tgot  %v (file %q, path %q, rule %q)\n\twant path %q rule %q", c.rule, c.defs, err, e.File, e.Path, e.Rule, c.path, c.rule)
		}
	}
}

func TestSchemaDocumentErrors(t *testing.T) {
	for _, c := range []struct{ in, path, rule string }{
		{`[]`, "", "json"},
		{`{"lexicon": 1`, "", "json"},
		{`{} {}`, "", "json"},
		{`{"lexicon": 1, "id": "a.b.c", "defs": {"main": {"type": "token"}, "main": {"type": "token"}}}`, "/defs/main", "json"},
		{`{"lexicon": 1, "id": "a.b.c", "defs": {"a": {"type": "object", "properties": {"x~/": {"type": "integer"}, "y": {}, "x~/": {"type": "string"}}}}}`, "/defs/a/properties/x~0~1", "json"},
		{`{"lexicon": 1, "id": "a.b.c", "defs": {"a": {"type": "union", "refs": ["#b", "#c"], "x": [{}, [], {"k": 1, "k": 2}]}}}`, "/defs/a/x/2/k", "json"},
		{`{"lexicon": 1, "lexicon": 1, "id": "a.b.c", "defs": {}}`, "/lexicon", "json"},
		{`{"lexicon": 2, "id": "a.b.c", "defs": {"a": {"type": "string"}}}`, "/lexicon", "lexicon"},
		{`{"lexicon": 1, "defs": {"a": {"type": "string"}}}`, "", "id"},
		{`{"lexicon": 1, "id": "a.b.c", "defs": []}`, "/defs", "defs"},
		{`{"lexicon": 1, "id": "a.b.c", "description": 3, "defs": {}}`, "/description", "description"},
	} {
		_, err := ParseSchema("x.json", []byte(c.in))
		var e *Error
		if !errors.As(err, &e) || e.Path != c.path || e.Rule != c.rule {
			t.Errorf("%s: %v, want at %q rule %q", c.in, err, c.path, c.rule)
		}
	}
}

// A JSON error in a document says where it is.
func TestSchemaJSONErrorPlace(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\"lexicon\": 1,\n  \"id\": }", "invalid character '}' looking for beginning of value, at line 2, column 9 (byte 23)"},
		{"{\"lexicon\": 1,\n", "the document ends early, at line 2, column 1 (byte 15)"},
		{"{}\n\n []", "data after the document, at line 3, column 2 (byte 5)"},
		{"{}\n}", "data after the document, at line 2, column 1 (byte 3)"},
		{"{} ]", "data after the document, at line 1, column 4 (byte 3)"},
		{`""}`, "data after the document, at line 1, column 3 (byte 2)"},
	} {
		_, err := ParseSchema("x.json", []byte(c.in))
		var e *Error
		if !errors.As(err, &e) || e.Rule != "json" || e.Detail != c.want {
			t.Errorf("%q: %v\n\twant detail %q", c.in, err, c.want)
		}
	}
}

func TestSchemaAccepted(t *testing.T) {
	for _, defs := range []string{
		`"a": {"type": "string", "future": {"anything": true}}`, // unknown fields are ignored
		`"a": {"type": "null"}`,
		`"a": {"type": "object", "properties": {"u": {"type": "union", "refs": []}}}`, // open, empty: allowed
		`"a": {"type": "blob", "accept": ["*/*", "image/*", "video/mp4"]}`,
		`"main": {"type": "record", "key": "literal:self", "record": {"type": "object", "properties": {"r": {"type": "ref", "ref": "com.example.test"}}}}`,
		`"main": {"type": "procedure", "input": {"encoding": "*/*"}, "output": {"encoding": "application/json", "schema": {"type": "ref", "ref": "#o"}}}, "o": {"type": "object", "properties": {}}`,
	} {
		s, err := ParseSchema("test.json", doc(defs))
		if err == nil {
			_, err = NewCatalog(s)
		}
		if err != nil {
			t.Errorf("%s: %v", defs, err)
		}
	}
}

func TestCatalogDuplicateAndAll(t *testing.T) {
	a, err := ParseSchema("a.json", doc(`"a": {"type": "string"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseSchema("b.json", doc(`"b": {"type": "object", "properties": {"x": {"type": "ref", "ref": "#none"}, "y": {"type": "ref", "ref": "#nope"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewCatalog(a, b)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Rule != "id" || !strings.Contains(es[0].Detail, `"a.json"`) {
		t.Errorf("duplicate id: %v", err)
	}
	_, err = NewCatalog(b)
	if !errors.As(err, &es) || len(es) != 2 {
		t.Errorf("two dangling refs: %v, want both reported", err)
	}
	want := `invalid lexicon "b.json" at "/defs/b/properties/x/ref": ref: com.example.test#none: no such definition in the catalog`
	if len(es) > 0 && es[0].Error() != want {
		t.Errorf("message:\n\t%s\nwant\n\t%s", es[0].Error(), want)
	}
	// A nil Schema (ParseSchema's result when it failed) is a problem reported, not a panic.
	var failed *Schema
	if _, err := NewCatalog(a, failed); !errors.As(err, &es) || len(es) != 1 || !errors.Is(err, ErrSchema) {
		t.Errorf("a nil Schema: %v", err)
	}
}

func TestLoadDirNamesFiles(t *testing.T) {
	dir := t.TempDir()
	sub := dir + "/com/example"
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"a.json": `{"lexicon": 1, "id": "com.example.a", "defs": {"x": {"type": "ref", "ref": "#none"}}}`,
		"b.json": `{"lexicon": 1, "id": "com.example.b", "defs": {"x": {"type": "object", "properties": {"r": {"type": "ref", "ref": "#none"}}}}}`,
	} {
		if err := os.WriteFile(sub+"/"+name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := LoadDir(dir)
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Fatalf("%v, want two errors", err)
	}
	want := []string{filepath.Join(sub, "a.json") + " /defs/x/type", filepath.Join(sub, "b.json") + " /defs/x/properties/r/ref"}
	for i, e := range es {
		if got := e.File + " " + e.Path; got != want[i] {
			t.Errorf("error %d: %s, want %s", i, got, want[i])
		}
	}
}

func TestLoadDirMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nothing")
	_, err := LoadDir(dir)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != dir || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v: want a *fs.PathError naming %s", err, dir)
	}
}
