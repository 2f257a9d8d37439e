package datamodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
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

func TestMarshalJSONRefuses(t *testing.T) {
	raw := jsonTestLink(t, jsonTestRawCID)
	v0, err := cid.Decode("QmY7Yh4UquoXHLPFo2XbhXkhBvFoPwmQUSa92pxnxjQuPU")
	if err != nil {
		t.Fatal(err)
	}
	cyclic := []any{nil}
	cyclic[0] = cyclic
	tests := []struct {
		rule string
		in   any
		err  error
		path string
	}{
		{"no floats", map[string]any{"a": []any{1.5}}, ErrFloat, "/a/0"},
		{"no integral floats either", float32(2), ErrFloat, ""},
		{"uint64 beyond int64", map[string]any{"n": uint64(math.MaxInt64 + 1)}, ErrIntegerRange, "/n"},
		{"invalid UTF-8 string", map[string]any{"s": "\xff"}, ErrInvalidUTF8, "/s"},
		{"invalid UTF-8 key", map[string]any{"\xff": 1}, ErrInvalidUTF8, "/\xff"},
		{"unsupported Go type", map[string]any{"x": struct{}{}}, ErrUnsupported, "/x"},
		{"map with other key type", map[int]any{}, ErrUnsupported, ""},
		{"nil *Blob", (*Blob)(nil), ErrUnsupported, ""},
		{"rule 12: undefined link", []any{Link{}}, ErrInvalidCID, "/0"},
		{"rule 12: CIDv0 link", Link(v0), ErrInvalidCID, ""},
		{"rule 11: empty $type", map[string]any{"a": map[string]any{"$type": ""}}, ErrType, "/a/$type"},
		{"rule 11: $type not a string", map[string]any{"$type": int64(1)}, ErrType, "/$type"},
		{"rule 10: map with a $link key", map[string]any{"$link": jsonTestCBORCID}, ErrLink, "/$link"},
		{"rule 10: map with a $bytes key", map[string]any{"$bytes": "AQI"}, ErrBytes, "/$bytes"},
		{"rule 13: blob with empty mimeType", map[string]any{"b": Blob{Ref: raw}}, ErrBlob, "/b/mimeType"},
		{"rule 13: blob with negative size", Blob{Ref: raw, MimeType: "a/b", Size: -1}, ErrBlob, "/size"},
		{"rule 13: blob with undefined ref", Blob{MimeType: "a/b"}, ErrBlob, "/ref"},
		{"rule 13: legacy blob with CIDv0", Blob{Ref: Link(v0), MimeType: "a/b", Legacy: true}, ErrBlob, "/cid"},
		{"rule 13: blob-typed map with an extra key", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": 1, "x": 1}, ErrBlob, "/x"},
		{"rule 13: blob-typed map with a string size", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": "1"}, ErrBlob, "/size"},
		{"rule 14: nesting deeper than 32", jsonNestedValue(33), ErrTooDeep, strings.Repeat("/0", 32)},
		{"rule 14: a cycle is caught by the depth limit", cyclic, ErrTooDeep, strings.Repeat("/0", 32)},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			for name, marshal := range map[string]func(any) ([]byte, error){
				"MarshalJSON":       func(v any) ([]byte, error) { return MarshalJSON(v) },
				"MarshalJSONIndent": func(v any) ([]byte, error) { return MarshalJSONIndent(v, "", "  ") },
				"AppendJSON":        func(v any) ([]byte, error) { return AppendJSON(nil, v) },
				"Validate":          func(v any) ([]byte, error) { return nil, Validate(v) },
			} {
				out, err := marshal(tc.in)
				var e *Error
				if !errors.Is(err, tc.err) || !errors.As(err, &e) || e.Path != tc.path {
					t.Fatalf("%s = %q, %v; want %v at %q", name, out, err, tc.err, tc.path)
				}
				if e.Offset != -1 {
					t.Errorf("%s: offset %d for a Go value, want -1", name, e.Offset)
				}
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
	// The same layout as encoding/json's, prefix included.
	compact, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", "> "} {
		var buf bytes.Buffer
		if err := json.Indent(&buf, compact, p, "\t"); err != nil {
			t.Fatal(err)
		}
		got, err := MarshalJSONIndent(v, p, "\t")
		if err != nil || string(got) != buf.String() {
			t.Errorf("prefix %q: got\n%s\nencoding/json.Indent gives\n%s", p, got, buf.String())
		}
	}
}

// A decoded record re-encodes to JSON that decodes to the same value.
func TestJSONRoundTripInterop(t *testing.T) {
	for _, file := range []string{"data-model-fixtures.json", "data-model-valid.json"} {
		for i, c := range jsonReadCases(t, file) {
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

// MarshalJSON allocates only its result; AppendJSON into a large enough buffer and Validate
// allocate nothing.
func TestMarshalJSONAllocs(t *testing.T) {
	v, err := UnmarshalJSON(jsonReadCases(t, "data-model-fixtures.json")[1].JSON)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MarshalJSON(v); err != nil {
		t.Fatal(err)
	}
	want := 1.0
	if cborRaceEnabled {
		want = 2 // the race detector makes sync.Pool drop buffers at random
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = MarshalJSON(v) }); n > want {
		t.Errorf("MarshalJSON: %v allocations, want at most %v", n, want)
	}
	buf := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() { _, _ = AppendJSON(buf, v) }); n > 0 {
		t.Errorf("AppendJSON into a large enough buffer: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Validate(v) }); n > 0 {
		t.Errorf("Validate: %v allocations, want 0", n)
	}
}
