package datamodel

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestMarshalCBORFixtures encodes the JSON side of each interop fixture and expects exactly the
// fixture's DAG-CBOR bytes (https://atproto.com/specs/data-model; DECISIONS rule 9).
func TestMarshalCBORFixtures(t *testing.T) {
	for i, f := range interopCases(t, "data-model-fixtures.json") {
		v, err := cborTestFromJSON(f.JSON)
		if err != nil {
			t.Fatalf("fixture %d: %v", i, err)
		}
		got, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("fixture %d: MarshalCBOR: %v", i, err)
		}
		if want := f.cbor(t); !bytes.Equal(got, want) {
			t.Errorf("fixture %d:\n got %x\nwant %x", i, got, want)
		}
	}
}

// TestMarshalCBORValues checks the shortest-form heads at every boundary and the key order.
func TestMarshalCBORValues(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	linkHex := "d82a5825 00" + hex.EncodeToString(link.CID().Bytes())
	tests := []struct {
		rule string
		v    any
		want string
	}{
		{"null", nil, "f6"},
		{"false", false, "f4"},
		{"true", true, "f5"},
		{"int 0 in the head", 0, "00"},
		{"int 23 in the head", int64(23), "17"},
		{"int 24 one byte", 24, "1818"},
		{"int 255 one byte", uint8(255), "18ff"},
		{"int 256 two bytes", int16(256), "190100"},
		{"int 65535 two bytes", uint16(65535), "19ffff"},
		{"int 65536 four bytes", int32(65536), "1a00010000"},
		{"int 2^32-1 four bytes", uint32(math.MaxUint32), "1affffffff"},
		{"int 2^32 eight bytes", int64(1 << 32), "1b0000000100000000"},
		{"int MaxInt64", int64(math.MaxInt64), "1b7fffffffffffffff"},
		{"uint64 MaxInt64", uint64(math.MaxInt64), "1b7fffffffffffffff"},
		{"uint", uint(7), "07"},
		{"int -1", -1, "20"},
		{"int -24", int8(-24), "37"},
		{"int -25", -25, "3818"},
		{"int -256", -256, "38ff"},
		{"int -257", -257, "390100"},
		{"int MinInt64", int64(math.MinInt64), "3b7fffffffffffffff"},
		{"empty string", "", "60"},
		{"string", "abc", "63616263"},
		{"string 24 bytes", strings.Repeat("a", 24), "7818" + strings.Repeat("61", 24)},
		{"unicode string", "ö", "62c3b6"},
		{"Bytes", Bytes{1, 2}, "420102"},
		{"nil Bytes", Bytes(nil), "40"},
		{"[]byte", []byte{0xff}, "41ff"},
		{"link", link, linkHex},
		{"cid.Cid", link.CID(), linkHex},
		{"empty array", []any{}, "80"},
		{"nil array is null, as every nil slice", []any(nil), "f6"},
		{"array", []any{int64(1), "a", nil}, "83 01 6161 f6"},
		{"empty map", map[string]any{}, "a0"},
		{"nil map is null, as every nil map", map[string]any(nil), "f6"},
		{"keys length-first then bytewise", map[string]any{"bb": 1, "a": 2, "ab": 3, "b": 4, "": 5},
			"a5 60 05 6161 02 6162 04 626162 03 626262 01"},
		{"null and missing stay distinct (rule 15)", map[string]any{"x": nil}, "a1 6178 f6"},
		{"$type string", map[string]any{"$type": "app.bsky.feed.like"},
			"a1 652474797065 72" + hex.EncodeToString([]byte("app.bsky.feed.like"))},
	}
	for _, tt := range tests {
		got, err := MarshalCBOR(tt.v)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if want := cborHex(t, tt.want); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %x\nwant %x", tt.rule, got, want)
		}
	}
}

// TestMarshalCBORKeyOrderLarge checks the sort used for maps too big for the insertion sort.
func TestMarshalCBORKeyOrderLarge(t *testing.T) {
	m := map[string]any{}
	keys := []string{"z", "yy", "a", "aa", "b", "ba", "ab", "aaa", "c", "d", "e", "f", "g", "h", "zz", "zzz", "\u00e9", "A"}
	for _, k := range keys {
		m[k] = nil
	}
	b, err := MarshalCBOR(m)
	if err != nil {
		t.Fatal(err)
	}
	// Read the keys back in order without the decoder: each is a short text string then f6.
	var got []string
	for p := 1; p < len(b); {
		n := int(b[p] & 0x1f)
		got = append(got, string(b[p+1:p+1+n]))
		p += 1 + n + 1
	}
	for i := 1; i < len(got); i++ {
		if !cborKeyLess(got[i-1], got[i]) {
			t.Errorf("keys out of order: %q then %q", got[i-1], got[i])
		}
	}
	if len(got) != len(keys) {
		t.Errorf("got %d keys, want %d", len(got), len(keys))
	}
}

// TestMarshalCBORBlob checks both blob forms (DECISIONS rule 13).
func TestMarshalCBORBlob(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	// The blob part of the interop fixture {"c": blob}: keys ref, size, $type, mimeType.
	want := "a4 63726566 d82a5825 00" + hex.EncodeToString(ref.CID().Bytes()) +
		" 6473697a65 192710 652474797065 64626c6f62 686d696d6554797065 6a696d6167652f6a706567"
	b := Blob{Ref: ref, MimeType: "image/jpeg", Size: 10000}
	for _, v := range []any{b, &b, map[string]any{"$type": "blob", "ref": ref, "mimeType": "image/jpeg", "size": int64(10000)}} {
		got, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if !bytes.Equal(got, cborHex(t, want)) {
			t.Errorf("%T:\n got %x\nwant %s", v, got, want)
		}
	}
	legacy := Blob{Ref: ref, MimeType: "image/png", Legacy: true}
	got, err := MarshalCBOR(legacy)
	if err != nil {
		t.Fatal(err)
	}
	wantLegacy := "a2 63636964 783b" + hex.EncodeToString([]byte(cborTestBlobLinkString)) +
		" 686d696d6554797065 69696d6167652f706e67"
	if !bytes.Equal(got, cborHex(t, wantLegacy)) {
		t.Errorf("legacy:\n got %x\nwant %s", got, wantLegacy)
	}
	empty := Blob{Ref: ref, MimeType: "text/plain", Size: 0}
	if _, err := MarshalCBOR(empty); err != nil {
		t.Errorf("empty blob (size 0) is valid (rule 13): %v", err)
	}
}

// cborTestWrap nests v in n single-element arrays.
func cborTestWrap(v any, n int) any {
	for i := 0; i < n; i++ {
		v = []any{v}
	}
	return v
}

// TestAppendCBOR checks that AppendCBOR appends, and leaves dst's length alone on error.
func TestAppendCBOR(t *testing.T) {
	dst := []byte{0xaa}
	got, err := AppendCBOR(dst, map[string]any{"a": int64(1)})
	if err != nil {
		t.Fatal(err)
	}
	if want := cborHex(t, "aa a1 6161 01"); !bytes.Equal(got, want) {
		t.Errorf("got %x want %x", got, want)
	}
	got, err = AppendCBOR(dst, []any{1, 1.5})
	if !errors.Is(err, ErrFloat) || len(got) != 1 {
		t.Errorf("on error: got (%x, %v)", got, err)
	}
}

// encTestJSONEncoders are the JSON encoders, each with its options, for the tests that hold for
// them as for MarshalCBOR.
var encTestJSONEncoders = map[string]func(any, ...Option) ([]byte, error){
	"MarshalJSON": MarshalJSON,
	"MarshalJSONIndent": func(v any, opts ...Option) ([]byte, error) {
		return MarshalJSONIndent(v, "", "  ", opts...)
	},
	"AppendJSON": func(v any, opts ...Option) ([]byte, error) { return AppendJSON(nil, v, opts...) },
}

// TestMarshalCBORLimits: the encoders, CBOR and JSON, take the decoders' options, so that a tree
// decoded with raised limits (MaxDepth, MaxCIDLen) re-encodes with the same options, and lowered
// ones refuse what a decoder with them would refuse (DECISIONS rule 14).
func TestMarshalCBORLimits(t *testing.T) {
	deepHex := strings.Repeat("81", 40) + "01"                                    // 41 levels: 40 arrays and an integer
	deepMapHex := strings.Repeat("a16161", 39) + "a3" + "6162 01 6163 80 6164 a0" // 40 maps, the last with an empty array and map
	longLinkHex := "d82a 5869 00 01711264" + strings.Repeat("ab", 100)            // a 104-byte CID
	raised := WithLimits(Limits{MaxDepth: 41, MaxCIDLen: 200})
	tests := []struct {
		rule     string
		hex      string
		opts     []Option
		err      error // from MarshalCBOR and AppendCBOR without options
		errPath  string
		errDepth int // the limit the default error names
	}{
		{"rule 14: arrays 41 levels deep, MaxDepth raised to 41", deepHex, []Option{raised}, ErrTooDeep, strings.Repeat("/0", DefaultMaxDepth), DefaultMaxDepth},
		{"rule 14: maps 41 levels deep, MaxDepth raised to 41", deepMapHex, []Option{raised}, ErrTooDeep, strings.Repeat("/a", DefaultMaxDepth), DefaultMaxDepth},
		{"rule 14: link of 104 bytes, MaxCIDLen raised to 200", longLinkHex, []Option{raised}, ErrInvalidCID, "", 0},
		{"rule 14: link of 104 bytes in a blob, MaxCIDLen raised to 200",
			"a4 63726566" + longLinkHex + "6473697a65 01 652474797065 64626c6f62 686d696d6554797065 6161",
			[]Option{raised}, ErrInvalidCID, "/ref", 0},
	}
	for _, tt := range tests {
		in := cborHex(t, tt.hex)
		v, err := UnmarshalCBOR(in, tt.opts...)
		if err != nil {
			t.Fatalf("%s: UnmarshalCBOR: %v", tt.rule, err)
		}
		if out, err := MarshalCBOR(v, tt.opts...); err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: MarshalCBOR with the decoder's options = %x, %v; want %x", tt.rule, out, err, in)
		}
		if out, err := AppendCBOR([]byte{0xaa}, v, tt.opts...); err != nil || !bytes.Equal(out, append([]byte{0xaa}, in...)) {
			t.Errorf("%s: AppendCBOR with the decoder's options = %x, %v", tt.rule, out, err)
		}
		if err := Validate(v, tt.opts...); err != nil {
			t.Errorf("%s: Validate with the decoder's options: %v", tt.rule, err)
		}
		withoutOptions := map[string]error{
			"MarshalCBOR": func() error { _, err := MarshalCBOR(v); return err }(),
			"AppendCBOR":  func() error { _, err := AppendCBOR(nil, v); return err }(),
		}
		for name, enc := range encTestJSONEncoders {
			js, err := enc(v, tt.opts...)
			if err != nil {
				t.Errorf("%s: %s with the decoder's options: %v", tt.rule, name, err)
				continue
			}
			if back, err := UnmarshalJSON(js, tt.opts...); err != nil || !reflect.DeepEqual(back, v) {
				t.Errorf("%s: %s with the decoder's options wrote %s, which reads back as %#v, %v", tt.rule, name, js, back, err)
			}
			_, withoutOptions[name] = enc(v)
		}
		for fn, err := range withoutOptions {
			var e *Error
			if !errors.Is(err, tt.err) || !errors.As(err, &e) || e.Path != tt.errPath {
				t.Errorf("%s: %s without options: %v, want %v at %q", tt.rule, fn, err, tt.err, tt.errPath)
				continue
			}
			if tt.errDepth > 0 && !strings.Contains(e.Detail, "limit "+strconv.Itoa(tt.errDepth)) {
				t.Errorf("%s: %s: detail %q does not name the limit", tt.rule, fn, e.Detail)
			}
		}
	}

	// A lowered limit refuses, at the path of the first value too deep.
	shallow := WithLimits(Limits{MaxDepth: 2})
	for _, v := range []any{
		[]any{[]any{[]any{}}},
		map[string]any{"a": map[string]any{"b": map[string]any{}}},
		[]any{[]any{Blob{Ref: cborTestLink(t, cborTestLinkString), MimeType: "a/b"}}},
	} {
		errs := map[string]error{"MarshalCBOR": func() error { _, err := MarshalCBOR(v, shallow); return err }()}
		for name, enc := range encTestJSONEncoders {
			_, errs[name] = enc(v, shallow)
		}
		for name, err := range errs {
			var e *Error
			if !errors.Is(err, ErrTooDeep) || !errors.As(err, &e) || strings.Count(e.Path, "/") != 2 || !strings.Contains(e.Detail, "limit 2") {
				t.Errorf("%s, MaxDepth 2, %#v: %v, want ErrTooDeep two levels down", name, v, err)
			}
		}
	}
}

// TestMarshalCBORCycles: a cyclic value is refused (ErrTooDeep) by every encoder even when
// MaxDepth is lifted,
// when its cycle closes rather than after recursing as deep as the limit allows; a value that
// merely shares a map or array in several places below the default depth is not a cycle.
func TestMarshalCBORCycles(t *testing.T) {
	lifted := WithLimits(Limits{MaxDepth: math.MaxInt})
	selfMap := map[string]any{}
	selfMap["self"] = selfMap
	selfArray := []any{nil, 1}
	selfArray[0] = selfArray
	prefix := []any{nil, nil}
	prefix[1] = prefix[0:1] // a different slice value over the same array: ...
	prefix[0] = prefix      // ... the cycle is through prefix itself
	tests := []struct {
		rule string
		v    any
		path string // the path to the repeated container
	}{
		{"map containing itself, below the default depth", cborTestWrap(selfMap, DefaultMaxDepth+5), strings.Repeat("/0", DefaultMaxDepth+5) + "/self"},
		{"array containing itself, below the default depth", cborTestWrap(selfArray, DefaultMaxDepth+5), strings.Repeat("/0", DefaultMaxDepth+5) + "/0"},
		{"array containing itself at the top", selfArray, strings.Repeat("/0", DefaultMaxDepth)},
		{"cycle through a map and an array", func() any {
			m := map[string]any{}
			m["a"] = []any{m}
			return m
		}(), "/a/0" + strings.Repeat("/a/0", DefaultMaxDepth/2-1)},
		{"array whose first element is itself, with a sub-slice as a sibling", prefix, strings.Repeat("/0", DefaultMaxDepth)},
	}
	encoders := map[string]func(any, ...Option) ([]byte, error){"MarshalCBOR": MarshalCBOR}
	for name, enc := range encTestJSONEncoders {
		encoders[name] = enc
	}
	for _, tt := range tests {
		for name, enc := range encoders {
			_, err := enc(tt.v, lifted)
			var e *Error
			if !errors.Is(err, ErrTooDeep) || !errors.As(err, &e) {
				t.Errorf("%s: %s: %v, want ErrTooDeep", tt.rule, name, err)
				continue
			}
			if !strings.HasPrefix(e.Path, tt.path) || len(e.Path) > len(tt.path)+4*len("/self") {
				t.Errorf("%s: %s: path %q, want the cycle caught soon after %q", tt.rule, name, e.Path, tt.path)
			}
		}
	}

	// Shared, acyclic: the same map and the same arrays in several places below the default
	// depth, as siblings and as sub-slices of one array.
	leaf := map[string]any{"k": int64(1)}
	pair := []any{leaf, leaf}
	backing := []any{leaf, pair, []any{}}
	shared := cborTestWrap([]any{pair, pair, backing[0:1], backing[0:2], backing, leaf, map[string]any{"a": leaf, "b": pair}}, DefaultMaxDepth+3)
	out, err := MarshalCBOR(shared, lifted)
	if err != nil {
		t.Fatalf("shared acyclic value: %v", err)
	}
	v, err := UnmarshalCBOR(out, WithLimits(Limits{MaxDepth: 100}))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := MarshalCBOR(v, WithLimits(Limits{MaxDepth: 100})); err != nil || !bytes.Equal(again, out) {
		t.Errorf("shared acyclic value does not round trip: %v", err)
	}
	for name, enc := range encTestJSONEncoders {
		if _, err := enc(shared, lifted); err != nil {
			t.Errorf("%s: shared acyclic value: %v", name, err)
		}
	}
}

// TestEncodeInvalidUTF8ErrorBounded: a string that is not valid UTF-8 is quoted in the error in
// part, with its length, by every encoder and Validate: a megabyte of bad bytes made four
// megabytes of message, each byte escaped. (A bad map key is also in the error's Path, whole.)
func TestEncodeInvalidUTF8ErrorBounded(t *testing.T) {
	type post struct {
		Text string `cbor:"text"`
	}
	bad := "ok " + strings.Repeat("\xff", 1<<20)
	for _, v := range []any{
		map[string]any{"text": bad},
		post{Text: bad},
		map[string]any{"blob": Blob{Ref: cborTestLink(t, typedTestBlobCID), MimeType: bad, Size: 1}},
	} {
		errs := map[string]error{"Validate": Validate(v)}
		_, errs["MarshalCBOR"] = MarshalCBOR(v)
		_, errs["MarshalJSON"] = MarshalJSON(v)
		_, errs["MarshalCBORStruct"] = MarshalCBORStruct(v)
		_, errs["MarshalJSONStruct"] = MarshalJSONStruct(v)
		for name, err := range errs {
			if !errors.Is(err, ErrInvalidUTF8) || len(err.Error()) > 400 || !strings.Contains(err.Error(), " bytes)") {
				t.Errorf("%s of %T: %d bytes of error, want ErrInvalidUTF8 in at most 400 that give the length: %.150q", name, v, len(err.Error()), err)
			}
		}
	}
}
