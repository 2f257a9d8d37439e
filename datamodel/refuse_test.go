package datamodel

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"
)

// refusers are the entry points that take a Go value and must refuse the same values with the
// same sentinel and path: both encoders, in every form, and Validate. What they refuse is what
// the decoders refuse, so that whatever they accept reads back.
var refusers = []struct {
	name string
	f    func(any) ([]byte, error)
}{
	{"MarshalCBOR", func(v any) ([]byte, error) { return MarshalCBOR(v) }},
	{"AppendCBOR", func(v any) ([]byte, error) { return AppendCBOR(nil, v) }},
	{"MarshalJSON", func(v any) ([]byte, error) { return MarshalJSON(v) }},
	{"MarshalJSONIndent", func(v any) ([]byte, error) { return MarshalJSONIndent(v, "", "  ") }},
	{"AppendJSON", func(v any) ([]byte, error) { return AppendJSON(nil, v) }},
	{"Validate", func(v any) ([]byte, error) { return nil, Validate(v) }},
}

// TestRefuse is the one table of Go values outside the data model: every entry point of
// refusers refuses each with an *Error matching the sentinel, with the JSON Pointer of the bad
// value, Offset -1, a message that names the rule, and no bytes.
func TestRefuse(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	v0, err := cid.Decode("QmY7Yh4UquoXHLPFo2XbhXkhBvFoPwmQUSa92pxnxjQuPU")
	if err != nil {
		t.Fatal(err)
	}
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
	cyclicMap := map[string]any{}
	cyclicMap["self"] = cyclicMap
	cyclicArray := []any{nil}
	cyclicArray[0] = cyclicArray
	type refuseCase struct {
		rule string
		v    any
		err  error
		path string
	}
	tests := []refuseCase{
		// Go values outside the data model.
		{"no floats", map[string]any{"a": []any{1.5}}, ErrFloat, "/a/0"},
		{"no integral floats either", 2.0, ErrFloat, ""},
		{"no float32", float32(1), ErrFloat, ""},
		{"no NaN", math.NaN(), ErrFloat, ""},
		{"uint64 beyond int64", map[string]any{"n": uint64(math.MaxInt64) + 1}, ErrIntegerRange, "/n"},
		{"invalid UTF-8 string", []any{"ok", "a\xffb"}, ErrInvalidUTF8, "/1"},
		{"invalid UTF-8 key", map[string]any{"\xff": 1}, ErrInvalidUTF8, "/\xff"},
		// Go slices, maps and structs of data-model values are data-model values (govalue.go):
		// refused are the Go types that have no data-model form, at their path.
		{"Go chan", map[string]any{"x": []any{make(chan int)}}, ErrUnsupported, "/x/0"},
		{"Go func in a struct", map[string]any{"x": struct{ F func() }{}}, ErrUnsupported, "/x/F"},
		{"float in a Go slice", map[string]any{"x": []float64{1}}, ErrFloat, "/x/0"},
		{"map with int keys", map[int]any{1: 1}, ErrKeyNotString, ""},
		{"map with int keys in a Go slice", []map[int]string{nil}, ErrKeyNotString, "/0"},
		{"uint64 beyond int64 in a Go map", map[string]uint64{"u": 1 << 63}, ErrIntegerRange, "/u"},
		{"path escapes ~ and /", map[string]any{"a/b~": []any{nil, 1.5}}, ErrFloat, "/a~1b~0/1"},
		// Rule 12: links.
		{"rule 12: undefined Link", []any{Link{}}, ErrInvalidCID, "/0"},
		{"rule 12: undefined cid.Cid", map[string]any{"l": cid.Undef}, ErrInvalidCID, "/l"},
		{"rule 12: CIDv0 link", Link(v0), ErrInvalidCID, ""},
		// Rule 10: reserved keys.
		{"rule 10: a $link key at the top", map[string]any{"$link": "x"}, ErrLink, "/$link"},
		{"rule 10: a $link key holding a link", map[string]any{"$link": ref}, ErrLink, "/$link"},
		{"rule 10: a $link key among others", map[string]any{"a": int64(1), "$link": "x"}, ErrLink, "/$link"},
		{"rule 10: a nested $link key", map[string]any{"a": map[string]any{"$link": "x"}}, ErrLink, "/a/$link"},
		{"rule 10: a $link key in an array", []any{nil, map[string]any{"$link": nil}}, ErrLink, "/1/$link"},
		{"rule 10: a $bytes key", map[string]any{"$bytes": "AQID"}, ErrBytes, "/$bytes"},
		{"rule 10: a $bytes key holding bytes", map[string]any{"$bytes": Bytes{1}}, ErrBytes, "/$bytes"},
		{"rule 10: a $bytes key among others", map[string]any{"x": map[string]any{"$bytes": "AQ", "y": 1}}, ErrBytes, "/x/$bytes"},
		{"rule 10: a nested $bytes key", map[string]any{"a~/": []any{map[string]any{"$bytes": ""}}}, ErrBytes, "/a~0~1/0/$bytes"},
		// Rule 11: $type.
		{"rule 11: $type an integer", map[string]any{"$type": int64(1)}, ErrType, "/$type"},
		{"rule 11: $type empty", map[string]any{"a": map[string]any{"$type": ""}}, ErrType, "/a/$type"},
		{"rule 11: $type null", map[string]any{"$type": nil}, ErrType, "/$type"},
		{"rule 11: $type a map", map[string]any{"$type": map[string]any{}}, ErrType, "/$type"},
		{"rule 11: $type in an array", []any{map[string]any{"$type": int64(123)}}, ErrType, "/0/$type"},
		// Rule 13: maps typed "blob".
		{"rule 13: blob map without ref", blobMap("ref", nil), ErrBlob, ""},
		{"rule 13: blob map without ref, with another key", blobMap("ref", nil, "x", int64(1)), ErrBlob, "/x"},
		{"rule 13: blob map with a string ref", blobMap("ref", cborTestBlobLinkString), ErrBlob, "/ref"},
		{"rule 13: blob map with a CIDv0 ref", blobMap("ref", Link(v0)), ErrInvalidCID, "/ref"},
		{"rule 13: blob map with an extra key", blobMap("x", int64(1)), ErrBlob, "/x"},
		{"rule 13: blob map with a $link key", blobMap("$link", "x"), ErrLink, "/$link"},
		{"rule 13: blob map without size", blobMap("size", nil), ErrBlob, ""},
		{"rule 13: blob map with a negative size", blobMap("size", int64(-1)), ErrBlob, "/size"},
		{"rule 13: blob map with a string size", blobMap("size", "1"), ErrBlob, "/size"},
		{"rule 13: blob map with an empty mimeType", blobMap("mimeType", ""), ErrBlob, "/mimeType"},
		{"rule 13: blob map with a bytes mimeType", blobMap("mimeType", Bytes("a/b")), ErrBlob, "/mimeType"},
		{"rule 13: nested blob map without mimeType", map[string]any{"b": blobMap("mimeType", nil)}, ErrBlob, "/b"},
		// Rule 13: Blob values.
		{"rule 13: Blob with an empty mimeType", map[string]any{"b": Blob{Ref: ref}}, ErrBlob, "/b/mimeType"},
		{"rule 13: Blob with invalid UTF-8 mimeType", Blob{Ref: ref, MimeType: "\xff"}, ErrInvalidUTF8, "/mimeType"},
		{"rule 13: Blob with a negative size", []any{Blob{Ref: ref, MimeType: "a/b", Size: -1}}, ErrBlob, "/0/size"},
		{"rule 13: Blob with an undefined ref", Blob{MimeType: "a/b"}, ErrBlob, "/ref"},
		{"rule 13: Blob with a CIDv0 ref", Blob{Ref: Link(v0), MimeType: "a/b"}, ErrInvalidCID, "/ref"},
		{"rule 13: legacy Blob with a CIDv0 ref", Blob{Ref: Link(v0), MimeType: "a/b", Legacy: true}, ErrBlob, "/cid"},
		// Rule 14: limits (the default ones; TestEncodersElementAndKeyLimits raises them).
		{"rule 14: nesting deeper than 32", jsonNestedValue(33), ErrTooDeep, strings.Repeat("/0", 32)},
		{"rule 14: a Blob is one level", cborTestWrap(Blob{Ref: ref, MimeType: "a/b"}, DefaultMaxDepth), ErrTooDeep, strings.Repeat("/0", DefaultMaxDepth)},
		{"rule 14: a cyclic map is caught by the depth limit", cyclicMap, ErrTooDeep, strings.Repeat("/self", DefaultMaxDepth)},
		{"rule 14: a cyclic array is caught by the depth limit", cyclicArray, ErrTooDeep, strings.Repeat("/0", DefaultMaxDepth)},
		{"rule 14: key of 8193 bytes", map[string]any{strings.Repeat("k", 8193): 1}, ErrKeyTooLong, "/" + strings.Repeat("k", 8193)},
		{"rule 14: 131073 elements", make([]any, 131073), ErrTooManyElements, ""},
	}
	if strconv.IntSize == 64 { // a uint of 32 bits is always within int64
		tests = append(tests, refuseCase{"uint beyond int64", uint(math.MaxUint), ErrIntegerRange, ""})
	}
	for _, tt := range tests {
		for _, r := range refusers {
			got, err := r.f(tt.v)
			var e *Error
			if !errors.Is(err, tt.err) || !errors.As(err, &e) {
				t.Errorf("%s: %s = (%q, %v), want an *Error matching %v", tt.rule, r.name, got, err, tt.err)
				continue
			}
			if e.Path != tt.path || e.Offset != -1 {
				t.Errorf("%s: %s: path %q offset %d, want path %q offset -1 (%v)", tt.rule, r.name, e.Path, e.Offset, tt.path, err)
			}
			if !strings.Contains(err.Error(), tt.err.Error()) {
				t.Errorf("%s: %s: message %q does not name the rule", tt.rule, r.name, err)
			}
			if len(got) != 0 {
				t.Errorf("%s: %s returned bytes with the error", tt.rule, r.name)
			}
		}
	}
}
