package datamodel

import (
	"errors"
	"math"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"
)

// TestValidate: what Validate accepts, both encoders accept (what it refuses is in TestRefuse).
func TestValidate(t *testing.T) {
	link := jsonTestLink(t, jsonTestCBORCID)
	raw := jsonTestLink(t, jsonTestRawCID)
	blob := Blob{Ref: raw, MimeType: "image/png", Size: 3}
	tests := []struct {
		rule string
		in   any
	}{
		{"scalars", []any{nil, true, int64(1), "s", Bytes{1}, []byte{}, link, cid.Cid(link)}},
		{"all Go integer types", []any{int(1), int8(1), int16(1), int32(1), uint(1), uint8(1), uint16(1), uint32(1), uint64(math.MaxInt64)}},
		{"rule 13: blobs in both forms and a blob-shaped map", map[string]any{
			"a": blob, "b": &blob, "c": Blob{Ref: raw, MimeType: "a/b", Legacy: true},
			"d": map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(0)},
		}},
		{"rule 13: size 0 is valid", Blob{Ref: raw, MimeType: "a/b"}},
		{"rule 11: other $ keys are kept", map[string]any{"$type": "x.y.z", "$other": int64(1)}},
		{"rule 14: depth 32", jsonNestedValue(32)},
		{"rule 14: a link is not a level", jsonNestedWrap(32, link)},
		{"rule 14: key of 8192 bytes", map[string]any{strings.Repeat("k", 8192): 1}},
	}
	for _, tc := range tests {
		if err := Validate(tc.in); err != nil {
			t.Errorf("%s: Validate: %v", tc.rule, err)
		}
		if _, err := MarshalJSON(tc.in); err != nil {
			t.Errorf("%s: MarshalJSON refuses a valid value: %v", tc.rule, err)
		}
		if _, err := MarshalCBOR(tc.in); err != nil {
			t.Errorf("%s: MarshalCBOR refuses a valid value: %v", tc.rule, err)
		}
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
		{"a nil map is null, so not a record", map[string]any(nil), ErrNotRecord},
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
	for _, name := range recordNames {
		js, _ := readRecord(b, name)
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
