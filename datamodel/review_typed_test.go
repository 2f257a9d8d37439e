package datamodel

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/tid"
)

// TestReviewFxamackerMethods: the package doc names the types that implement fxamacker's
// Marshaler and Unmarshaler for programs that bring their own fxamacker modes. Link, Blob, Union
// and tid.TID do; Bytes has no such method (giving it one would make it a typedMethod to the
// typed codec), and needs none: fxamacker writes and reads a []byte type as a byte string itself.
func TestReviewFxamackerMethods(t *testing.T) {
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
