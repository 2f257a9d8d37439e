package cidutil

import (
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/atcore/atcore/internal/echo"
)

// The bit-packing multibases (multiformats multibase table, RFC 4648 alphabets), decoded here
// without go-multibase: each character carries a fixed number of bits, most significant first.
// Decoding is strict so that each byte string has exactly one string per base: only the base's
// own alphabet (one case), padding exactly as the base requires, a length the encoder can
// produce, and zero bits after the last byte.

// alphabet describes one bit-packing multibase.
type alphabet struct {
	name   string
	bits   int  // bits per character
	block  int  // characters per padding block, for padded bases
	padded bool // '=' padding to a whole block is required
	value  [256]byte
}

const notInAlphabet = 0xff

func newAlphabet(name, chars string, bits int, padded bool) *alphabet {
	a := &alphabet{name: name, bits: bits, padded: padded}
	switch bits {
	case 5:
		a.block = 8
	case 6:
		a.block = 4
	}
	for i := range a.value {
		a.value[i] = notInAlphabet
	}
	for i := 0; i < len(chars); i++ {
		a.value[chars[i]] = byte(i)
	}
	return a
}

const (
	rfc4648Base32    = "abcdefghijklmnopqrstuvwxyz234567"
	rfc4648Base32Hex = "0123456789abcdefghijklmnopqrstuv"
	base64Std        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	base64URL        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// bitAlphabets maps a multibase prefix to its alphabet (an array: it is on every parse's path).
var bitAlphabets = [256]*alphabet{
	'0': newAlphabet("base2", "01", 1, false),
	'f': newAlphabet("base16", "0123456789abcdef", 4, false),
	'F': newAlphabet("base16upper", "0123456789ABCDEF", 4, false),
	'b': newAlphabet("base32", rfc4648Base32, 5, false),
	'B': newAlphabet("base32upper", upper(rfc4648Base32), 5, false),
	'c': newAlphabet("base32pad", rfc4648Base32, 5, true),
	'C': newAlphabet("base32padupper", upper(rfc4648Base32), 5, true),
	'v': newAlphabet("base32hex", rfc4648Base32Hex, 5, false),
	'V': newAlphabet("base32hexupper", upper(rfc4648Base32Hex), 5, false),
	't': newAlphabet("base32hexpad", rfc4648Base32Hex, 5, true),
	'T': newAlphabet("base32hexpadupper", upper(rfc4648Base32Hex), 5, true),
	'm': newAlphabet("base64", base64Std, 6, false),
	'M': newAlphabet("base64pad", base64Std, 6, true),
	'u': newAlphabet("base64url", base64URL, 6, false),
	'U': newAlphabet("base64urlpad", base64URL, 6, true),
}

// maxDecodedLen bounds the bytes that n characters decode to.
func (a *alphabet) maxDecodedLen(n int) int { return n * a.bits / 8 }

// decode appends the bytes that s (without the multibase prefix) encodes to dst. Offsets in
// errors count from the start of s.
func (a *alphabet) decode(dst []byte, s string) ([]byte, *Error) {
	if a.padded {
		var err *Error
		if s, err = a.stripPadding(s); err != nil {
			return nil, err
		}
	}
	// Room for exactly the bytes s can decode to, padding stripped: a caller's buffer (or
	// ParseString's stack) with room for the CID then takes it without an allocation.
	dst = slices.Grow(dst, a.maxDecodedLen(len(s)))
	i := 0
	if a.bits == 5 {
		// Whole blocks of 8 characters (40 bits, 5 bytes) at a time, for base32: the blessed CID
		// string is 58 characters of it. base32Blocks stops where its 8-byte stores no longer fit
		// the room; the loop below decodes the rest and finds the offset of an invalid character.
		n := len(dst)
		i = base32Blocks(&a.value, dst[n:cap(dst)], s)
		dst = dst[:n+i/8*5]
	}
	var acc uint
	bits := 0
	for ; i < len(s); i++ {
		v := a.value[s[i]]
		if v == notInAlphabet {
			return nil, invalid(i, "character "+echo.QuoteAt(s, i)+" is not in the "+a.name+" alphabet")
		}
		acc = acc<<a.bits | uint(v)
		bits += a.bits
		if bits >= 8 {
			bits -= 8
			dst = append(dst, byte(acc>>bits))
		}
	}
	if bits >= a.bits {
		// A whole character would carry no data: no encoder writes this length.
		return nil, invalid(-1, a.name+" text of impossible length "+strconv.Itoa(len(s)))
	}
	if acc&(1<<bits-1) != 0 {
		return nil, invalid(len(s)-1, "non-zero bits after the last byte: not the canonical "+a.name)
	}
	return dst, nil
}

// base32Blocks decodes the whole blocks of 8 characters at the start of s, as long as they are
// in the 5-bit alphabet whose values are val, into out, 5 bytes a block, and returns how many
// characters it decoded. out must have room for 3 bytes more than it decodes: each block is
// written as one 8-byte store, whose last 3 bytes the next block overwrites. Each block is
// sliced once, so that its loads need no bounds checks of their own.
func base32Blocks(val *[256]byte, out []byte, s string) int {
	i := 0
	for ; len(s)-i >= 8 && len(out) >= 8; i += 8 {
		q := s[i : i+8]
		v0, v1, v2, v3 := val[q[0]], val[q[1]], val[q[2]], val[q[3]]
		v4, v5, v6, v7 := val[q[4]], val[q[5]], val[q[6]], val[q[7]]
		if v0|v1|v2|v3|v4|v5|v6|v7 >= 32 {
			break
		}
		x := uint64(v0)<<35 | uint64(v1)<<30 | uint64(v2)<<25 | uint64(v3)<<20 |
			uint64(v4)<<15 | uint64(v5)<<10 | uint64(v6)<<5 | uint64(v7)
		binary.BigEndian.PutUint64(out, x<<24)
		out = out[5:]
	}
	return i
}

// stripPadding removes the '=' padding of a padded base, which must fill the last block exactly.
func (a *alphabet) stripPadding(s string) (string, *Error) {
	if len(s)%a.block != 0 {
		return "", invalid(-1, a.name+" text of "+strconv.Itoa(len(s))+" characters, not whole "+
			strconv.Itoa(a.block)+"-character blocks")
	}
	data := len(s)
	for data > 0 && s[data-1] == '=' {
		data--
	}
	// The padding an encoder writes: none if the data fills the block, else the rest of the block.
	if want := (a.block - data%a.block) % a.block; len(s)-data != want {
		return "", invalid(data, strconv.Itoa(len(s)-data)+" padding characters, want "+strconv.Itoa(want))
	}
	return s[:data], nil
}
