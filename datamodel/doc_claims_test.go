package datamodel

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/tid"
)

// TestDocFxamackerMethods: the package doc names the types that implement fxamacker's
// Marshaler and Unmarshaler for programs that bring their own fxamacker modes. Link, Blob, Union
// and tid.TID do; Bytes has no such method (giving it one would make it a typedMethod to the
// typed codec), and needs none: fxamacker writes and reads a []byte type as a byte string itself.
func TestDocFxamackerMethods(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[Link](), reflect.TypeFor[Blob](), reflect.TypeFor[Union](), reflect.TypeFor[tid.TID]()} {
		if !typ.Implements(cborMarshalerT) || !reflect.PointerTo(typ).Implements(cborUnmarshalerT) {
			t.Errorf("%v does not implement fxamacker's Marshaler and Unmarshaler", typ)
		}
	}
	bt := reflect.TypeFor[Bytes]()
	if bt.Implements(cborMarshalerT) || reflect.PointerTo(bt).Implements(cborUnmarshalerT) {
		t.Errorf("Bytes has fxamacker methods: the typed codec would read it as a typedMethod")
	}
	in := Bytes("\x00\x01abc")
	out, err := cbor.Marshal(in)
	if err != nil || !bytes.Equal(out, []byte("\x45\x00\x01abc")) {
		t.Fatalf("fxamacker writes Bytes as %x, %v; want the byte string 4500016162 63", out, err)
	}
	var back Bytes
	if err := cbor.Unmarshal(out, &back); err != nil || !bytes.Equal(back, in) {
		t.Fatalf("fxamacker reads back %x, %v", back, err)
	}
}

// TestDocLimitsLegacyBlob: Limits says MaxElements below 4 refuses blobs; that holds for the
// current form (a map of four) only. The legacy form is a map of two, so every entry point takes
// it with MaxElements 2 or 3, and refuses it only below 2; MaxKeyLen below 8 refuses both forms
// ("mimeType").
func TestDocLimitsLegacyBlob(t *testing.T) {
	l := cborTestLink(t, cborTestBlobLinkString)
	type holder struct {
		B Blob `cbor:"b"`
	}
	check := func(b Blob, lim Limits, want error) {
		t.Helper()
		rec := map[string]any{"b": b}
		cb, err := MarshalCBOR(rec)
		if err != nil {
			t.Fatal(err)
		}
		js, err := MarshalJSON(rec)
		if err != nil {
			t.Fatal(err)
		}
		o := WithLimits(lim)
		var h1, h2 holder
		_, e1 := UnmarshalCBOR(cb, o)
		_, e2 := UnmarshalJSON(js, o)
		e3 := UnmarshalCBORStruct(cb, &h1, o)
		e4 := UnmarshalJSONStruct(js, &h2, o)
		_, e5 := MarshalCBORStruct(holder{b}, o)
		_, e6 := MarshalJSONStruct(holder{b}, o)
		e7 := Validate(rec, o)
		for i, err := range []error{e1, e2, e3, e4, e5, e6, e7} {
			if want == nil && err != nil || want != nil && !errors.Is(err, want) {
				t.Errorf("legacy %v, %+v, entry point %d: %v, want %v", b.Legacy, lim, i, err, want)
			}
		}
	}
	blob := Blob{Ref: l, MimeType: "image/png", Size: 1}
	legacy := Blob{Ref: l, MimeType: "image/png", Legacy: true}
	check(blob, Limits{MaxElements: 3}, ErrTooManyElements)
	check(legacy, Limits{MaxElements: 3}, nil)
	check(legacy, Limits{MaxElements: 2}, nil)
	check(legacy, Limits{MaxElements: 1}, ErrTooManyElements)
	check(blob, Limits{MaxKeyLen: 7}, ErrKeyTooLong)
	check(legacy, Limits{MaxKeyLen: 7}, ErrKeyTooLong)
}
