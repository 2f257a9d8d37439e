package datamodel

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestEncodersWriteReservedKeysTheDecodersRead checks the other side: maps with reserved keys
// that the decoders accept are written, and read back as the value written. A plain map shaped
// exactly as a blob is written with the Blob's bytes (it is the same data-model value), and reads
// back as that Blob.
func TestEncodersWriteReservedKeysTheDecodersRead(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	blob := Blob{Ref: ref, MimeType: "a/b", Size: 7}
	tests := []struct {
		rule string
		v    any
		want any // the decoded value, if not v itself
	}{
		{"rule 11: other $-prefixed keys pass through", map[string]any{"$other": "x", "$": int64(1), "$linkx": nil, "$byte": "y"}, nil},
		{"rule 11: $type a non-empty string", map[string]any{"$type": "app.bsky.feed.post", "text": "hi"}, nil},
		{"rule 13: a map shaped as a blob is that blob", map[string]any{"a": map[string]any{"$type": "blob", "ref": ref, "mimeType": "a/b", "size": int64(7)}}, map[string]any{"a": blob}},
		{"rule 13: size of any Go integer type", map[string]any{"$type": "blob", "ref": ref, "mimeType": "a/b", "size": uint8(7)}, blob},
	}
	for _, tt := range tests {
		want := tt.want
		if want == nil {
			want = tt.v
		}
		cb, err := MarshalCBOR(tt.v)
		if err != nil {
			t.Errorf("%s: MarshalCBOR: %v", tt.rule, err)
			continue
		}
		if got, err := UnmarshalCBOR(cb); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: UnmarshalCBOR(MarshalCBOR(v)) = %#v, %v; want %#v", tt.rule, got, err, want)
		}
		wantCBOR, err := MarshalCBOR(want)
		if err != nil || string(wantCBOR) != string(cb) {
			t.Errorf("%s: MarshalCBOR(v) = %x, MarshalCBOR(decoded) = %x, %v", tt.rule, cb, wantCBOR, err)
		}
		js, err := MarshalJSON(tt.v)
		if err != nil {
			t.Errorf("%s: MarshalJSON: %v", tt.rule, err)
			continue
		}
		if got, err := UnmarshalJSON(js); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: UnmarshalJSON(MarshalJSON(v)) = %#v, %v; want %#v (JSON %s)", tt.rule, got, err, want, strings.TrimSpace(string(js)))
		}
		if err := Validate(tt.v); err != nil {
			t.Errorf("%s: Validate: %v", tt.rule, err)
		}
	}
}

// TestEncodersElementAndKeyLimits: the encoders refuse arrays and maps of more than MaxElements
// elements and keys longer than MaxKeyLen, which the decoders with the same limits would refuse
// (DECISIONS rule 14), and write them when the limits are raised, for decoders with the same
// raised limits to read back.
func TestEncodersElementAndKeyLimits(t *testing.T) {
	longKey := strings.Repeat("k", DefaultMaxKeyLen+1)
	bigArray := make([]any, DefaultMaxElements+1)
	bigMap := make(map[string]any, DefaultMaxElements+1)
	for i := range DefaultMaxElements + 1 {
		bigMap[strconv.Itoa(i)] = nil
	}
	raised := WithLimits(Limits{MaxElements: DefaultMaxElements + 1, MaxKeyLen: DefaultMaxKeyLen + 1,
		MaxCBORSize: 4 << 20, MaxJSONSize: 4 << 20})
	tests := []struct {
		rule string
		v    any
		err  error
		path string
	}{
		{"rule 14: key one byte longer than MaxKeyLen", map[string]any{"a": map[string]any{longKey: int64(1)}}, ErrKeyTooLong, "/a/" + longKey},
		{"rule 14: key at MaxKeyLen is fine", map[string]any{longKey[1:]: int64(1)}, nil, ""},
		{"rule 14: array of MaxElements+1 elements", []any{bigArray}, ErrTooManyElements, "/0"},
		{"rule 14: map of MaxElements+1 entries", map[string]any{"m": bigMap}, ErrTooManyElements, "/m"},
		{"rule 14: array of MaxElements elements is fine", bigArray[1:], nil, ""},
	}
	encoders := map[string]func(any, ...Option) ([]byte, error){
		"MarshalCBOR": MarshalCBOR,
		"AppendCBOR":  func(v any, opts ...Option) ([]byte, error) { return AppendCBOR(nil, v, opts...) },
		"Validate":    func(v any, opts ...Option) ([]byte, error) { return nil, Validate(v, opts...) },
	}
	for name, enc := range encTestJSONEncoders {
		encoders[name] = enc
	}
	for _, tt := range tests {
		for name, enc := range encoders {
			_, err := enc(tt.v)
			if tt.err == nil {
				if err != nil {
					t.Errorf("%s: %s: %v", tt.rule, name, err)
				}
				continue
			}
			var e *Error
			if !errors.Is(err, tt.err) || !errors.As(err, &e) || e.Path != tt.path || e.Offset != -1 {
				t.Errorf("%s: %s without options: %.200v, want %v at %.40q", tt.rule, name, err, tt.err, tt.path)
			}
		}
		if tt.err == nil {
			continue
		}
		cb, err := MarshalCBOR(tt.v, raised)
		if err != nil {
			t.Errorf("%s: MarshalCBOR with raised limits: %.200v", tt.rule, err)
			continue
		}
		if back, err := UnmarshalCBOR(cb, raised); err != nil || !reflect.DeepEqual(back, tt.v) {
			t.Errorf("%s: UnmarshalCBOR with raised limits: %.200v", tt.rule, err)
		}
		js, err := MarshalJSON(tt.v, raised)
		if err != nil {
			t.Errorf("%s: MarshalJSON with raised limits: %.200v", tt.rule, err)
			continue
		}
		if back, err := UnmarshalJSON(js, raised); err != nil || !reflect.DeepEqual(back, tt.v) {
			t.Errorf("%s: UnmarshalJSON with raised limits: %.200v", tt.rule, err)
		}
		if err := Validate(tt.v, raised); err != nil {
			t.Errorf("%s: Validate with raised limits: %.200v", tt.rule, err)
		}
	}
}
