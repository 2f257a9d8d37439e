package datamodel

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzUnmarshalJSON: the decoder never panics, and whatever it accepts is a valid data-model
// value that survives JSON → CBOR → JSON unchanged: the CBOR is canonical (it decodes and
// re-encodes to the same bytes) and a second pass through JSON gives identical bytes. The quick
// and careful object paths agree on every input, accepted or not. encoding/json is an outside
// check on the grammar: what this decoder accepts, it accepts too (RFC 8259), with the same keys
// at the top level.
func FuzzUnmarshalJSON(f *testing.F) {
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
		`{"cid":"` + jsonTestRawCID + `","mimeType":"image/png"}`,
		`[1.0e2, -0, 9223372036854775807, -9223372036854775808, 1.5]`,
		`"\ud83d\ude00\u0000\n"`, `{"$bytes":"AQ=="}`, `{"a":1,"a":2}`, `[[[[]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jsonSamePaths(t, data, DefaultLimits()) // the quick object path decides as the careful one
		jsonSamePaths(t, data, safeLimits)      // and so it does under WithSafeIntegers
		v, err := UnmarshalJSON(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			return
		}
		var std any
		if err := json.Unmarshal(data, &std); err != nil {
			t.Fatalf("accepted, but encoding/json refuses it: %v", err)
		}
		if m, ok := v.(map[string]any); ok {
			sm, ok := std.(map[string]any)
			if !ok || len(sm) != len(m) {
				t.Fatalf("a map of %d keys, encoding/json's %#v", len(m), std)
			}
			for k := range sm {
				if _, ok := m[k]; !ok {
					t.Fatalf("key %q missing; encoding/json has it", k)
				}
			}
		}
		if err := Validate(v); err != nil {
			t.Fatalf("Validate rejects the decoder's output: %v", err)
		}
		cbor, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("MarshalCBOR of a decoded value: %v", err)
		}
		vc, err := UnmarshalCBOR(cbor)
		if err != nil {
			t.Fatalf("UnmarshalCBOR of MarshalCBOR's output: %v", err)
		}
		if !reflect.DeepEqual(vc, v) {
			t.Fatalf("JSON and CBOR decoders disagree:\n%#v\n%#v", v, vc)
		}
		if again, err := MarshalCBOR(vc); err != nil || !bytes.Equal(again, cbor) {
			t.Fatalf("CBOR not canonical: %x then %x, %v", cbor, again, err)
		}
		j1, err := CBORToJSON(cbor)
		if err != nil {
			t.Fatalf("CBORToJSON: %v", err)
		}
		c2, err := JSONToCBOR(j1)
		if err != nil || !bytes.Equal(c2, cbor) {
			t.Fatalf("JSON → CBOR → JSON → CBOR changed the bytes: %x, %v", c2, err)
		}
		j2, err := CBORToJSON(c2)
		if err != nil || !bytes.Equal(j2, j1) {
			t.Fatalf("second pass differs:\n%s\n%s (%v)", j1, j2, err)
		}
		pretty, err := MarshalJSONIndent(v, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if vp, err := UnmarshalJSON(pretty); err != nil || !reflect.DeepEqual(vp, v) {
			t.Fatalf("indented output reads back as %#v, %v", vp, err)
		}
	})
}
