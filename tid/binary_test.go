package tid

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
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
	if _, err := FromBytes([]byte{1}); err == nil || !strings.Contains(err.Error(), "binary TID of 1 byte, want 8") {
		t.Errorf("FromBytes of 1 byte: %v", err)
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

// TestBinaryAndCBOR: MarshalBinary gives the 8 bytes of Bytes and UnmarshalBinary reads them back,
// while a CBOR encoder that honours MarshalCBOR (as fxamacker/cbor does in every mode, preferring
// it to MarshalBinary) gets the 13-character text string records carry.
func TestBinaryAndCBOR(t *testing.T) {
	id := MustParse("3kxnlhr3gxq23")
	bin, err := id.MarshalBinary()
	if want := id.Bytes(); err != nil || !bytes.Equal(bin, want[:]) {
		t.Fatalf("MarshalBinary = %x, %v; want %x", bin, err, want)
	}
	var back TID
	if err := back.UnmarshalBinary(bin); err != nil || back != id {
		t.Fatalf("UnmarshalBinary = %v, %v", back, err)
	}
	if err := back.UnmarshalBinary(bin[:7]); !errors.Is(err, ErrSyntax) {
		t.Errorf("UnmarshalBinary of 7 bytes: %v, want ErrSyntax", err)
	}
	c, err := id.MarshalCBOR()
	if want := append([]byte{0x6d}, "3kxnlhr3gxq23"...); err != nil || !bytes.Equal(c, want) {
		t.Fatalf("MarshalCBOR = %x, %v; want %x", c, err, want)
	}
	back = 0
	if err := back.UnmarshalCBOR(c); err != nil || back != id {
		t.Fatalf("UnmarshalCBOR = %v, %v", back, err)
	}
	for _, bad := range [][]byte{
		nil,
		{0x78, 0x0d, '3', 'k', 'x', 'n', 'l', 'h', 'r', '3', 'g', 'x', 'q', '2', '3'}, // non-minimal head
		append([]byte{0x4d}, "3kxnlhr3gxq23"...),                                      // a byte string
		append([]byte{0x6c}, "3kxnlhr3gxq2"...),                                       // 12 characters
		append([]byte{0x6d}, "3kxnlhr3gxq2-"...),                                      // not a TID
		{0x1b, 0x18, 0x76, 0x71, 0x6d, 0xc2, 0xce, 0xd8, 0x01},                        // the integer
	} {
		if err := back.UnmarshalCBOR(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("UnmarshalCBOR(%x) = %v, want ErrSyntax", bad, err)
		}
	}
}
