package datamodel

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestEncodersRefuseWhatDecodersRefuse checks that MarshalCBOR, AppendCBOR, MarshalJSON,
// AppendJSON and Validate refuse every map with reserved keys that the decoders refuse, with the
// same sentinel and the JSON Pointer of the bad key or map, instead of writing bytes that
// UnmarshalCBOR or UnmarshalJSON would then reject.
func TestEncodersRefuseWhatDecodersRefuse(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	blobMap := func(kv ...any) map[string]any {
		m := map[string]any{"$type": "blob", "ref": ref, "mimeType": "a/b", "size": int64(1)}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
				continue
			}
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		rule string
		v    any
		err  error
		path string
	}{
		{"rule 10: a $link key at the top", map[string]any{"$link": "x"}, ErrLink, "/$link"},
		{"rule 10: a $link key holding a link", map[string]any{"$link": ref}, ErrLink, "/$link"},
		{"rule 10: a $link key among others", map[string]any{"a": int64(1), "$link": "x"}, ErrLink, "/$link"},
		{"rule 10: a nested $link key", map[string]any{"a": map[string]any{"$link": "x"}}, ErrLink, "/a/$link"},
		{"rule 10: a $link key in an array", []any{nil, map[string]any{"$link": nil}}, ErrLink, "/1/$link"},
		{"rule 10: a $bytes key", map[string]any{"$bytes": "AQID"}, ErrBytes, "/$bytes"},
		{"rule 10: a $bytes key holding bytes", map[string]any{"$bytes": Bytes{1}}, ErrBytes, "/$bytes"},
		{"rule 10: a nested $bytes key", map[string]any{"a~/": []any{map[string]any{"$bytes": ""}}}, ErrBytes, "/a~0~1/0/$bytes"},
		{"rule 11: $type an integer", map[string]any{"$type": int64(1)}, ErrType, "/$type"},
		{"rule 11: $type empty", map[string]any{"a": map[string]any{"$type": ""}}, ErrType, "/a/$type"},
		{"rule 11: $type null", map[string]any{"$type": nil}, ErrType, "/$type"},
		{"rule 11: $type a map", map[string]any{"$type": map[string]any{}}, ErrType, "/$type"},
		{"rule 13: blob map without ref", blobMap("ref", nil), ErrBlob, ""},
		{"rule 13: blob map with a string ref", blobMap("ref", cborTestBlobLinkString), ErrBlob, "/ref"},
		{"rule 13: blob map with an extra key", blobMap("x", int64(1)), ErrBlob, "/x"},
		{"rule 13: blob map with a $link key", blobMap("$link", "x"), ErrLink, "/$link"},
		{"rule 13: blob map without size", blobMap("size", nil), ErrBlob, ""},
		{"rule 13: blob map with a negative size", blobMap("size", int64(-1)), ErrBlob, "/size"},
		{"rule 13: blob map with a string size", blobMap("size", "1"), ErrBlob, "/size"},
		{"rule 13: blob map with an empty mimeType", blobMap("mimeType", ""), ErrBlob, "/mimeType"},
		{"rule 13: blob map with a bytes mimeType", blobMap("mimeType", Bytes("a/b")), ErrBlob, "/mimeType"},
		{"rule 13: nested blob map without mimeType", map[string]any{"b": blobMap("mimeType", nil)}, ErrBlob, "/b"},
	}
	encoders := []struct {
		name string
		enc  func(any) ([]byte, error)
	}{
		{"MarshalCBOR", func(v any) ([]byte, error) { return MarshalCBOR(v) }},
		{"AppendCBOR", func(v any) ([]byte, error) { return AppendCBOR(nil, v) }},
		{"MarshalJSON", func(v any) ([]byte, error) { return MarshalJSON(v) }},
		{"MarshalJSONIndent", func(v any) ([]byte, error) { return MarshalJSONIndent(v, "", "  ") }},
		{"AppendJSON", func(v any) ([]byte, error) { return AppendJSON(nil, v) }},
		{"Validate", func(v any) ([]byte, error) { return nil, Validate(v) }},
	}
	for _, tt := range tests {
		for _, enc := range encoders {
			got, err := enc.enc(tt.v)
			var e *Error
			if !errors.Is(err, tt.err) || !errors.As(err, &e) {
				t.Errorf("%s: %s = (%q, %v), want an *Error matching %v", tt.rule, enc.name, got, err, tt.err)
				continue
			}
			if e.Path != tt.path || e.Offset != -1 {
				t.Errorf("%s: %s: path %q offset %d, want path %q offset -1 (%v)", tt.rule, enc.name, e.Path, e.Offset, tt.path, err)
			}
			if len(got) != 0 {
				t.Errorf("%s: %s returned bytes with the error", tt.rule, enc.name)
			}
		}
	}
}

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
