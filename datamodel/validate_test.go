package datamodel

import (
	"errors"
	"math"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"
)

func TestValidate(t *testing.T) {
	link := jsonTestLink(t, jsonTestCBORCID)
	raw := jsonTestLink(t, jsonTestRawCID)
	blob := Blob{Ref: raw, MimeType: "image/png", Size: 3}
	tests := []struct {
		rule string
		in   any
		err  error // nil: valid
		path string
	}{
		{"scalars", []any{nil, true, int64(1), "s", Bytes{1}, []byte{}, link, cid.Cid(link)}, nil, ""},
		{"all Go integer types", []any{int(1), int8(1), int16(1), int32(1), uint(1), uint8(1), uint16(1), uint32(1), uint64(math.MaxInt64)}, nil, ""},
		{"rule 13: blobs in both forms and a blob-shaped map", map[string]any{
			"a": blob, "b": &blob, "c": Blob{Ref: raw, MimeType: "a/b", Legacy: true},
			"d": map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(0)},
		}, nil, ""},
		{"rule 13: size 0 is valid", Blob{Ref: raw, MimeType: "a/b"}, nil, ""},
		{"rule 11: other $ keys are kept", map[string]any{"$type": "x.y.z", "$other": int64(1)}, nil, ""},
		{"no floats", map[string]any{"a": map[string]any{"b": 1.0}}, ErrFloat, "/a/b"},
		{"uint64 beyond int64", []any{uint64(math.MaxInt64) + 1}, ErrIntegerRange, "/0"},
		{"invalid UTF-8", []any{"ok", "\xc3"}, ErrInvalidUTF8, "/1"},
		{"invalid UTF-8 key", map[string]any{"\xc3": 1}, ErrInvalidUTF8, "/\xc3"},
		{"Go types outside the data model", map[string]any{"t": struct{}{}}, ErrUnsupported, "/t"},
		{"map[string]string is not the data model's map", map[string]string{}, ErrUnsupported, ""},
		{"rule 12: undefined link", map[string]any{"l": Link{}}, ErrInvalidCID, "/l"},
		{"rule 11: $type null", map[string]any{"r": map[string]any{"$type": nil}}, ErrType, "/r/$type"},
		{"rule 11: $type empty", map[string]any{"$type": ""}, ErrType, "/$type"},
		{"rule 11: $type wrong type", []any{map[string]any{"$type": int64(123)}}, ErrType, "/0/$type"},
		{"rule 10: map with $link key", map[string]any{"$link": "x"}, ErrLink, "/$link"},
		{"rule 10: map with $bytes key", map[string]any{"x": map[string]any{"$bytes": "AQ", "y": 1}}, ErrBytes, "/x/$bytes"},
		{"rule 13: blob with empty mimeType", Blob{Ref: raw}, ErrBlob, "/mimeType"},
		{"rule 13: blob with negative size", []any{Blob{Ref: raw, MimeType: "a/b", Size: -1}}, ErrBlob, "/0/size"},
		{"rule 13: blob without ref", Blob{MimeType: "a/b"}, ErrBlob, "/ref"},
		{"rule 13: blob-typed map missing size", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "x": 1}, ErrBlob, "/x"},
		{"rule 13: blob-typed map with 3 keys", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b"}, ErrBlob, ""},
		{"rule 13: blob-typed map with a string ref", map[string]any{"$type": "blob", "ref": jsonTestRawCID, "mimeType": "a/b", "size": 1}, ErrBlob, "/ref"},
		{"rule 13: blob-typed map with negative size", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": -1}, ErrBlob, "/size"},
		{"rule 14: depth 32", jsonNestedValue(32), nil, ""},
		{"rule 14: depth 33", jsonNestedValue(33), ErrTooDeep, strings.Repeat("/0", 32)},
		{"rule 14: a blob is one level", jsonNestedWrap(32, blob), ErrTooDeep, strings.Repeat("/0", 32)},
		{"rule 14: a link is not a level", jsonNestedWrap(32, link), nil, ""},
		{"rule 14: key of 8192 bytes", map[string]any{strings.Repeat("k", 8192): 1}, nil, ""},
		{"rule 14: key of 8193 bytes", map[string]any{strings.Repeat("k", 8193): 1}, ErrKeyTooLong, "/" + strings.Repeat("k", 8193)},
		{"rule 14: 131073 elements", make([]any, 131073), ErrTooManyElements, ""},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			err := Validate(tc.in)
			if tc.err == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				// Valid means both encoders accept it.
				if _, err := MarshalJSON(tc.in); err != nil {
					t.Errorf("MarshalJSON refuses a valid value: %v", err)
				}
				if _, err := MarshalCBOR(tc.in); err != nil {
					t.Errorf("MarshalCBOR refuses a valid value: %v", err)
				}
				return
			}
			var e *Error
			if !errors.Is(err, tc.err) || !errors.As(err, &e) || e.Path != tc.path || e.Offset != -1 {
				t.Fatalf("Validate = %v; want %v at %q", err, tc.err, tc.path)
			}
			if !strings.Contains(err.Error(), tc.err.Error()) {
				t.Errorf("message %q does not name the rule", err)
			}
		})
	}
}

// jsonNestedWrap puts v inside n arrays.
func jsonNestedWrap(n int, v any) any {
	for range n {
		v = []any{v}
	}
	return v
}

func TestValidateLimitsOption(t *testing.T) {
	v := map[string]any{"abcdef": []any{int64(1), int64(2)}}
	tests := []struct {
		rule   string
		limits Limits
		err    error
	}{
		{"defaults", Limits{}, nil},
		{"rule 14: MaxKeyLen", Limits{MaxKeyLen: 5}, ErrKeyTooLong},
		{"rule 14: MaxElements", Limits{MaxElements: 1}, ErrTooManyElements},
		{"rule 14: MaxDepth", Limits{MaxDepth: 1}, ErrTooDeep},
		{"rule 14: exactly at the limits", Limits{MaxKeyLen: 6, MaxElements: 2, MaxDepth: 2}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			if err := Validate(v, WithLimits(tc.limits)); !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("Validate = %v, want %v", err, tc.err)
			}
		})
	}
}

func TestValidateRecord(t *testing.T) {
	raw := jsonTestLink(t, jsonTestRawCID)
	tests := []struct {
		rule string
		in   any
		err  error
	}{
		{"a map is a record", map[string]any{"$type": "x.y.z"}, nil},
		{"an empty map is a record", map[string]any{}, nil},
		{"a string is not", "blah", ErrNotRecord},
		{"null is not", nil, ErrNotRecord},
		{"an array is not", []any{}, ErrNotRecord},
		{"a blob is not", Blob{Ref: raw, MimeType: "a/b"}, ErrNotRecord},
		{"a link is not", raw, ErrNotRecord},
		{"the rest of Validate applies", map[string]any{"a": 1.5}, ErrFloat},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			err := ValidateRecord(tc.in)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("ValidateRecord = %v, want %v", err, tc.err)
			}
		})
	}
}

// BenchmarkValidate checks the decoded realistic records.
func BenchmarkValidate(b *testing.B) {
	for _, name := range jsonRecordNames {
		js, _ := jsonReadRecord(b, name)
		v, err := UnmarshalJSON(js)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := ValidateRecord(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
