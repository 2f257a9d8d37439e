package datamodel

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"

	"github.com/atcore/atcore/tid"
)

// Go types for the typed decoder's tests.
type (
	typedKinds struct {
		S    string            `cbor:"s,omitempty"`
		I8   int8              `cbor:"i8,omitempty"`
		U16  uint16            `cbor:"u16,omitempty"`
		B    bool              `cbor:"b,omitempty"`
		L    Link              `cbor:"l,omitzero"`
		PL   *Link             `cbor:"pl,omitempty"`
		Bl   Blob              `cbor:"bl,omitzero"`
		By   Bytes             `cbor:"by,omitempty"`
		Arr  [2]string         `cbor:"arr,omitzero"`
		BA   [2]byte           `cbor:"ba,omitzero"`
		T    tid.TID           `cbor:"t,omitempty"`
		SS   []string          `cbor:"ss,omitempty"`
		MS   map[string]int64  `cbor:"ms,omitempty"`
		Any  any               `cbor:"any,omitempty"`
		F    float64           `cbor:"f,omitempty"`
		In   *typedInner       `cbor:"in,omitempty"`
		Deep map[string]*Link  `cbor:"deep,omitempty"`
		Err  error             `cbor:"err,omitempty"`
		Rec  *typedKinds       `cbor:"rec,omitempty"`
		Many []typedInner      `cbor:"many,omitempty"`
		Blbs map[string][]Blob `cbor:"blbs,omitempty"`
	}
	typedInner struct {
		Text string `cbor:"text"`
		Link Link   `cbor:"link,omitzero"`
	}
	typedKeeper struct {
		Type  string        `cbor:"$type"`
		Text  string        `cbor:"text"`
		Extra UnknownFields `cbor:"-" json:"-"`
	}
)

// typedLongLink is a CIDv1 of 4+n bytes (identity multihash of an n-byte digest): over the default
// MaxCIDLen for n > 96.
func typedLongLink(t testing.TB, n int) Link {
	t.Helper()
	sum, err := mh.Sum(bytes.Repeat([]byte{7}, n), mh.IDENTITY, -1)
	if err != nil {
		t.Fatal(err)
	}
	return Link(cid.NewCidV1(cid.DagCBOR, sum))
}

// TestTypedDecodeLocated: a value its Go type cannot hold is ErrGoType, at the value's byte
// offset and JSON Pointer, and the detail names what was found, the Go field and its type.
func TestTypedDecodeLocated(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	rows := []struct {
		rule   string
		tree   map[string]any
		want   error
		path   string
		at     string // hex of the item the offset points at (its first occurrence)
		detail string
	}{
		{"a string for an int8", map[string]any{"i8": "x"}, ErrGoType, "/i8", "6178",
			"found a string for Go field datamodel.typedKinds.I8 of type int8"},
		{"an integer beyond int8", map[string]any{"i8": int64(300)}, ErrGoType, "/i8", "19012c",
			"found an integer for Go field datamodel.typedKinds.I8 of type int8 (300 is out of its range)"},
		{"a negative integer for a uint16", map[string]any{"u16": int64(-1)}, ErrGoType, "/u16", "20",
			"found an integer for Go field datamodel.typedKinds.U16 of type uint16 (-1 is out of its range)"},
		{"a string for a Link, nested in a struct behind a pointer", map[string]any{"in": map[string]any{"text": "a", "link": "bafy"}}, ErrGoType, "/in/link", "6462616679",
			"found a string for Go field datamodel.typedInner.Link of type datamodel.Link (want a link)"},
		{"a string in a []string's second element", map[string]any{"ss": []any{"a", int64(7)}}, ErrGoType, "/ss/1", "07",
			"found an integer for a Go string in field datamodel.typedKinds.SS of type []string"},
		{"a map value of the wrong kind", map[string]any{"ms": map[string]any{"x~/": true}}, ErrGoType, "/ms/x~0~1", "f5",
			"found a boolean for a Go int64 in field datamodel.typedKinds.MS of type map[string]int64"},
		{"bytes too long for a [2]byte", map[string]any{"ba": Bytes{1, 2, 3}}, ErrGoType, "/ba", "43010203",
			"found bytes for Go field datamodel.typedKinds.BA of type [2]uint8 (3 bytes)"},
		{"an invalid TID", map[string]any{"t": "3kxnlhr3gxq2-"}, ErrGoType, "/t", "6d", ""},
		{"an integer for a float64 field (no data-model form)", map[string]any{"f": int64(1)}, ErrGoType, "/f", "01", ""},
		{"a value for an interface with methods", map[string]any{"err": "x"}, ErrGoType, "/err", "6178", ""},
		{"a string for a Blob", map[string]any{"bl": "x"}, ErrBlob, "/bl", "6178", "expected a blob, found a string"},
		{"a plain map for a Blob in a slice in a map", map[string]any{"blbs": map[string]any{"k": []any{map[string]any{"a": link}}}}, ErrBlob, "/blbs/k/0", "a16161", ""},
		{"null for a Link", map[string]any{"l": nil}, ErrGoType, "/l", "f6", ""},
		{"deep in a recursive type", map[string]any{"rec": map[string]any{"rec": map[string]any{"many": []any{map[string]any{"text": int64(1)}}}}}, ErrGoType, "/rec/rec/many/0/text", "01", ""},
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			data, err := MarshalCBOR(r.tree)
			if err != nil {
				t.Fatal(err)
			}
			var v typedKinds
			err = UnmarshalCBORStruct(data, &v)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, r.want) {
				t.Fatalf("%v, want %v", err, r.want)
			}
			key := strings.TrimPrefix(r.path, "/")
			key, _, _ = strings.Cut(key, "/")
			from := bytes.Index(data, append(cborAppendHead(nil, cborMajorText, uint64(len(key))), key...))
			at := bytes.Index(data[from:], cborMustHex(r.at)) + from
			if e.Path != r.path || e.Offset != at || r.detail != "" && e.Detail != r.detail {
				t.Errorf("%v\n(path %q, offset %d, detail %q)\nwant path %q, offset %d, detail %q", err, e.Path, e.Offset, e.Detail, r.path, at, r.detail)
			}
		})
	}
}

// TestTypedDecodeInputErrorsFirst: an input that is not valid DAG-CBOR gets UnmarshalCBOR's error
// for it, even where a Go type mismatch comes first in the bytes.
func TestTypedDecodeInputErrorsFirst(t *testing.T) {
	for _, h := range []string{
		"a2 6169 6178 6173 f93c00",     // "i" a string for an int8, then a float
		"a2 6169 6178 6173 6278",       // then a truncated string
		"a2 6169 6178 6173 a1 6161 01", // then fine (no error but the mismatch)... see below
		"a1 6169 6178 00",              // trailing bytes
	} {
		data := cborMustHex(h)
		_, want := UnmarshalCBOR(data)
		err := UnmarshalCBORStruct(data, &struct {
			I int8 `cbor:"i"`
		}{})
		if want == nil {
			if !errors.Is(err, ErrGoType) {
				t.Errorf("%s: %v, want ErrGoType", h, err)
			}
			continue
		}
		if err == nil || err.Error() != want.Error() {
			t.Errorf("%s: %v\nwant UnmarshalCBOR's %v", h, err, want)
		}
	}
}

// TestTypedDecodeLimits: every limit applies to the values read into typed fields, nested ones
// included: a raised MaxCIDLen lets a long CID through a nested Link, *Link, map of *Link and
// Blob, which the defaults refuse; MaxDepth bounds a recursive type, raised up to the ceiling.
func TestTypedDecodeLimits(t *testing.T) {
	long := typedLongLink(t, 120) // 124 bytes
	tree := map[string]any{
		"in":   map[string]any{"text": "a", "link": long},
		"pl":   long,
		"deep": map[string]any{"k": long},
		"bl":   Blob{Ref: long, MimeType: "a/b", Size: 1},
		"blbs": map[string]any{"k": []any{Blob{Ref: long, MimeType: "a/b", Size: 2}}},
	}
	raised := WithLimits(Limits{MaxCIDLen: 200})
	data, err := MarshalCBOR(tree, raised)
	if err != nil {
		t.Fatal(err)
	}
	var v typedKinds
	if err := UnmarshalCBORStruct(data, &v); !errors.Is(err, ErrInvalidCID) {
		t.Errorf("default limits: %v, want ErrInvalidCID", err)
	}
	v = typedKinds{}
	if err := UnmarshalCBORStruct(data, &v, raised); err != nil {
		t.Fatalf("MaxCIDLen 200: %v", err)
	}
	if v.In.Link != long || *v.PL != long || *v.Deep["k"] != long || v.Bl.Ref != long || v.Blbs["k"][0].Ref != long {
		t.Errorf("MaxCIDLen 200: %+v", v)
	}
	// Depth: a recursive type 100 levels deep.
	nested := map[string]any{"s": "x"}
	for range 99 {
		nested = map[string]any{"rec": nested}
	}
	deep, err := MarshalCBOR(nested, WithLimits(Limits{MaxDepth: 100}))
	if err != nil {
		t.Fatal(err)
	}
	if err := UnmarshalCBORStruct(deep, new(typedKinds)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("100 levels, default MaxDepth: %v, want ErrTooDeep", err)
	}
	if err := UnmarshalCBORStruct(deep, new(typedKinds), WithLimits(Limits{MaxDepth: 99})); !errors.Is(err, ErrTooDeep) {
		t.Errorf("100 levels, MaxDepth 99: %v, want ErrTooDeep", err)
	}
	var got typedKinds
	if err := UnmarshalCBORStruct(deep, &got, WithLimits(Limits{MaxDepth: 100})); err != nil {
		t.Fatalf("100 levels, MaxDepth 100: %v", err)
	}
	n := 1
	for p := &got; p.Rec != nil; p = p.Rec {
		n++
	}
	if n != 100 {
		t.Errorf("decoded %d levels, want 100", n)
	}
	// Elements, values, key length: a Go slice, map or struct is held to them as a generic one.
	three := map[string]any{"ss": []any{"a", "b", "c"}}
	data, _ = MarshalCBOR(three)
	for _, tt := range []struct {
		lim  Limits
		want error
	}{
		{Limits{MaxElements: 2}, ErrTooManyElements},
		{Limits{MaxValues: 4}, ErrTooManyValues},
		{Limits{MaxKeyLen: 1}, ErrKeyTooLong},
	} {
		_, generic := UnmarshalCBOR(data, WithLimits(tt.lim))
		err := UnmarshalCBORStruct(data, new(typedKinds), WithLimits(tt.lim))
		if !errors.Is(err, tt.want) || err.Error() != generic.Error() {
			t.Errorf("%+v: %v, want UnmarshalCBOR's %v", tt.lim, err, generic)
		}
	}
	// WithSafeIntegers reaches typed integers.
	big, _ := MarshalCBOR(map[string]any{"ms": map[string]any{"a": int64(1) << 60}})
	if err := UnmarshalCBORStruct(big, new(typedKinds), WithSafeIntegers()); !errors.Is(err, ErrUnsafeInteger) {
		t.Errorf("WithSafeIntegers: %v, want ErrUnsafeInteger", err)
	}
}

// TestTypedDecodeCaseSensitive: a key matches the field of exactly that name. fxamacker matches
// case-insensitively when no field has the exact name ("Text" went into the field "text"); the
// typed decoder treats "Text" as an unknown key: ignored, kept or refused.
func TestTypedDecodeCaseSensitive(t *testing.T) {
	data, err := MarshalCBOR(map[string]any{"$type": "a.b.c", "Text": "upper", "text": "lower", "TEXT": "caps"})
	if err != nil {
		t.Fatal(err)
	}
	only := cborMustHex("a1 6454657874 6575707065 72") // {"Text": "upper"}
	var fx struct {
		Text string `cbor:"text"`
	}
	if err := cborStructDecRef.Unmarshal(only, &fx); err != nil || fx.Text != "upper" {
		t.Fatalf("fxamacker (reference): %+v, %v; the case-insensitive match this test is about is gone", fx, err)
	}
	var plain struct {
		Text string `cbor:"text"`
	}
	if err := UnmarshalCBORStruct(only, &plain); err != nil || plain.Text != "" {
		t.Errorf("ignored: %+v, %v; want Text empty", plain, err)
	}
	if err := UnmarshalCBORStruct(data, &plain); err != nil || plain.Text != "lower" {
		t.Errorf("exact key: %+v, %v", plain, err)
	}
	var e *Error
	if err := UnmarshalCBORStruct(only, &plain, DisallowUnknownFields()); !errors.As(err, &e) || e.Path != "/Text" {
		t.Errorf("refused: %v, want an unknown key at /Text", err)
	}
	var kept typedKeeper
	if err := UnmarshalCBORStruct(data, &kept); err != nil || kept.Text != "lower" ||
		!reflect.DeepEqual(kept.Extra, UnknownFields{"Text": "upper", "TEXT": "caps"}) {
		t.Errorf("kept: %+v, %v", kept, err)
	}
}

// TestTypedDecodeUnknown: the three treatments of a key the struct does not name. Ignored: the
// value is still checked as UnmarshalCBOR checks it. Kept: the UnknownFields field holds the
// generic value (nil when there is none), under DisallowUnknownFields too.
func TestTypedDecodeUnknown(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	data, err := MarshalCBOR(map[string]any{"$type": "a.b.c", "text": "t", "zz": []any{link, int64(1)},
		"blob": Blob{Ref: link, MimeType: "a/b", Size: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var k typedKeeper
	if err := UnmarshalCBORStruct(data, &k, DisallowUnknownFields()); err != nil {
		t.Fatal(err)
	}
	want := UnknownFields{"zz": []any{link, int64(1)}, "blob": Blob{Ref: link, MimeType: "a/b", Size: 3}}
	if k.Type != "a.b.c" || k.Text != "t" || !reflect.DeepEqual(k.Extra, want) {
		t.Errorf("kept: %#v", k)
	}
	known, _ := MarshalCBOR(map[string]any{"$type": "a.b.c", "text": "t"})
	if err := UnmarshalCBORStruct(known, &k); err != nil || k.Extra != nil {
		t.Errorf("no unknown key: Extra %#v, %v; want nil", k.Extra, err)
	}
	// An ignored value is checked: a $type that is not a string, deep inside, is refused.
	bad := cborMustHex("a2 627a7a a1 652474797065 01 6474657874 6174")
	_, generic := UnmarshalCBOR(bad)
	if err := UnmarshalCBORStruct(bad, new(struct {
		Text string `cbor:"text"`
	})); !errors.Is(err, ErrType) || err.Error() != generic.Error() {
		t.Errorf("ignored bad value: %v, want UnmarshalCBOR's %v", err, generic)
	}
}

// TestTypedDecodeNull: null sets what can be nil to nil and leaves other values alone.
func TestTypedDecodeNull(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	v := typedKinds{S: "keep", I8: 3, B: true, PL: &link, By: Bytes{1}, SS: []string{"a"}, MS: map[string]int64{"a": 1}, Any: "x", In: &typedInner{}}
	data, err := MarshalCBOR(map[string]any{"s": nil, "i8": nil, "b": nil, "pl": nil, "by": nil, "ss": nil, "ms": nil, "any": nil, "in": nil, "f": nil})
	if err != nil {
		t.Fatal(err)
	}
	if err := UnmarshalCBORStruct(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.S != "keep" || v.I8 != 3 || !v.B || v.PL != nil || v.By != nil || v.SS != nil || v.MS != nil || v.Any != nil || v.In != nil {
		t.Errorf("%+v", v)
	}
}

// TestTypedDecodeArrays: a Go array takes an array (a [N]byte a byte string) of exactly its
// length: a shorter one would be padded with zeros and a longer one cut, and either would be
// written back as another record.
func TestTypedDecodeArrays(t *testing.T) {
	v := typedKinds{Arr: [2]string{"x", "y"}, BA: [2]byte{9, 9}}
	data, _ := MarshalCBOR(map[string]any{"arr": []any{"a", "b"}, "ba": Bytes{1, 2}})
	if err := UnmarshalCBORStruct(data, &v); err != nil || v.Arr != [2]string{"a", "b"} || v.BA != [2]byte{1, 2} {
		t.Errorf("exact: %+v, %v", v, err)
	}
	for _, in := range []map[string]any{
		{"arr": []any{"a"}}, {"arr": []any{"a", "b", "c"}}, {"ba": Bytes{1}}, {"ba": Bytes{1, 2, 3}},
	} {
		data, _ = MarshalCBOR(in)
		if err := UnmarshalCBORStruct(data, &v); !errors.Is(err, ErrGoType) {
			t.Errorf("%v: %v, want ErrGoType", in, err)
		}
		js, _ := MarshalJSON(in)
		if err := UnmarshalJSONStruct(js, &v); !errors.Is(err, ErrGoType) {
			t.Errorf("JSON %s: %v, want ErrGoType", js, err)
		}
	}
	bad := cborMustHex("a1 63617272 83 6161 6162 f93c00")
	if err := UnmarshalCBORStruct(bad, &v); !errors.Is(err, ErrFloat) {
		t.Errorf("a float past the array's room: %v, want ErrFloat", err)
	}
}

// TestTypedDecodeAllocs: what decoding the post record into its struct allocates: the arena for
// all its strings, each slice and pointer, the blob's CID shares the arena. A regression shows as
// a larger count.
func TestTypedDecodeAllocs(t *testing.T) {
	data := cborTestRecord(t, "post")
	var p cborTestPost
	if err := UnmarshalCBORStruct(data, &p); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		var p cborTestPost
		_ = UnmarshalCBORStruct(data, &p)
	})
	t.Logf("post into cborTestPost: %v allocations", n)
	if n > typedPostAllocs {
		t.Errorf("%v allocations, want at most %d", n, typedPostAllocs)
	}
}

// typedPostAllocs is the allocation count measured for the post record into cborTestPost.
const typedPostAllocs = 15

// FuzzTypedDecode holds the typed decoder to UnmarshalCBOR on any input. Into *any it returns the
// same value or the same error. Into Go types that do not fit every input, it refuses every
// input UnmarshalCBOR refuses, with the same error; an input UnmarshalCBOR takes it either decodes
// or refuses for the Go side only (ErrGoType, or ErrBlob for a Blob field), located.
func FuzzTypedDecode(f *testing.F) {
	cborFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := UnmarshalCBOR(data)
		var got any
		err := UnmarshalCBORStruct(data, &got)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() || err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("into *any: %#v, %v\nUnmarshalCBOR: %#v, %v", got, err, want, wantErr)
		}
		for _, v := range []any{new(typedKinds), new(structPropRecord), new(cborTestPost), new(typedKeeper), new(map[string]string), new([]Link)} {
			err := UnmarshalCBORStruct(data, v)
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%T: %v is not an *Error", v, err)
			}
			switch {
			case wantErr != nil && err == nil:
				t.Fatalf("%T: decoded; UnmarshalCBOR: %v", v, wantErr)
			case wantErr != nil && err.Error() != wantErr.Error():
				t.Fatalf("%T: %v\nUnmarshalCBOR: %v", v, err, wantErr)
			case wantErr == nil && err != nil:
				if e.Err != ErrGoType && e.Err != ErrBlob || e.Offset < 0 || e.Offset >= len(data) {
					t.Fatalf("%T: %v (offset %d), but UnmarshalCBOR takes the input", v, err, e.Offset)
				}
			}
		}
	})
}
