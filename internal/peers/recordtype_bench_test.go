package peers

import (
	"testing"

	lexutil "github.com/bluesky-social/indigo/lex/util"

	"github.com/atcore/atcore/datamodel"
)

// recordTypeInputs are the records of BenchmarkRecordType (issue 15): a post and a profile of
// testdata/records, and benchinputs' mixpost and big50k (about 50 KB).
var recordTypeInputs = map[string]bool{"post": true, "profile": true, "mixpost": true, "big50k": true}

// BenchmarkRecordType reads a record's $type alone, as a firehose router does (issue 15):
// impl=atcore is datamodel.RecordTypeCBOR or RecordTypeJSON; impl=atcore-decode is the full
// generic decode of the same record (UnmarshalCBOR, UnmarshalJSON), the row the target compares
// with; impl=indigo is indigo's lex/util CborTypeExtract (cbor-gen into a struct of one field,
// skipping the others) or TypeExtract (encoding/json into that struct), for context.
func BenchmarkRecordType(b *testing.B) {
	for _, rec := range benchRecords(b) {
		if !recordTypeInputs[rec.name] {
			continue
		}
		c, j := rec.parts[0].CBOR, rec.parts[0].JSON
		b.Run("rec="+rec.name+"/form=cbor", func(b *testing.B) {
			benchImpl(b, "atcore", len(c), func() ([]byte, error) { return datamodel.RecordTypeCBOR(c) })
			benchImpl(b, "atcore-decode", len(c), func() (any, error) { return datamodel.UnmarshalCBOR(c) })
			benchImpl(b, "indigo", len(c), func() (string, error) { return lexutil.CborTypeExtract(c) })
		})
		b.Run("rec="+rec.name+"/form=json", func(b *testing.B) {
			benchImpl(b, "atcore", len(j), func() ([]byte, error) { return datamodel.RecordTypeJSON(j) })
			benchImpl(b, "atcore-decode", len(j), func() (any, error) { return datamodel.UnmarshalJSON(j) })
			benchImpl(b, "indigo", len(j), func() (string, error) { return lexutil.TypeExtract(j) })
		})
	}
}

// The benchmark compares like with like only if every implementation reads the same type.
func TestRecordTypePeers(t *testing.T) {
	n := 0
	for _, rec := range benchRecords(t) {
		if !recordTypeInputs[rec.name] {
			continue
		}
		n++
		c, j := rec.parts[0].CBOR, rec.parts[0].JSON
		v, err := datamodel.UnmarshalCBOR(c)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := v.(map[string]any)["$type"].(string)
		if want == "" {
			t.Fatalf("%s: no $type", rec.name)
		}
		got := map[string]func() (string, error){
			"RecordTypeCBOR":  func() (string, error) { t, err := datamodel.RecordTypeCBOR(c); return string(t), err },
			"RecordTypeJSON":  func() (string, error) { t, err := datamodel.RecordTypeJSON(j); return string(t), err },
			"CborTypeExtract": func() (string, error) { return lexutil.CborTypeExtract(c) },
			"TypeExtract":     func() (string, error) { return lexutil.TypeExtract(j) },
		}
		for name, f := range got {
			if s, err := f(); err != nil || s != want {
				t.Errorf("%s(%s) = %q, %v; want %q", name, rec.name, s, err, want)
			}
		}
	}
	if n != len(recordTypeInputs) {
		t.Fatalf("found %d of the %d inputs", n, len(recordTypeInputs))
	}
}
