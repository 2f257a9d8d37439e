// Package base32sort is the base32-sortable codec shared by the identifier packages.
//
// The alphabet is 234567abcdefghijklmnopqrstuvwxyz (https://atproto.com/specs/tid, "TID
// Structure"): the digits come before the letters, so the byte order of encoded strings is the
// numeric order of the values they encode. A uint64 always encodes to exactly 13 characters, most significant first; the first
// character carries only the top 4 bits, so it is one of 234567abcdefghij.
package base32sort

// Alphabet lists the 32 characters in value order.
const Alphabet = "234567abcdefghijklmnopqrstuvwxyz"

// Len is the length of an encoded uint64.
const Len = 13

// invalid marks bytes outside the alphabet in decodeTable.
const invalid = 0xFF

// decodeTable maps every byte to its value, or to invalid. A full 256-entry table lets decoding
// index it with any byte and no bounds check.
var decodeTable = func() (t [256]byte) {
	for i := range t {
		t[i] = invalid
	}
	for i := 0; i < len(Alphabet); i++ {
		t[Alphabet[i]] = byte(i)
	}
	return t
}()

// Value returns the value of c, and false if c is not in the alphabet.
func Value(c byte) (byte, bool) {
	v := decodeTable[c]
	return v, v != invalid
}

// Encode13 writes the 13-character encoding of v to dst[:13]. It panics if len(dst) < 13.
func Encode13(dst []byte, v uint64) {
	_ = dst[12] // one bounds check for the whole unrolled body
	dst[0] = Alphabet[v>>60]
	dst[1] = Alphabet[(v>>55)&31]
	dst[2] = Alphabet[(v>>50)&31]
	dst[3] = Alphabet[(v>>45)&31]
	dst[4] = Alphabet[(v>>40)&31]
	dst[5] = Alphabet[(v>>35)&31]
	dst[6] = Alphabet[(v>>30)&31]
	dst[7] = Alphabet[(v>>25)&31]
	dst[8] = Alphabet[(v>>20)&31]
	dst[9] = Alphabet[(v>>15)&31]
	dst[10] = Alphabet[(v>>10)&31]
	dst[11] = Alphabet[(v>>5)&31]
	dst[12] = Alphabet[v&31]
}

// Append13 appends the 13-character encoding of v to dst.
func Append13(dst []byte, v uint64) []byte {
	var buf [Len]byte
	Encode13(buf[:], v)
	return append(dst, buf[:]...)
}

// Decode13 decodes exactly 13 characters. ok is false if len(s) != 13, if a character is outside
// the alphabet, or if the first character is above 'j' (the value would need 65 bits).
func Decode13(s string) (v uint64, ok bool) {
	if len(s) != Len {
		return 0, false
	}
	t := &decodeTable
	c0, c1, c2, c3, c4 := t[s[0]], t[s[1]], t[s[2]], t[s[3]], t[s[4]]
	c5, c6, c7, c8, c9 := t[s[5]], t[s[6]], t[s[7]], t[s[8]], t[s[9]]
	c10, c11, c12 := t[s[10]], t[s[11]], t[s[12]]
	// invalid is 0xFF, so OR-ing the values has its top bits set if any character is invalid;
	// c0 must also fit in 4 bits.
	if (c1|c2|c3|c4|c5|c6|c7|c8|c9|c10|c11|c12)&0xE0 != 0 || c0 > 15 {
		return 0, false
	}
	v = uint64(c0)<<60 | uint64(c1)<<55 | uint64(c2)<<50 | uint64(c3)<<45 | uint64(c4)<<40 |
		uint64(c5)<<35 | uint64(c6)<<30 | uint64(c7)<<25 | uint64(c8)<<20 | uint64(c9)<<15 |
		uint64(c10)<<10 | uint64(c11)<<5 | uint64(c12)
	return v, true
}

// Decode decodes a variable-length encoding of 1 to 13 characters, most significant first: the
// result is the number the characters spell, not padded. ok is false for an empty or too long
// string, a character outside the alphabet, or a 13-character string that overflows 64 bits.
func Decode(s string) (v uint64, ok bool) {
	if len(s) == 0 || len(s) > Len {
		return 0, false
	}
	if len(s) == Len {
		return Decode13(s)
	}
	for i := 0; i < len(s); i++ {
		c := decodeTable[s[i]]
		if c == invalid {
			return 0, false
		}
		v = v<<5 | uint64(c)
	}
	return v, true
}

// IndexInvalid returns the index of the first byte of s outside the alphabet, or -1.
func IndexInvalid(s string) int {
	for i := 0; i < len(s); i++ {
		if decodeTable[s[i]] == invalid {
			return i
		}
	}
	return -1
}
