package datamodel

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/atcore/atcore/tid"
)

// Lexicon-like Go types for app.bsky.feed.post and friends, as a code generator would write them.
type (
	cborTestPost struct {
		Type      string              `cbor:"$type"`
		Text      string              `cbor:"text"`
		Facets    []cborTestFacet     `cbor:"facets,omitempty"`
		Reply     *cborTestReplyRef   `cbor:"reply,omitempty"`
		Embed     *cborTestEmbedImage `cbor:"embed,omitempty"`
		Langs     []string            `cbor:"langs,omitempty"`
		Labels    any                 `cbor:"labels,omitempty"`
		CreatedAt string              `cbor:"createdAt"`
	}
	cborTestFacet struct {
		Index    cborTestByteSlice `cbor:"index"`
		Features []map[string]any  `cbor:"features"`
	}
	cborTestByteSlice struct {
		ByteStart int64 `cbor:"byteStart"`
		ByteEnd   int64 `cbor:"byteEnd"`
	}
	cborTestReplyRef struct {
		Root   cborTestStrongRef `cbor:"root"`
		Parent cborTestStrongRef `cbor:"parent"`
	}
	cborTestStrongRef struct {
		URI string `cbor:"uri"`
		CID string `cbor:"cid"`
	}
	cborTestEmbedImage struct {
		Type   string          `cbor:"$type"`
		Images []cborTestImage `cbor:"images"`
	}
	cborTestImage struct {
		Alt         string               `cbor:"alt"`
		Image       Blob                 `cbor:"image"`
		AspectRatio *cborTestAspectRatio `cbor:"aspectRatio,omitempty"`
	}
	cborTestAspectRatio struct {
		Width  int64 `cbor:"width"`
		Height int64 `cbor:"height"`
	}
	cborTestProfile struct {
		Type        string             `cbor:"$type"`
		DisplayName string             `cbor:"displayName,omitempty"`
		Description string             `cbor:"description,omitempty"`
		Avatar      *Blob              `cbor:"avatar,omitempty"`
		Banner      *Blob              `cbor:"banner,omitempty"`
		PinnedPost  *cborTestStrongRef `cbor:"pinnedPost,omitempty"`
		CreatedAt   string             `cbor:"createdAt,omitempty"`
	}
	cborTestLinks struct {
		Required Link  `cbor:"required"`
		Optional *Link `cbor:"optional,omitempty"`
		Nullable *Link `cbor:"nullable"`
	}
	cborTestCommit struct {
		Rev  tid.TID `cbor:"rev"`
		Data Bytes   `cbor:"data"`
		Seq  int64   `cbor:"seq"`
	}
)

func cborTestRecord(t *testing.T, name string) []byte {
	t.Helper()
	for _, r := range cborTestRecords(t) {
		if r.name == name {
			return r.cbor
		}
	}
	t.Fatalf("no record %q", name)
	return nil
}

// TestCBORStructRoundTrip: the realistic records decode into generated-style structs and encode
// back to identical bytes.
func TestCBORStructRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		into func() any
	}{
		{"post", func() any { return new(cborTestPost) }},
		{"profile", func() any { return new(cborTestProfile) }},
	}
	for _, tt := range tests {
		data := cborTestRecord(t, tt.name)
		v := tt.into()
		if err := UnmarshalCBORStruct(data, v); err != nil {
			t.Fatalf("%s: UnmarshalCBORStruct: %v", tt.name, err)
		}
		out, err := MarshalCBORStruct(v)
		if err != nil {
			t.Fatalf("%s: MarshalCBORStruct: %v", tt.name, err)
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s: re-encoded\n%x\nwant\n%x", tt.name, out, data)
		}
	}
	var p cborTestPost
	if err := UnmarshalCBORStruct(cborTestRecord(t, "post"), &p); err != nil {
		t.Fatal(err)
	}
	img := p.Embed.Images[0].Image
	if img.MimeType != "image/jpeg" || img.Size != 734612 || img.Ref.CID().Prefix().Codec != 0x55 || img.Legacy {
		t.Errorf("blob field: %+v", img)
	}
	if p.Facets[1].Features[0]["$type"] != "app.bsky.richtext.facet#link" {
		t.Errorf("map[string]any field: %#v", p.Facets[1].Features[0])
	}
}

// TestCBORStructLinks: Link fields are tag 42; a nil *Link is omitted with omitempty and null
// without; null decodes back to nil (rule 15).
func TestCBORStructLinks(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	linkHex := "d82a5825 00" + cborTestCIDHex
	tests := []struct {
		rule string
		v    cborTestLinks
		want string
	}{
		{"nil *Link: omitted with omitempty, null without",
			cborTestLinks{Required: link},
			"a2 68 6e756c6c61626c65 f6 68 7265717569726564" + linkHex},
		{"set *Link fields are links",
			cborTestLinks{Required: link, Optional: &link, Nullable: &link},
			"a3 68 6e756c6c61626c65" + linkHex + " 68 6f7074696f6e616c" + linkHex + " 68 7265717569726564" + linkHex},
	}
	for _, tt := range tests {
		out, err := MarshalCBORStruct(tt.v)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if want := cborHex(t, tt.want); !bytes.Equal(out, want) {
			t.Errorf("%s:\n got %x\nwant %x", tt.rule, out, want)
		}
		var back cborTestLinks
		if err := UnmarshalCBORStruct(out, &back); err != nil {
			t.Fatalf("%s: decode: %v", tt.rule, err)
		}
		if back.Required != link || (back.Optional == nil) != (tt.v.Optional == nil) || (back.Nullable == nil) != (tt.v.Nullable == nil) {
			t.Errorf("%s: decoded %+v", tt.rule, back)
		}
	}
	if _, err := MarshalCBORStruct(cborTestLinks{}); !errors.Is(err, ErrInvalidCID) {
		t.Errorf("undefined Link field: %v, want ErrInvalidCID", err)
	}
}

// TestCBORStructTID: tid.TID fields encode as their 13-character strings (issue 3: TIDs used
// as struct fields encode as strings), through encoding.TextMarshaler.
func TestCBORStructTID(t *testing.T) {
	rev := tid.MustParse("3kxnlhr3gxq23")
	out, err := MarshalCBORStruct(cborTestCommit{Rev: rev, Data: Bytes{1}, Seq: 300})
	if err != nil {
		t.Fatal(err)
	}
	want := cborHex(t, "a3 63726576 6d"+cborTestHexString("3kxnlhr3gxq23")+" 63736571 19012c 6464617461 4101")
	if !bytes.Equal(out, want) {
		t.Errorf("got %x\nwant %x", out, want)
	}
	var back cborTestCommit
	if err := UnmarshalCBORStruct(out, &back); err != nil {
		t.Fatal(err)
	}
	if back.Rev != rev || back.Seq != 300 || !bytes.Equal(back.Data, Bytes{1}) {
		t.Errorf("decoded %+v", back)
	}
	bad := cborHex(t, "a3 63726576 6d"+cborTestHexString("3kxnlhr3gxq2-")+" 63736571 01 6464617461 40")
	if err := UnmarshalCBORStruct(bad, &back); !errors.Is(err, ErrGoType) {
		t.Errorf("invalid TID string: %v, want ErrGoType", err)
	}
}

// TestCBORStructRefuses: the typed path is as strict as the generic one.
func TestCBORStructRefuses(t *testing.T) {
	post := cborTestRecord(t, "post")
	type withFloat struct {
		X float64 `cbor:"x"`
	}
	type withType struct {
		Type string `cbor:"$type"`
	}
	type withBlob struct {
		B Blob `cbor:"b"`
	}
	type small struct {
		A int64 `cbor:"a"`
	}
	tests := []struct {
		rule string
		in   []byte
		into any
		err  error
	}{
		{"non-canonical input (unsorted keys)", cborHex(t, "a2 6162 01 6161 02"), new(map[string]int64), ErrUnsortedKeys},
		{"float in the input", cborHex(t, "a1 6178 f93c00"), new(withFloat), ErrFloat},
		{"trailing bytes", append(append([]byte{}, post...), 0), new(cborTestPost), ErrTrailingBytes},
		{"unknown field, under DisallowUnknownFields", cborHex(t, "a2 6161 01 6162 02"), new(small), ErrGoType},
		{"wrong type for a field", cborHex(t, "a1 6161 6161"), new(small), ErrGoType},
		{"integer out of range for the field", cborHex(t, "a1 6161 1b7fffffffffffffff"), new(struct {
			A int8 `cbor:"a"`
		}), ErrGoType},
		{"empty $type (rule 11)", cborHex(t, "a1 652474797065 60"), new(withType), ErrType},
		{"non-string $type in a nested map (rule 11)", cborHex(t, "a1 6162 a1 652474797065 01"), new(map[string]any), ErrType},
		{"malformed blob (rule 13)", cborHex(t, "a1 6162 a1 652474797065 64626c6f62"), new(withBlob), ErrBlob},
		{"link field holding a string", cborHex(t, "a1 68 7265717569726564 6161"), new(cborTestLinks), ErrGoType},
		{"too deep", cborHex(t, "818181 01"), new(any), ErrTooDeep},
	}
	for _, tt := range tests {
		opts := []Option{}
		if tt.rule == "too deep" {
			opts = append(opts, WithLimits(Limits{MaxDepth: 2}))
		}
		if strings.HasSuffix(tt.rule, "DisallowUnknownFields") {
			opts = append(opts, DisallowUnknownFields())
		}
		err := UnmarshalCBORStruct(tt.in, tt.into, opts...)
		var e *Error
		if !errors.Is(err, tt.err) || !errors.As(err, &e) {
			t.Errorf("%s: %v, want %v", tt.rule, err, tt.err)
		}
	}
	if _, err := MarshalCBORStruct(withFloat{X: 1}); !errors.Is(err, ErrFloat) {
		t.Errorf("float field: %v, want ErrFloat", err)
	}
	if _, err := MarshalCBORStruct(map[int]int{1: 1}); !errors.Is(err, ErrKeyNotString) {
		t.Errorf("integer map keys: %v, want ErrKeyNotString", err)
	}
	if _, err := MarshalCBORStruct(make(chan int)); !errors.Is(err, ErrUnsupported) {
		t.Errorf("channel: %v, want ErrUnsupported", err)
	}
	if _, err := MarshalCBORStruct(withBlob{}); !errors.Is(err, ErrBlob) {
		t.Errorf("zero Blob field: %v, want ErrBlob", err)
	}
}

// TestCBORStructCustomLimits: non-default limits apply on the typed path too, from many
// goroutines at once (their fxamacker decoder is built once and shared).
func TestCBORStructCustomLimits(t *testing.T) {
	post := cborTestRecord(t, "post")
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		go func() {
			var p cborTestPost
			if err := UnmarshalCBORStruct(post, &p, WithLimits(Limits{MaxDepth: 5})); err != nil {
				errs <- err
				return
			}
			if err := UnmarshalCBORStruct(post, &p, WithLimits(Limits{MaxDepth: 4})); !errors.Is(err, ErrTooDeep) {
				errs <- fmt.Errorf("post (depth 5) with MaxDepth 4: %v, want ErrTooDeep", err)
				return
			}
			errs <- nil
		}()
	}
	for w := 0; w < 8; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestCBORStructAnyFields: a struct field typed any receives the same Go types as from the
// generic decoder (UnmarshalCBOR): Link for tag 42, Bytes for a byte string, int64 for integers,
// map[string]any and []any for containers, Blob for a blob: values typed any are the generic
// decoder's.
func TestCBORStructAnyFields(t *testing.T) {
	type withAny struct {
		Link   any `cbor:"link"`
		Bytes  any `cbor:"bytes"`
		Int    any `cbor:"int"`
		Neg    any `cbor:"neg"`
		Nested any `cbor:"nested"`
		Blob   any `cbor:"blob"`
	}
	link := cborTestLink(t, cborTestLinkString)
	nested := map[string]any{
		"link":  link,
		"bytes": Bytes{1, 2},
		"array": []any{int64(7), "s", nil, true, Bytes{}, link, map[string]any{}},
		"big":   int64(math.MaxInt64),
		"min":   int64(math.MinInt64),
	}
	blob := Blob{Ref: link, MimeType: "image/png", Size: 42}
	in, err := MarshalCBOR(map[string]any{
		"link": link, "bytes": Bytes{0xff, 0}, "int": int64(300), "neg": int64(-2), "nested": nested, "blob": blob,
	})
	if err != nil {
		t.Fatal(err)
	}
	var got withAny
	if err := UnmarshalCBORStruct(in, &got); err != nil {
		t.Fatal(err)
	}
	generic, err := UnmarshalCBOR(in)
	if err != nil {
		t.Fatal(err)
	}
	g := generic.(map[string]any)
	tests := []struct {
		rule string
		got  any
		want any
	}{
		{"tag 42 in an any field is a Link", got.Link, link},
		{"a byte string in an any field is Bytes", got.Bytes, Bytes{0xff, 0}},
		{"an unsigned integer in an any field is an int64", got.Int, int64(300)},
		{"a negative integer in an any field is an int64", got.Neg, int64(-2)},
		{"a nested map in an any field: map[string]any of the generic types", got.Nested, nested},
		{"a blob in an any field is a Blob, as from UnmarshalCBOR (rule 13)", got.Blob, blob},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: got %#v (%T), want %#v (%T)", tt.rule, tt.got, tt.got, tt.want, tt.want)
		}
	}
	// The same values as the generic decoder.
	for _, k := range []string{"link", "bytes", "int", "neg", "nested", "blob"} {
		field := map[string]any{"link": got.Link, "bytes": got.Bytes, "int": got.Int, "neg": got.Neg, "nested": got.Nested, "blob": got.Blob}[k]
		if !reflect.DeepEqual(field, g[k]) {
			t.Errorf("field %q: typed path %#v, generic decoder %#v", k, field, g[k])
		}
	}
	// And the decoded struct encodes back to the same bytes.
	if out, err := MarshalCBORStruct(&got); err != nil || !bytes.Equal(out, in) {
		t.Errorf("MarshalCBORStruct of the decoded struct = %x, %v; want %x", out, err, in)
	}
	// Decoding into a bare any gives the same.
	var top any
	if err := UnmarshalCBORStruct(in, &top); err != nil {
		t.Fatal(err)
	}
	if m, ok := top.(map[string]any); !ok || !reflect.DeepEqual(m["nested"], nested) || !reflect.DeepEqual(m["link"], link) {
		t.Errorf("into *any: %#v", top)
	}
}
