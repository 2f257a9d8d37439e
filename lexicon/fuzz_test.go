package lexicon

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/testvec"
)

// FuzzParseSchema: any input is refused with a located *Error matching ErrSchema, or parses
// into a Schema that NewCatalog either builds or refuses the same way; nothing panics.
func FuzzParseSchema(f *testing.F) {
	for _, file := range []string{"lexicon/lexicon-valid.json", "lexicon/lexicon-invalid.json"} {
		var vs []schemaVector
		if err := json.Unmarshal(testvec.File(f, file), &vs); err != nil {
			f.Fatal(err)
		}
		for _, v := range vs {
			f.Add([]byte(v.Lexicon))
		}
	}
	f.Add([]byte(testSchema))
	for _, name := range []string{"record.json", "query.json", "procedure.json", "subscription.json", "permission-set.json"} {
		f.Add(testvec.File(f, "lexicon/catalog/"+name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSchema("fuzz.json", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrSchema) || e.File != "fuzz.json" || e.Rule == "" {
				t.Fatalf("%v: not a located schema error", err)
			}
			return
		}
		c, err := NewCatalog(s)
		if err != nil {
			if !errors.Is(err, ErrSchema) {
				t.Fatalf("%v: not a schema error", err)
			}
			return
		}
		// Every definition of data in a built catalog can be used.
		for _, name := range s.Defs() {
			ref := s.ID + "#" + name
			_ = c.ValidateValue(ref, map[string]any{}, Options{})
			_ = c.CheckValue(ref, "x", Options{})
		}
	})
}

// FuzzValidateRecord: any JSON value the data model accepts is validated against the vector
// catalog without panicking; ValidateRecord and CheckRecord agree on whether it is valid, and
// on the first error.
func FuzzValidateRecord(f *testing.F) {
	for _, file := range []string{"lexicon/record-data-valid.json", "lexicon/record-data-invalid.json"} {
		for _, v := range loadRecordVectors(f, file) {
			f.Add([]byte(v.Data))
		}
	}
	c := vectorCatalog(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := datamodel.UnmarshalJSON(data)
		if err != nil {
			return
		}
		err = c.ValidateRecord(v, Options{RKey: "demo"})
		r := c.CheckRecord(v, Options{RKey: "demo"})
		if (err == nil) != (len(r.Errors) == 0) {
			t.Fatalf("ValidateRecord %v, CheckRecord %v", err, r.Errors)
		}
		if err != nil && err.Error() != r.Errors[0].Error() {
			t.Fatalf("first error %v, CheckRecord's first %v", err, r.Errors[0])
		}
	})
}
