package datamodel

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// safeDecoders are the entry points that read bytes and take options; under WithSafeIntegers
// each must refuse an unsafe integer with ErrUnsafeInteger at the same offset and path.
var safeDecoders = []struct {
	name string
	json bool // reads JSON, not CBOR
	f    func([]byte, ...Option) error
}{
	{"UnmarshalCBOR", false, func(b []byte, o ...Option) error { _, err := UnmarshalCBOR(b, o...); return err }},
	{"UnmarshalCBORPrefix", false, func(b []byte, o ...Option) error { _, _, err := UnmarshalCBORPrefix(b, o...); return err }},
	{"ScanCBOR", false, ScanCBOR},
	{"UnmarshalCBORStruct", false, func(b []byte, o ...Option) error { var v any; return UnmarshalCBORStruct(b, &v, o...) }},
	{"CBORToJSON", false, func(b []byte, o ...Option) error { _, err := CBORToJSON(b, o...); return err }},
	{"UnmarshalJSON", true, func(b []byte, o ...Option) error { _, err := UnmarshalJSON(b, o...); return err }},
	{"JSONToCBOR", true, func(b []byte, o ...Option) error { _, err := JSONToCBOR(b, o...); return err }},
}

// safeEncoders are the entry points that take a Go value and options.
var safeEncoders = []struct {
	name string
	f    func(any, ...Option) error
}{
	{"MarshalCBOR", func(v any, o ...Option) error { _, err := MarshalCBOR(v, o...); return err }},
	{"AppendCBOR", func(v any, o ...Option) error { _, err := AppendCBOR(nil, v, o...); return err }},
	{"MarshalJSON", func(v any, o ...Option) error { _, err := MarshalJSON(v, o...); return err }},
	{"MarshalJSONIndent", func(v any, o ...Option) error { _, err := MarshalJSONIndent(v, "", " ", o...); return err }},
	{"AppendJSON", func(v any, o ...Option) error { _, err := AppendJSON(nil, v, o...); return err }},
	{"Validate", Validate},
}

// TestSafeIntegers: under WithSafeIntegers every entry point refuses an integer outside
// ±(2^53−1) with ErrUnsafeInteger, located at the integer (offset for the decoders, path for
// all); without the option, every one accepts it (DECISIONS rule 10). The bounds themselves are
// accepted either way.
func TestSafeIntegers(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	blob := func(size int64) map[string]any {
		return map[string]any{"$type": "blob", "ref": ref, "mimeType": "a/b", "size": size}
	}
	tests := []struct {
		rule string
		v    any    // holds the integer n once
		n    int64  // the integer at fault; 0 for a row that must be accepted
		path string // where n sits
	}{
		{"rule 10: 2^53−1 is safe", int64(MaxSafeInteger), 0, ""},
		{"rule 10: −(2^53−1) is safe", int64(MinSafeInteger), 0, ""},
		{"rule 10: 2^53 at the top", int64(MaxSafeInteger + 1), MaxSafeInteger + 1, ""},
		{"rule 10: −2^53 at the top", int64(MinSafeInteger - 1), MinSafeInteger - 1, ""},
		{"rule 10: 2^53+1 in an array in a map", map[string]any{"a": []any{int64(1), int64(1<<53 + 1)}}, 1<<53 + 1, "/a/1"},
		{"rule 10: MaxInt64", map[string]any{"n": int64(math.MaxInt64)}, math.MaxInt64, "/n"},
		{"rule 10: MinInt64", []any{nil, int64(math.MinInt64)}, math.MinInt64, "/1"},
		{"rule 10: a 19-digit integer", map[string]any{"x": map[string]any{"y": int64(1e18)}}, 1e18, "/x/y"},
		{"rule 10 and 13: a safe blob size", blob(MaxSafeInteger), 0, ""},
		{"rule 10 and 13: a blob size of 2^53", map[string]any{"b": blob(1 << 53)}, 1 << 53, "/b/size"},
	}
	opt := WithSafeIntegers()
	for _, tt := range tests {
		cb, err := MarshalCBOR(tt.v)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		js, err := MarshalJSON(tt.v)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		nCBOR := cborAppendInt(nil, tt.n)
		nJSON := strconv.FormatInt(tt.n, 10)
		for _, d := range safeDecoders {
			in := cb
			if d.json {
				in = js
			}
			if err := d.f(in); err != nil {
				t.Errorf("%s: %s without the option: %v", tt.rule, d.name, err)
			}
			err := d.f(in, opt)
			if tt.n == 0 {
				if err != nil {
					t.Errorf("%s: %s: %v", tt.rule, d.name, err)
				}
				continue
			}
			want := bytes.Index(cb, nCBOR)
			if d.json {
				want = strings.Index(string(js), nJSON)
			}
			var e *Error
			if !errors.Is(err, ErrUnsafeInteger) || !errors.As(err, &e) {
				t.Errorf("%s: %s = %v, want ErrUnsafeInteger", tt.rule, d.name, err)
				continue
			}
			if e.Path != tt.path || e.Offset != want || e.Detail != nJSON {
				t.Errorf("%s: %s: path %q offset %d detail %q, want %q, %d, %q (%v)", tt.rule, d.name, e.Path, e.Offset, e.Detail, tt.path, want, nJSON, err)
			}
		}
		for _, enc := range safeEncoders {
			if err := enc.f(tt.v); err != nil {
				t.Errorf("%s: %s without the option: %v", tt.rule, enc.name, err)
			}
			err := enc.f(tt.v, opt)
			if tt.n == 0 {
				if err != nil {
					t.Errorf("%s: %s: %v", tt.rule, enc.name, err)
				}
				continue
			}
			var e *Error
			if !errors.Is(err, ErrUnsafeInteger) || !errors.As(err, &e) || e.Path != tt.path || e.Offset != -1 || e.Detail != nJSON {
				t.Errorf("%s: %s = %v, want ErrUnsafeInteger at %q, offset -1, detail %q", tt.rule, enc.name, err, tt.path, nJSON)
			}
		}
	}
}

// TestSafeIntegersGoTypes: every Go integer type the encoders take is held to the same range.
func TestSafeIntegersGoTypes(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	unsafe := []any{
		int64(-1 << 53), uint64(1 << 53), int64(1<<53 + 7),
		Blob{Ref: ref, MimeType: "a/b", Size: 1 << 53}, &Blob{Ref: ref, MimeType: "a/b", Size: math.MaxInt64},
	}
	if strconv.IntSize == 64 { // an int or uint of 32 bits is always safe
		unsafe = append(unsafe, int(min(math.MaxInt, 1<<53)), uint(min(math.MaxUint, 1<<60)))
	}
	for _, v := range unsafe {
		for _, enc := range safeEncoders {
			if err := enc.f(v); err != nil {
				t.Errorf("%T %v: %s without the option: %v", v, v, enc.name, err)
			}
			if err := enc.f(v, WithSafeIntegers()); !errors.Is(err, ErrUnsafeInteger) {
				t.Errorf("%T %v: %s = %v, want ErrUnsafeInteger", v, v, enc.name, err)
			}
		}
	}
	// A legacy blob has no size to check.
	legacy := Blob{Ref: ref, MimeType: "a/b", Legacy: true, Size: math.MaxInt64}
	for _, enc := range safeEncoders {
		if err := enc.f(legacy, WithSafeIntegers()); err != nil {
			t.Errorf("legacy blob: %s: %v", enc.name, err)
		}
	}
}

// TestSafeIntegersJSONSpellings: the JSON decoder judges the value, whatever the spelling, and
// reports it at the number's first byte with the number as written.
func TestSafeIntegersJSONSpellings(t *testing.T) {
	tests := []struct {
		in   string
		safe bool
	}{
		{"9007199254740991", true},
		{"9007199254740991.000", true},
		{"9.007199254740991e15", true},
		{"-9007199254740991", true},
		{"90071992547409910e-1", true},
		{"9007199254740992", false},
		{"9007199254740992.0", false},
		{"9.007199254740992e15", false},
		{"9007199254740992E0", false},
		{"-9007199254740992", false},
		{"1e16", false},
		{"123456789012345678", false}, // 18 digits: the decoder's one-loop path
		{"-123456789012345678", false},
	}
	for _, tt := range tests {
		for _, wrap := range []string{"%", `{"a":%}`, `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"a/b","size":%}`} {
			if wrap[0] == '{' && wrap[2] == '$' && tt.in[0] == '-' {
				continue // a negative size is ErrBlob
			}
			in := strings.Replace(wrap, "%", tt.in, 1)
			jsonSamePaths(t, []byte(in), safeLimits) // the quick blob path decides as the careful one
			if _, err := UnmarshalJSON([]byte(in)); err != nil {
				t.Errorf("%s without the option: %v", in, err)
			}
			_, err := UnmarshalJSON([]byte(in), WithSafeIntegers())
			if tt.safe {
				if err != nil {
					t.Errorf("%s: %v", in, err)
				}
				continue
			}
			var e *Error
			if !errors.Is(err, ErrUnsafeInteger) || !errors.As(err, &e) || e.Offset != strings.Index(in, tt.in) || e.Detail != tt.in {
				t.Errorf("%s = %v, want ErrUnsafeInteger at offset %d with detail %q", in, err, strings.Index(in, tt.in), tt.in)
			}
		}
	}
}

// safeLimits are the default limits with WithSafeIntegers.
var safeLimits = newConfig([]Option{WithSafeIntegers()}).limits

// TestSafeIntegersIntRange: outside int64 the error stays ErrIntegerRange, with the option too.
func TestSafeIntegersIntRange(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSafeIntegers()}} {
		if _, err := UnmarshalCBOR(cborMustHex("1bffffffffffffffff"), opts...); !errors.Is(err, ErrIntegerRange) {
			t.Errorf("CBOR 2^64−1 %d options: %v", len(opts), err)
		}
		if _, err := UnmarshalJSON([]byte("9223372036854775808"), opts...); !errors.Is(err, ErrIntegerRange) {
			t.Errorf("JSON 2^63 %d options: %v", len(opts), err)
		}
		if err := Validate(uint64(math.MaxUint64), opts...); !errors.Is(err, ErrIntegerRange) {
			t.Errorf("Validate 2^64−1 %d options: %v", len(opts), err)
		}
	}
}

// TestSafeIntegersWithLimits: the option and WithLimits combine in either order.
func TestSafeIntegersWithLimits(t *testing.T) {
	lim := WithLimits(Limits{MaxDepth: 2})
	in := []byte("[9007199254740992]")
	for _, opts := range [][]Option{{lim, WithSafeIntegers()}, {WithSafeIntegers(), lim}} {
		if _, err := UnmarshalJSON(in, opts...); !errors.Is(err, ErrUnsafeInteger) {
			t.Errorf("%v", err)
		}
		if _, err := UnmarshalJSON([]byte("[[[1]]]"), opts...); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%v", err)
		}
	}
}
