package datamodel

import (
	"encoding/hex"
	"errors"
	"testing"
)

// limitErr reports whether err is one of the limit sentinels (DECISIONS rule 14).
func limitErr(err error) bool {
	return errors.Is(err, ErrTooDeep) || errors.Is(err, ErrTooManyElements) || errors.Is(err, ErrKeyTooLong) ||
		errors.Is(err, ErrInvalidCID) || errors.Is(err, ErrTooManyValues)
}

// fuzzLimits draws limits from the fuzzer's numbers, small ones included (below the blob's
// shape too), and sizes left at their defaults: the sizes measure the input of one encoding,
// not the value, so that the CBOR and JSON sides cannot agree on them.
func fuzzLimits(depth, elems, keyLen, cidLen uint8, values uint16) Limits {
	return Limits{
		MaxDepth:    int(depth%12) + 1,
		MaxElements: int(elems%24) + 1,
		MaxKeyLen:   int(keyLen%24) + 1,
		MaxCIDLen:   int(cidLen%60) + 1,
		MaxValues:   int(values%300) + 1,
	}
}

// FuzzLimits: whatever the limits, the scanner, both decoders, the struct path, both encoders
// and Validate accept exactly the same values (issue 12: one behaviour per limit). The value is
// any canonical DAG-CBOR the decoder takes at the default limits; each walker gets it in its own
// form (bytes, Go value, the JSON of it) under the drawn limits.
func FuzzLimits(f *testing.F) {
	for _, r := range cborTestRecords(f) {
		f.Add(r.cbor, uint8(3), uint8(3), uint8(7), uint8(36), uint16(20))
		f.Add(r.cbor, uint8(31), uint8(100), uint8(100), uint8(100), uint16(1000))
	}
	for _, h := range []string{
		// A blob, a legacy blob, a link, bytes.
		"a4 63726566 d82a 5825 0001551220 " + "0000000000000000000000000000000000000000000000000000000000000000" +
			" 6473697a65 01 652474797065 64626c6f62 686d696d6554797065 6161",
		"a2 63636964 783b " + hex.EncodeToString([]byte(cborTestBlobLinkString)) + " 686d696d6554797065 6161",
		"81 d82a 5825 0001551220 0000000000000000000000000000000000000000000000000000000000000000",
		"a1 6161 43 010203", "83 a0 80 a1 6161 80",
	} {
		f.Add(cborMustHex(h), uint8(2), uint8(1), uint8(3), uint8(10), uint16(3))
		// Room for the shape, and a value budget just large enough for it (MaxValues 5): a
		// blob read into a struct was counted twice by UnmarshalJSONStruct.
		f.Add(cborMustHex(h), uint8(3), uint8(5), uint8(10), uint8(40), uint16(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth, elems, keyLen, cidLen uint8, values uint16) {
		v, err := UnmarshalCBOR(data)
		if err != nil {
			return
		}
		js, err := MarshalJSON(v)
		if err != nil {
			t.Fatalf("decoded, but MarshalJSON: %v", err)
		}
		lim := fuzzLimits(depth, elems, keyLen, cidLen, values)
		opt := WithLimits(lim)
		// The JSON decoder's quick and careful paths agree under these limits too (value, error,
		// offset and path): they count the budget at the same points.
		jsonSamePaths(t, js, lim.withDefaults())
		var sink any
		_, decErr := UnmarshalCBOR(data, opt)
		_, jsErr := UnmarshalJSON(js, opt)
		_, cbErr := MarshalCBOR(v, opt)
		_, jeErr := MarshalJSON(v, opt)
		results := []struct {
			name string
			err  error
		}{
			{"UnmarshalCBOR", decErr},
			{"ScanCBOR", ScanCBOR(data, opt)},
			{"UnmarshalCBORStruct", UnmarshalCBORStruct(data, &sink, opt)},
			{"UnmarshalJSON", jsErr},
			{"MarshalCBOR", cbErr},
			{"MarshalJSON", jeErr},
			{"Validate", Validate(v, opt)},
			{"UnmarshalJSONStruct", UnmarshalJSONStruct(js, &sink, opt)},
		}
		switch v.(type) {
		case map[string]any, Blob: // a map in both forms
			// Into a struct with no fields: the typed decoders read each member (and a blob's
			// shape) without keeping it, under the same budget.
			var cs, js2 struct{}
			results = append(results, []struct {
				name string
				err  error
			}{
				{"UnmarshalCBORStruct into struct{}", UnmarshalCBORStruct(data, &cs, opt)},
				{"UnmarshalJSONStruct into struct{}", UnmarshalJSONStruct(js, &js2, opt)},
			}...)
		}
		for _, r := range results {
			if r.err != nil && !limitErr(r.err) {
				t.Fatalf("%+v: %s: %v: not a limit error", lim, r.name, r.err)
			}
			if (r.err == nil) != (decErr == nil) {
				t.Fatalf("%+v: %s: %v, but UnmarshalCBOR: %v", lim, r.name, r.err, decErr)
			}
		}
	})
}
