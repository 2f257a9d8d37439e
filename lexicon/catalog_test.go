package lexicon

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func mustSchema(t testing.TB, file, js string) *Schema {
	t.Helper()
	s, err := ParseSchema(file, []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// recordOf is a document com.example.x whose record has one property p of the given schema.
func recordOf(p string) string {
	return `{"lexicon": 1, "id": "com.example.x", "defs": {"main": {"type": "record", "key": "any",
		"record": {"type": "object", "properties": {"p": ` + p + `}}}}}`
}

// One Schema in several catalogs: each catalog resolves it against its own documents, and
// building one (or failing to) changes none built before.
func TestCatalogsShareSchemas(t *testing.T) {
	x := mustSchema(t, "x.json", recordOf(`{"type": "ref", "ref": "com.example.y#v"}`))
	yString := mustSchema(t, "y1.json", `{"lexicon": 1, "id": "com.example.y", "defs": {"v": {"type": "string", "maxLength": 3}}}`)
	yInteger := mustSchema(t, "y2.json", `{"lexicon": 1, "id": "com.example.y", "defs": {"v": {"type": "integer"}}}`)
	a, err := NewCatalog(x, yString)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewCatalog(x, yInteger)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewCatalog(x); !errors.Is(err, ErrSchema) { // y missing: the ref dangles
		t.Fatalf("NewCatalog without y: %v, want ErrSchema", err)
	}
	str := mustJSON(t, `{"$type": "com.example.x", "p": "ab"}`)
	num := mustJSON(t, `{"$type": "com.example.x", "p": 12}`)
	for _, c := range []struct {
		name string
		cat  *Catalog
		rec  any
		ok   bool
	}{
		{"string catalog, string", a, str, true},
		{"string catalog, integer", a, num, false},
		{"integer catalog, integer", b, num, true},
		{"integer catalog, string", b, str, false},
	} {
		if err := c.cat.ValidateRecord(c.rec, Options{}); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// A union resolved in one catalog stays resolved when another catalog of the same document
// fails to build (it panicked on a nil variant before).
func TestCatalogUnionSurvivesFailedBuild(t *testing.T) {
	x := mustSchema(t, "x.json", recordOf(`{"type": "union", "refs": ["com.example.y#obj"]}`))
	y := mustSchema(t, "y.json", `{"lexicon": 1, "id": "com.example.y", "defs": {"obj": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 1}}}}}`)
	a, err := NewCatalog(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewCatalog(x); err == nil {
		t.Fatal("NewCatalog without y accepted a dangling union variant")
	}
	rec := mustJSON(t, `{"$type": "com.example.x", "p": {"$type": "com.example.y#obj", "n": 2}}`)
	var e *Error
	if err := a.ValidateRecord(rec, Options{}); !errors.As(err, &e) || e.Path != "/p/n" || e.Rule != "maximum" {
		t.Errorf("ValidateRecord = %v, want maximum at /p/n", err)
	}
}

// Catalogs built from the same documents while others validate with them: go test -race.
func TestCatalogBuildConcurrent(t *testing.T) {
	x := mustSchema(t, "x.json", recordOf(`{"type": "union", "refs": ["com.example.y#obj"]}`))
	y := mustSchema(t, "y.json", `{"lexicon": 1, "id": "com.example.y", "defs": {"obj": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 1}}}}}`)
	a, err := NewCatalog(x, y)
	if err != nil {
		t.Fatal(err)
	}
	rec := mustJSON(t, `{"$type": "com.example.x", "p": {"$type": "com.example.y#obj", "n": 1}}`)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if g%2 == 0 {
					if _, err := NewCatalog(x, y); err != nil {
						errs <- err
					}
					NewCatalog(x) // fails: y missing
				} else if err := a.ValidateRecord(rec, Options{}); err != nil {
					errs <- fmt.Errorf("goroutine %d: %w", g, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A schema may name "$type" as a property; the record's $type then matches it, and the
// properties after it are still checked.
func TestTypeAsProperty(t *testing.T) {
	x := mustSchema(t, "x.json", `{"lexicon": 1, "id": "com.example.x", "defs": {"main": {"type": "record", "key": "any",
		"record": {"type": "object", "properties": {"$type": {"type": "string"}, "b": {"type": "string", "maxLength": 2}}}}}}`)
	c, err := NewCatalog(x)
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	err = c.ValidateRecord(mustJSON(t, `{"$type": "com.example.x", "b": "too long"}`), Options{})
	if !errors.As(err, &e) || e.Path != "/b" || e.Rule != "maxLength" {
		t.Errorf("ValidateRecord = %v, want maxLength at /b", err)
	}
	if err := c.ValidateRecord(mustJSON(t, `{"$type": "com.example.x", "b": "ok"}`), Options{}); err != nil {
		t.Error(err)
	}
}

// Two schemas whose NSIDs differ only by letter case cannot be in one catalog: "having multiple
// NSIDs that differ only by casing is not allowed" (https://atproto.com/specs/nsid).
func TestCatalogIDsDifferOnlyByCase(t *testing.T) {
	for _, ids := range [][2]string{
		{"com.example.post", "com.example.Post"},
		{"com.example.post", "com.Example.post"},
	} {
		var schemas []*Schema
		for i, id := range ids {
			s, err := ParseSchema(fmt.Sprintf("%d.json", i), []byte(`{"lexicon": 1, "id": "`+id+`", "defs": {"main": {"type": "token"}}}`))
			if err != nil {
				t.Fatal(err)
			}
			schemas = append(schemas, s)
		}
		_, err := NewCatalog(schemas...)
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || es[0].Rule != "id" || es[0].File != "1.json" || !strings.Contains(es[0].Detail, "only by letter case") {
			t.Errorf("%s and %s: %v", ids[0], ids[1], err)
		}
	}
	// The control: two different names.
	a, _ := ParseSchema("a.json", []byte(`{"lexicon": 1, "id": "com.example.post", "defs": {"main": {"type": "token"}}}`))
	b, _ := ParseSchema("b.json", []byte(`{"lexicon": 1, "id": "com.example.posts", "defs": {"main": {"type": "token"}}}`))
	if _, err := NewCatalog(a, b); err != nil {
		t.Error(err)
	}
}
