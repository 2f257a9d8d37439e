package datamodel

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// typedFuzzLimits are tight limits, so that random inputs reach every limit.
var typedFuzzLimits = []Option{WithLimits(Limits{MaxDepth: 4, MaxElements: 5, MaxKeyLen: 6, MaxValues: 24, MaxCIDLen: 36})}

// FuzzJSONStructDifferential: random JSON read by UnmarshalJSON and by UnmarshalJSONStruct, with
// the default and with tight limits and safe integers, gets the same verdict. Into values that
// hold any data-model value (any, and a struct of a $type and UnknownFields) UnmarshalJSONStruct
// accepts exactly what UnmarshalJSON accepts, and gives the same value and the same JSON and
// CBOR back (typedTestAgree); into a struct of typed fields it refuses what UnmarshalJSON
// refuses, with the same error, and otherwise fails only on the Go side (ErrGoType, ErrBlob);
// what it accepts, MarshalJSONStruct writes (as MarshalCBORStruct writes it, in CBOR) and
// UnmarshalJSONStruct reads back as the same value.
func FuzzJSONStructDifferential(f *testing.F) {
	for _, file := range []string{"data-model-fixtures.json", "data-model-valid.json", "data-model-invalid.json"} {
		for _, c := range interopCases(f, file) {
			f.Add([]byte(c.JSON))
		}
	}
	for _, name := range recordNames {
		js, _ := readRecord(f, name)
		f.Add(js)
	}
	for _, s := range []string{
		`{"s":"a","i8":-3,"u16":7,"langs":["en"],"pair":[1,2,3],"tags":{"a":1},"any":[1.0e2],"b":false}`,
		`{"link":{"$link":"` + typedTestCID + `"},"bytes":{"$bytes":"AQ=="},"arr":{"$bytes":"AQ"},"rev":"3kxnlhr3gxq23"}`,
		`{"blob":{"$type":"blob","ref":{"$link":"` + typedTestBlobCID + `"},"mimeType":"a/b","size":1}}`,
		`{"inner":{"inner":{"$type":"blob","s":1}},"x":{"cid":"` + typedTestBlobCID + `","mimeType":"a"}}`,
		// A blob, and a legacy one, alone: an object UnmarshalJSON gives as a Blob.
		`{"$type":"blob","ref":{"$link":"` + typedTestBlobCID + `"},"mimeType":"a/b","size":0}`,
		`{"cid":"` + typedTestBlobCID + `","mimeType":"a"}`,
		`{"a":1,"a":2}`, `{"s":"a","s":1.5}`, `{"$link":"x"}`, `{"inner":{"$bytes":""}}`, `{"tags":{"$type":""}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range [][]Option{nil, typedFuzzLimits, {WithSafeIntegers()}} {
			gerr := typedTestAgree(t, "", data, opts...)
			var v typedTestFields
			err := UnmarshalJSONStruct(data, &v, opts...)
			switch {
			case gerr != nil:
				if !reflect.DeepEqual(err, gerr) {
					t.Fatalf("typed fields: %v; UnmarshalJSON: %v", err, gerr)
				}
				continue
			case err != nil:
				if !errors.Is(err, ErrGoType) && !errors.Is(err, ErrBlob) {
					t.Fatalf("typed fields: %v, which UnmarshalJSON accepts", err)
				}
				continue
			}
			out, err := MarshalJSONStruct(&v, opts...)
			// The two struct encoders agree: the same verdict and error, and the same record.
			cb, cerr := MarshalCBORStruct(&v, opts...)
			if (err == nil) != (cerr == nil) || err != nil && !reflect.DeepEqual(err, cerr) {
				t.Fatalf("MarshalJSONStruct: %v; MarshalCBORStruct: %v", err, cerr)
			}
			if err != nil {
				continue // a value the typed fields hold that is not a data-model value (a "blob" struct)
			}
			if fromJSON, err := JSONToCBOR(out, opts...); err != nil || !bytes.Equal(fromJSON, cb) {
				t.Fatalf("MarshalCBORStruct %x; MarshalJSONStruct %s, as CBOR %x, %v", cb, out, fromJSON, err)
			}
			var back typedTestFields
			if err := UnmarshalJSONStruct(out, &back, opts...); err != nil {
				t.Fatalf("%s: reading back: %v", out, err)
			}
			out2, err := MarshalJSONStruct(&back, opts...)
			if err != nil || !bytes.Equal(out, out2) {
				t.Fatalf("written again: %s, %v; first %s", out2, err, out)
			}
		}
	})
}
