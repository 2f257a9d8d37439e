package datamodel

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	cid "github.com/ipfs/go-cid"
)

func TestMarshalJSON(t *testing.T) {
	link := jsonTestLink(t, jsonTestCBORCID)
	raw := jsonTestLink(t, jsonTestRawCID)
	tests := []struct {
		rule string
		in   any
		want string
	}{
		{"null", nil, `null`},
		{"booleans", []any{true, false}, `[true,false]`},
		{"int64 edges", []any{int64(math.MaxInt64), int64(math.MinInt64)}, `[9223372036854775807,-9223372036854775808]`},
		{"other Go integer types", []any{int(-1), int8(-2), int16(3), int32(4), uint(5), uint8(6), uint16(7), uint32(8), uint64(math.MaxInt64)},
			`[-1,-2,3,4,5,6,7,8,9223372036854775807]`},
		{"string escapes", "\"\\\n\r\t\b\f\x00\x1f\x7f/<>&", `"\"\\\n\r\t\b\f\u0000\u001f` + "\x7f" + `/<>&"`},
		{"non-ASCII written as UTF-8", "é😀\u2028", "\"é😀\u2028\""},
		{"empty containers", map[string]any{"a": []any{}, "b": map[string]any{}}, `{"a":[],"b":{}}`},
		{"keys sorted bytewise", map[string]any{"b": 1, "a": 2, "$type": "x.y.z", "aa": 3, "B": 4},
			`{"$type":"x.y.z","B":4,"a":2,"aa":3,"b":1}`},
		{"rule 10: $bytes without padding", Bytes{1, 2}, `{"$bytes":"AQI"}`},
		{"rule 10: []byte is bytes", []byte{0xff}, `{"$bytes":"/w"}`},
		{"rule 10: empty bytes", Bytes{}, `{"$bytes":""}`},
		{"rule 10: written canonical (read leniently from \"123\")", Bytes{0xd7, 0x6d}, `{"$bytes":"120"}`},
		{"rule 12: link in base32", link, `{"$link":"` + jsonTestCBORCID + `"}`},
		{"rule 12: cid.Cid is a link", cid.Cid(raw), `{"$link":"` + jsonTestRawCID + `"}`},
		{"rule 13: blob", Blob{Ref: raw, MimeType: "image/jpeg", Size: 10000},
			`{"$type":"blob","mimeType":"image/jpeg","ref":{"$link":"` + jsonTestRawCID + `"},"size":10000}`},
		{"rule 13: *Blob", &Blob{Ref: raw, MimeType: "a/b"},
			`{"$type":"blob","mimeType":"a/b","ref":{"$link":"` + jsonTestRawCID + `"},"size":0}`},
		{"rule 13: legacy blob keeps its form", Blob{Ref: raw, MimeType: "image/png", Legacy: true},
			`{"cid":"` + jsonTestRawCID + `","mimeType":"image/png"}`},
		{"rule 13: blob-shaped map", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(1)},
			`{"$type":"blob","mimeType":"a/b","ref":{"$link":"` + jsonTestRawCID + `"},"size":1}`},
		{"rule 11: other $ keys pass through", map[string]any{"$foo": 1}, `{"$foo":1}`},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			got, err := MarshalJSON(tc.in)
			if err != nil {
				t.Fatalf("MarshalJSON: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("MarshalJSON\n got %s\nwant %s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("output is not valid JSON: %s", got)
			}
			prefix := []byte("xx")
			app, err := AppendJSON(prefix, tc.in)
			if err != nil || string(app) != "xx"+tc.want {
				t.Errorf("AppendJSON = %s, %v", app, err)
			}
			// What the encoder writes, the decoder reads back as an equal value.
			back, err := UnmarshalJSON(got)
			if err != nil {
				t.Fatalf("UnmarshalJSON(MarshalJSON(v)): %v", err)
			}
			again, err := MarshalJSON(back)
			if err != nil || string(again) != tc.want {
				t.Errorf("re-encoding the decoded value = %s, %v", again, err)
			}
		})
	}
}

// jsonNestedValue returns n arrays nested in each other.
func jsonNestedValue(n int) any {
	var v any = []any{}
	for i := 1; i < n; i++ {
		v = []any{v}
	}
	return v
}

func TestMarshalJSONDepth32(t *testing.T) {
	v := jsonNestedValue(32)
	out, err := MarshalJSON(v)
	if err != nil {
		t.Fatalf("32 levels: %v", err)
	}
	if _, err := UnmarshalJSON(out); err != nil {
		t.Fatalf("reading back 32 levels: %v", err)
	}
}

func TestMarshalJSONIndent(t *testing.T) {
	raw := jsonTestLink(t, jsonTestRawCID)
	v := map[string]any{
		"text":  "hi",
		"empty": []any{},
		"obj":   map[string]any{},
		"list":  []any{int64(1), Bytes{1}},
		"blob":  Blob{Ref: raw, MimeType: "a/b", Size: 2},
	}
	got, err := MarshalJSONIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "blob": {
    "$type": "blob",
    "mimeType": "a/b",
    "ref": {
      "$link": "` + jsonTestRawCID + `"
    },
    "size": 2
  },
  "empty": [],
  "list": [
    1,
    {
      "$bytes": "AQ"
    }
  ],
  "obj": {},
  "text": "hi"
}`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// The same layout as encoding/json's, prefix included, and with an empty prefix and indent:
	// each member still on a line of its own, as json.MarshalIndent(v, "", "") writes it. A struct
	// (which MarshalJSON writes with the typed encoder) too.
	type post struct {
		Text  string `json:"text"`
		Langs []any  `json:"langs"`
	}
	for _, val := range []any{v, post{Text: "hi", Langs: []any{"en"}}, &post{}} {
		compact, err := MarshalJSON(val)
		if err != nil {
			t.Fatal(err)
		}
		for _, layout := range [][2]string{{"", "\t"}, {"> ", "\t"}, {"", ""}, {"> ", ""}} {
			var buf bytes.Buffer
			if err := json.Indent(&buf, compact, layout[0], layout[1]); err != nil {
				t.Fatal(err)
			}
			got, err := MarshalJSONIndent(val, layout[0], layout[1])
			if err != nil || string(got) != buf.String() {
				t.Errorf("%T, prefix %q, indent %q: got\n%q\nencoding/json.Indent gives\n%q", val, layout[0], layout[1], got, buf.String())
			}
		}
	}
	if got, _ := MarshalJSONIndent(map[string]any{"a": int64(1)}, "", ""); string(got) != "{\n\"a\": 1\n}" {
		t.Errorf("MarshalJSONIndent(prefix and indent empty) = %q, want %q", got, "{\n\"a\": 1\n}")
	}
}

// A decoded record re-encodes to JSON that decodes to the same value.
func TestJSONRoundTripInterop(t *testing.T) {
	for _, file := range []string{"data-model-fixtures.json", "data-model-valid.json"} {
		for i, c := range interopCases(t, file) {
			v, err := UnmarshalJSON(c.JSON)
			if err != nil {
				t.Fatalf("%s #%d: %v", file, i, err)
			}
			out, err := MarshalJSON(v)
			if err != nil {
				t.Fatalf("%s #%d: MarshalJSON: %v", file, i, err)
			}
			back, err := UnmarshalJSON(out)
			if err != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("%s #%d: round trip gives %#v, %v", file, i, back, err)
			}
		}
	}
}
