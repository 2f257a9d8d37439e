package datamodel

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestCBORValidText checks the UTF-8 fast paths against utf8.Valid at every length and position
// of a non-ASCII byte, with and without input after the string.
func TestCBORValidText(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for bad := -1; bad < n; bad++ {
			for _, c := range []byte{0x80, 0xff, 0xc3} {
				s := bytes.Repeat([]byte{'a'}, n)
				if bad >= 0 {
					s[bad] = c
				}
				for _, tail := range [][]byte{nil, []byte("\xffxxxxxxxx")} {
					data := append(append([]byte{}, s...), tail...)
					if got, want := cborValidText(data, 0, n), utf8.Valid(s); got != want {
						t.Errorf("%q followed by %q: %v, want %v", s, tail, got, want)
					}
					padded := append([]byte("xx"), data...)
					if got, want := cborValidText(padded, 2, 2+n), utf8.Valid(s); got != want {
						t.Errorf("%q at offset 2: %v, want %v", s, got, want)
					}
				}
			}
		}
	}
	// Valid multi-byte sequences after an ASCII prefix of every length.
	for n := 0; n <= 40; n++ {
		s := append(bytes.Repeat([]byte{'a'}, n), "é😀"...)
		if !cborValidText(s, 0, len(s)) {
			t.Errorf("%q: invalid", s)
		}
	}
}

// TestCBORKeyOrder checks the key fast paths (short ASCII keys, with enough input after them)
// against the rule itself (DECISIONS rule 9: text keys, valid UTF-8, sorted length-first then
// bytewise, no duplicates), for random pairs of keys of up to 20 bytes, most of equal length,
// each followed by a long value (fast paths) or a one-byte value (near the end: slow path).
func TestCBORKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := [][]byte{{'a'}, {'b'}, {0x7f}, {0x01}, {0xc3, 0xa9}, {0xff}, {0x80}}
	key := func(n int) []byte {
		var k []byte
		for len(k) < n {
			k = append(k, alphabet[rng.IntN(len(alphabet))]...)
		}
		return k[:n] // may cut a two-byte sequence: invalid UTF-8, as intended sometimes
	}
	long := append([]byte{0x78, 30}, bytes.Repeat([]byte{'x'}, 30)...)
	for i := 0; i < 20000; i++ {
		k1 := key(rng.IntN(21))
		k2 := append([]byte{}, k1...)
		switch rng.IntN(4) {
		case 0: // a different length
			k2 = key(rng.IntN(21))
		case 1: // equal
		default: // equal length, one byte changed
			if len(k2) > 0 {
				k2[rng.IntN(len(k2))] = alphabet[rng.IntN(len(alphabet))][0]
			}
		}
		var want error
		switch {
		case !utf8.Valid(k1) || !utf8.Valid(k2):
			want = ErrInvalidUTF8
		case len(k1) > len(k2) || len(k1) == len(k2) && bytes.Compare(k1, k2) > 0:
			want = ErrUnsortedKeys
		case bytes.Equal(k1, k2):
			want = ErrDuplicateKey
		}
		for _, value := range [][]byte{long, {0x00}} {
			in := []byte{0xa2}
			for _, k := range [][]byte{k1, k2} {
				in = append(in, 0x60|byte(len(k)))
				in = append(in, k...)
				in = append(in, value...)
			}
			err := ScanCBOR(in)
			if want == nil && err != nil || want != nil && !errors.Is(err, want) {
				t.Fatalf("keys %q, %q, value %x: ScanCBOR = %v, want %v", k1, k2, value, err, want)
			}
			if _, err := UnmarshalCBOR(in); want == nil && err != nil || want != nil && !errors.Is(err, want) {
				t.Fatalf("keys %q, %q, value %x: UnmarshalCBOR = %v, want %v", k1, k2, value, err, want)
			}
		}
	}
}
