package lexicon

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/testvec"
)

type schemaVector struct {
	Name    string          `json:"name"`
	Lexicon json.RawMessage `json:"lexicon"`
}

type recordVector struct {
	Name string          `json:"name"`
	RKey string          `json:"rkey"`
	Data json.RawMessage `json:"data"`
}

func TestSchemaVectors(t *testing.T) {
	for _, c := range []struct {
		file  string
		valid bool
	}{{"lexicon/lexicon-valid.json", true}, {"lexicon/lexicon-invalid.json", false}} {
		var vs []schemaVector
		if err := json.Unmarshal(testvec.File(t, c.file), &vs); err != nil {
			t.Fatal(err)
		}
		if len(vs) == 0 {
			t.Fatalf("%s: no vectors", c.file)
		}
		for _, v := range vs {
			s, err := ParseSchema(v.Name, v.Lexicon)
			if err == nil {
				// A document can only be judged whole in a catalog: references resolve there.
				_, err = NewCatalog(s)
			}
			switch {
			case c.valid && err != nil:
				t.Errorf("%s %q: refused: %v", c.file, v.Name, err)
			case !c.valid && err == nil:
				t.Errorf("%s %q: loaded, want refused", c.file, v.Name)
			case !c.valid && !errors.Is(err, ErrSchema):
				t.Errorf("%s %q: %v does not match ErrSchema", c.file, v.Name, err)
			}
			if err != nil {
				t.Logf("%s %q: %v", c.file, v.Name, err)
			}
		}
	}
}

// vectorCatalog loads the catalog of the record vectors (testdata/interop/lexicon/catalog)
// with the real schemas, since its procedure.json refers to app.bsky.actor.defs#preferences.
func vectorCatalog(t testing.TB) *Catalog {
	t.Helper()
	vec, err := ParseFS(os.DirFS(testvec.Dir(t)), "lexicon/catalog")
	if err != nil {
		t.Fatal(err)
	}
	real, err := ParseFS(os.DirFS("testdata"), "lexicons")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(append(vec, real...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func loadRecordVectors(t testing.TB, file string) []recordVector {
	t.Helper()
	var vs []recordVector
	if err := json.Unmarshal(testvec.File(t, file), &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

// decodeBoth decodes a record vector with each codec: validation must not depend on it.
func decodeBoth(t testing.TB, data []byte) map[string]any {
	t.Helper()
	j, err := datamodel.UnmarshalJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := datamodel.MarshalCBOR(j)
	if err != nil {
		t.Fatal(err)
	}
	c, err := datamodel.UnmarshalCBOR(cb)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"json": j, "cbor": c}
}

// schemaRefusals: why each invalid vector must be refused, as (JSON Pointer, rule).
var schemaRefusals = map[string][2]string{
	"invalid lexicon field":      {"/lexicon", "lexicon"},
	"invalid id field":           {"/id", "id"},
	"invalid NSID":               {"/id", "id"},
	"defined unknown":            {"/defs/demo/type", "type"},
	"defined ref":                {"/defs/demo/type", "type"},
	"non-main primary":           {"/defs/demo/type", "main"},
	"record missing type object": {"/defs/main/record", "type"},
}

func TestSchemaVectorReasons(t *testing.T) {
	var vs []schemaVector
	if err := json.Unmarshal(testvec.File(t, "lexicon/lexicon-invalid.json"), &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(schemaRefusals) {
		t.Errorf("%d invalid vectors, %d reasons: update schemaRefusals", len(vs), len(schemaRefusals))
	}
	for _, v := range vs {
		want, ok := schemaRefusals[v.Name]
		if !ok {
			t.Errorf("%q: no expected reason", v.Name)
			continue
		}
		_, err := ParseSchema("vector.json", v.Lexicon)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %v, want an *Error", v.Name, err)
			continue
		}
		if e.Path != want[0] || e.Rule != want[1] || e.File != "vector.json" {
			t.Errorf("%q: at %q rule %q file %q, want at %q rule %q", v.Name, e.Path, e.Rule, e.File, want[0], want[1])
		}
	}
}

// recordReasons: for each invalid record vector (by name and position, since two share a
// name), the JSON Pointer and rule of the error its name describes.
var recordReasons = []struct {
	name, path, rule string
}{
	{"missing required field", "/integer", "required"},
	{"invalid boolean field", "/boolean", "type"},
	{"invalid integer field", "/integer", "type"},
	{"invalid non-nullable string field", "/string", "nullable"},
	{"invalid string field", "/string", "type"},
	{"invalid bytes field", "/bytes", "type"},
	{"invalid bytes: empty object", "/bytes", "type"},
	{"invalid bytes: wrong type", "/bytes", "type"},
	{"invalid cid-link field", "/cid-link", "type"},
	{"invalid blob field", "/blob", "type"},
	{"invalid blob: wrong type", "/blob", "type"},
	{"invalid array", "/array", "type"},
	{"invalid array element", "/array/0", "type"},
	{"object wrong data type", "/object", "type"},
	{"object nested wrong data type", "/object/a", "type"},
	{"invalid token ref type", "/ref", "type"},
	{"invalid ref value", "/ref", "type"},
	{"invalid string format handle", "/formats/handle", "format"},
	{"invalid string format did", "/formats/did", "format"},
	{"invalid string format atidentifier", "/formats/atidentifier", "format"},
	{"invalid string format nsid", "/formats/nsid", "format"},
	{"invalid string format aturi", "/formats/aturi", "format"},
	{"invalid string format cid", "/formats/cid", "format"},
	{"invalid string format datetime", "/formats/datetime", "format"},
	{"invalid string format language", "/formats/language", "format"},
	{"invalid string format uri", "/formats/uri", "format"},
	{"invalid string format tid", "/formats/tid", "format"},
	{"invalid string format recordkey", "/formats/recordkey", "format"},
	{"wrong const value", "/constInteger", "const"},
	{"integer not in enum", "/enumInteger", "enum"},
	{"out of integer range", "/rangeInteger", "maximum"},
	{"string too short", "/lenString", "minLength"},
	{"string too long", "/lenString", "maxLength"},
	{"string too short (graphemes)", "/graphemeString", "minGraphemes"},
	{"string too long (graphemes)", "/graphemeString", "maxGraphemes"},
	{"out of enum string", "/enumString", "enum"},
	{"bytes too short", "/sizeBytes", "minLength"},
	{"bytes too long", "/sizeBytes", "maxLength"},
	{"array too short", "/lenArray", "minLength"},
	{"array too long", "/lenArray", "maxLength"},
	{"blob too large", "/sizeBlob", "maxSize"},
	{"blob wrong type", "/acceptBlob", "accept"},
	{"open union wrong data type", "/union", "type"},
	{"open union missing $type", "/union/$type", "$type"},
	{"out of closed union", "/closedUnion/$type", "closed"},
	{"union inner invalid", "/closedUnion/$type", "closed"},
	{"union inner invalid", "/union/a", "type"},
	{"unknown wrong type (bool)", "/unknown", "type"},
	{"unknown wrong type (bytes)", "/unknown", "type"},
	{"unknown wrong type (blob)", "/unknown", "type"},
}

func TestRecordVectors(t *testing.T) {
	c := vectorCatalog(t)
	for _, v := range loadRecordVectors(t, "lexicon/record-data-valid.json") {
		for codec, rec := range decodeBoth(t, v.Data) {
			if err := c.ValidateRecord(rec, Options{RKey: v.RKey}); err != nil {
				t.Errorf("valid %q (%s): %v", v.Name, codec, err)
			}
			if r := c.CheckRecord(rec, Options{RKey: v.RKey}); r.Err() != nil {
				t.Errorf("valid %q (%s): CheckRecord: %v", v.Name, codec, r.Err())
			}
		}
	}
	vs := loadRecordVectors(t, "lexicon/record-data-invalid.json")
	if len(vs) != len(recordReasons) {
		t.Fatalf("%d invalid vectors, %d reasons: update recordReasons", len(vs), len(recordReasons))
	}
	for i, v := range vs {
		want := recordReasons[i]
		if v.Name != want.name {
			t.Fatalf("vector %d is %q, reasons list %q", i, v.Name, want.name)
		}
		for codec, rec := range decodeBoth(t, v.Data) {
			// ValidateRecord stops at the first problem; some vectors have two (the
			// "unknown wrong type" ones also lack the required "integer"), so the reason the
			// name gives is looked for in CheckRecord's full list.
			err := c.ValidateRecord(rec, Options{RKey: v.RKey})
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrValue) {
				t.Errorf("invalid %q (%s): %v, want an *Error matching ErrValue", v.Name, codec, err)
				continue
			}
			r := c.CheckRecord(rec, Options{RKey: v.RKey})
			found := false
			for _, e := range r.Errors {
				found = found || e.Path == want.path && e.Rule == want.rule
			}
			if !found {
				t.Errorf("invalid %q (%s): %v; want an error at %q rule %q", v.Name, codec, r.Err(), want.path, want.rule)
			}
		}
	}
}
