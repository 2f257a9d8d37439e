package tid

import (
	"bytes"
	"encoding"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		rule string
		id   TID
		want []byte
	}{
		{"zero", 0, []byte{0, 0, 0, 0, 0, 0, 0, 0}},
		// 1721407246480310<<10 | 1 (DECISIONS rule 8), computed apart with Python.
		{"big-endian (spec: big-endian byte ordering)", MustParse("3kxnlhr3gxq23"), []byte{0x18, 0x76, 0x71, 0x6d, 0xc2, 0xce, 0xd8, 0x01}},
		{"DECISIONS rule 4: the top bit round-trips", MustParse("jzzzzzzzzzzzz"), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tt := range tests {
		b := tt.id.Bytes()
		if !bytes.Equal(b[:], tt.want) {
			t.Errorf("%s: Bytes() = % x, want % x", tt.rule, b, tt.want)
		}
		if back, err := FromBytes(b[:]); err != nil || back != tt.id {
			t.Errorf("%s: FromBytes(% x) = %v, %v; want %v", tt.rule, b, back, err, tt.id)
		}
		if b := tt.id.AppendBytes([]byte("k")); !bytes.Equal(b, append([]byte("k"), tt.want...)) {
			t.Errorf("%s: AppendBytes = % x", tt.rule, b)
		}
	}
	for _, n := range []int{0, 7, 9, 13} {
		if got, err := FromBytes(make([]byte, n)); !errors.Is(err, ErrSyntax) || got != 0 {
			t.Errorf("FromBytes(%d bytes) = %v, %v; want ErrSyntax", n, got, err)
		}
	}
}

// The binary forms sort bytewise as the TIDs and their strings do.
func TestBytesOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a, b := TID(r.Uint64()>>r.IntN(64)), TID(r.Uint64()>>r.IntN(64))
		ab, bb := a.Bytes(), b.Bytes()
		if got := bytes.Compare(ab[:], bb[:]); got != a.Compare(b) {
			t.Fatalf("bytes.Compare(%v, %v) = %d, Compare = %d", a, b, got, a.Compare(b))
		}
	}
}

// A TID must not implement encoding.BinaryMarshaler or BinaryUnmarshaler: CBOR encoders prefer
// them to TextMarshaler and would write TID fields as bytes, not as the strings atproto uses.
func TestNoBinaryMarshaler(t *testing.T) {
	var id, ptr any = TID(0), new(TID)
	if _, ok := id.(encoding.BinaryMarshaler); ok {
		t.Error("TID implements encoding.BinaryMarshaler")
	}
	if _, ok := ptr.(encoding.BinaryUnmarshaler); ok {
		t.Error("*TID implements encoding.BinaryUnmarshaler")
	}
}
