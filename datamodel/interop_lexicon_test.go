package datamodel

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// TestInteropRecordData: every record of the interop files lexicon/record-data-valid.json and
// lexicon/record-data-invalid.json is a valid data-model value (the invalid ones break only their
// Lexicon schema), so each one decodes as JSON, is a record, converts to CBOR, decodes again as
// CBOR to the same value, and comes back to JSON that reads as the same value. The "full" record
// holds {"$bytes": "123"}, whose last character has non-zero unused bits: read leniently, written
// canonically (DECISIONS rule 10).
func TestInteropRecordData(t *testing.T) {
	type record struct {
		Name string          `json:"name"`
		Data json.RawMessage `json:"data"` // kept raw, so that the decoder under test reads it
	}
	total := 0
	for _, file := range []string{"lexicon/record-data-valid.json", "lexicon/record-data-invalid.json"} {
		var recs []record
		if err := json.Unmarshal(testvec.File(t, file), &recs); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, r := range recs {
			total++
			v, err := UnmarshalJSON(r.Data)
			if err != nil {
				t.Errorf("%s %q: UnmarshalJSON: %v", file, r.Name, err)
				continue
			}
			if err := ValidateRecord(v); err != nil {
				t.Errorf("%s %q: ValidateRecord: %v", file, r.Name, err)
			}
			cb, err := JSONToCBOR(r.Data)
			if err != nil {
				t.Errorf("%s %q: JSONToCBOR: %v", file, r.Name, err)
				continue
			}
			if m, err := MarshalCBOR(v); err != nil || !bytes.Equal(m, cb) {
				t.Errorf("%s %q: MarshalCBOR differs from JSONToCBOR: %x, %v", file, r.Name, m, err)
			}
			vc, err := UnmarshalCBOR(cb)
			if err != nil || !reflect.DeepEqual(vc, v) {
				t.Errorf("%s %q: UnmarshalCBOR gives %#v, %v; want %#v", file, r.Name, vc, err, v)
				continue
			}
			js, err := CBORToJSON(cb)
			if err != nil {
				t.Errorf("%s %q: CBORToJSON: %v", file, r.Name, err)
				continue
			}
			if vj, err := UnmarshalJSON(js); err != nil || !reflect.DeepEqual(vj, v) {
				t.Errorf("%s %q: CBORToJSON's output reads as %#v, %v; want %#v", file, r.Name, vj, err, v)
			}
		}
	}
	if total != 53 {
		t.Errorf("%d records in the two files, want 53", total)
	}
}

// TestInteropRecordDataFullBytes pins the one non-canonical spelling in the vectors: the "full"
// record's {"$bytes": "123"} reads as d7 6d and is written back as "120".
func TestInteropRecordDataFullBytes(t *testing.T) {
	var recs []struct {
		Name string          `json:"name"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(testvec.File(t, "lexicon/record-data-valid.json"), &recs); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Name != "full" {
			continue
		}
		if !bytes.Contains(r.Data, []byte(`"$bytes": "123"`)) && !bytes.Contains(r.Data, []byte(`"$bytes":"123"`)) {
			t.Fatalf("the \"full\" record no longer holds {\"$bytes\": \"123\"}: %s", r.Data)
		}
		v, err := UnmarshalJSON(r.Data)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		var walk func(any)
		walk = func(x any) {
			switch x := x.(type) {
			case Bytes:
				if bytes.Equal(x, []byte{0xd7, 0x6d}) {
					found = true
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(v)
		if !found {
			t.Fatalf("no bytes d7 6d in %#v", v)
		}
		out, err := MarshalJSON(v)
		if err != nil || !bytes.Contains(out, []byte(`{"$bytes":"120"}`)) {
			t.Fatalf("written as %s, %v; want the canonical \"120\"", out, err)
		}
		return
	}
	t.Fatal(`no "full" record`)
}
