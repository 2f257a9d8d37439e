package datamodel

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/atcore/atcore/internal/utf8v"
	cid "github.com/ipfs/go-cid"
)

// The CBOR wire layer, under the scanner, the decoder and the encoder: item heads read and
// written in their shortest form (DECISIONS rule 9), simple values, integer range, UTF-8 text,
// the tag-42 link and the binary CID inside it.

// CBOR major types (RFC 8949 §3.1), pre-shifted into the high three bits of the initial byte.
const (
	cborMajorUint   byte = 0 << 5
	cborMajorNegInt byte = 1 << 5
	cborMajorBytes  byte = 2 << 5
	cborMajorText   byte = 3 << 5
	cborMajorArray  byte = 4 << 5
	cborMajorMap    byte = 5 << 5
	cborMajorTag    byte = 6 << 5
	cborMajorSimple byte = 7 << 5
)

// The only simple values and the only tag DAG-CBOR allows (DECISIONS rule 9).
const (
	cborFalse byte = 0xf4
	cborTrue  byte = 0xf5
	cborNull  byte = 0xf6

	cborTagCID = 42
)

// cborAppendHead appends the initial byte and argument of an item in the shortest form
// (RFC 8949 §4.2.1, required by DAG-CBOR).
func cborAppendHead(dst []byte, major byte, n uint64) []byte {
	switch {
	case n < 24:
		return append(dst, major|byte(n))
	case n <= math.MaxUint8:
		return append(dst, major|24, byte(n))
	case n <= math.MaxUint16:
		return append(dst, major|25, byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		return append(dst, major|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	default:
		return append(dst, major|27, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}

func cborAppendInt(dst []byte, n int64) []byte {
	if n >= 0 {
		return cborAppendHead(dst, cborMajorUint, uint64(n))
	}
	// Major type 1 carries -1-n, which for n = MinInt64 is MaxInt64: no overflow.
	return cborAppendHead(dst, cborMajorNegInt, uint64(-1-n))
}

func cborAppendText(dst []byte, s string) ([]byte, error) {
	if !utf8v.ValidString(s) {
		return dst, valueError(ErrInvalidUTF8, quoteDetail(s))
	}
	return append(cborAppendHead(dst, cborMajorText, uint64(len(s))), s...), nil
}

// cborAppendLink appends tag 42 over a byte string holding 0x00 (the identity multibase prefix)
// and the binary CID (https://atproto.com/specs/data-model, "link").
func cborAppendLink(dst []byte, c cid.Cid, maxLen int) ([]byte, error) {
	if err := checkLink(c, maxLen); err != nil {
		return dst, err
	}
	b := c.KeyString() // the binary CID, without copying
	dst = append(dst, cborMajorTag|24, cborTagCID)
	dst = cborAppendHead(dst, cborMajorBytes, uint64(len(b)+1))
	dst = append(dst, 0)
	return append(dst, b...), nil
}

// Encoded keys of the blob forms, in DAG-CBOR key order.
const (
	cborKeyRef      = "\x63ref"
	cborKeySize     = "\x64size"
	cborKeyType     = "\x65$type\x64blob" // with its value
	cborKeyMimeType = "\x68mimeType"
	cborKeyCID      = "\x63cid"
)

// cborHead reads the head of the item at off (RFC 8949 §3): its major type (0–7), its argument,
// and the offset just past the head. It enforces DECISIONS rule 9 for heads: the argument in its
// shortest form, no indefinite lengths, no reserved additional information. For major type 7 it
// reads only the initial byte and returns the additional information as the argument, for the
// caller to classify (floats and most simple values are refused there).
func cborHead(data []byte, off int) (major byte, arg uint64, next int, err *Error) {
	if off >= len(data) {
		return 0, 0, off, cborErr(ErrTruncated, off, "")
	}
	ib := data[off]
	major, ai := ib>>5, ib&0x1f
	if ai < 24 || major == 7 {
		return major, uint64(ai), off + 1, nil
	}
	rest := data[off+1:]
	switch ai {
	case 24:
		if len(rest) < 1 {
			return 0, 0, off, cborErr(ErrTruncated, off, "")
		}
		arg = uint64(rest[0])
		if arg < 24 {
			return 0, 0, off, cborErr(ErrNonMinimal, off, "one-byte argument "+strconv.FormatUint(arg, 10))
		}
		return major, arg, off + 2, nil
	case 25:
		if len(rest) < 2 {
			return 0, 0, off, cborErr(ErrTruncated, off, "")
		}
		arg = uint64(binary.BigEndian.Uint16(rest))
		if arg <= math.MaxUint8 {
			return 0, 0, off, cborErr(ErrNonMinimal, off, "two-byte argument "+strconv.FormatUint(arg, 10))
		}
		return major, arg, off + 3, nil
	case 26:
		if len(rest) < 4 {
			return 0, 0, off, cborErr(ErrTruncated, off, "")
		}
		arg = uint64(binary.BigEndian.Uint32(rest))
		if arg <= math.MaxUint16 {
			return 0, 0, off, cborErr(ErrNonMinimal, off, "four-byte argument "+strconv.FormatUint(arg, 10))
		}
		return major, arg, off + 5, nil
	case 27:
		if len(rest) < 8 {
			return 0, 0, off, cborErr(ErrTruncated, off, "")
		}
		arg = binary.BigEndian.Uint64(rest)
		if arg <= math.MaxUint32 {
			return 0, 0, off, cborErr(ErrNonMinimal, off, "eight-byte argument "+strconv.FormatUint(arg, 10))
		}
		return major, arg, off + 9, nil
	case 31:
		if major >= 2 && major <= 5 {
			return 0, 0, off, cborErr(ErrIndefinite, off, cborMajorNames[major])
		}
		return 0, 0, off, cborErr(ErrSyntax, off, "additional information 31 on "+cborMajorWithArticle[major])
	default:
		return 0, 0, off, cborErr(ErrSyntax, off, "reserved additional information "+strconv.Itoa(int(ai)))
	}
}

var cborMajorNames = [8]string{"unsigned integer", "negative integer", "byte string", "text string",
	"array", "map", "tag", "simple value or float"}

// cborMajorWithArticle is cborMajorNames with the indefinite article, for "tag 42 on a…".
var cborMajorWithArticle = [8]string{"an unsigned integer", "a negative integer", "a byte string",
	"a text string", "an array", "a map", "a tag", "a simple value or float"}

// cborSimple classifies a major type 7 item with additional information ai (DECISIONS rule 9):
// only false, true and null are allowed. It returns nil for those.
func cborSimple(ai uint64, off int) *Error {
	switch {
	case ai >= 20 && ai <= 22:
		return nil
	case ai == 23:
		return cborErr(ErrSimpleValue, off, "undefined")
	case ai < 24:
		return cborErr(ErrSimpleValue, off, "simple("+strconv.FormatUint(ai, 10)+")")
	case ai == 24:
		return cborErr(ErrSimpleValue, off, "one-byte simple value")
	case ai <= 27:
		return cborErr(ErrFloat, off, cborFloatNames[ai-25])
	case ai == 31:
		return cborErr(ErrSyntax, off, "break stop code outside an indefinite-length item")
	default:
		return cborErr(ErrSyntax, off, "reserved additional information "+strconv.FormatUint(ai, 10))
	}
}

var cborFloatNames = [3]string{"half-precision float", "single-precision float", "double-precision float"}

// cborIntRange checks that an integer's argument fits int64 (DECISIONS rule 9): major type 0
// carries n itself, major type 1 carries -1-n; both need arg ≤ MaxInt64. With safe
// (WithSafeIntegers), the integer must also be within ±(2^53−1).
func cborIntRange(major byte, arg uint64, off int, safe bool) *Error {
	if arg > math.MaxInt64 {
		if major == 0 {
			return cborErr(ErrIntegerRange, off, strconv.FormatUint(arg, 10))
		}
		return cborErr(ErrIntegerRange, off, "-1-"+strconv.FormatUint(arg, 10))
	}
	if safe && !cborSafeArg(major, arg) {
		n := int64(arg)
		if major == 1 {
			n = -1 - n
		}
		return cborErr(ErrUnsafeInteger, off, strconv.FormatInt(n, 10))
	}
	return nil
}

// cborUintArg reads the 1-, 2-, 4- or 8-byte argument of the head ib at off (ib's low bits 0x18
// to 0x1b) as one big-endian word load, shifted down to the argument's bytes. ok is false when
// the input has fewer than 8 bytes after the head, or when the argument is not in its shortest
// form (rule 9): valueSlow then reads it, or reports the error, the long way.
func cborUintArg(data []byte, off int, ib byte) (u uint64, end int, ok bool) {
	if off+9 > len(data) {
		return 0, 0, false
	}
	k := 1 << (ib & 3) // 1, 2, 4 or 8 bytes
	u = binary.BigEndian.Uint64(data[off+1:]) >> ((64 - 8*k) & 63)
	return u, off + 1 + k, u >= cborShortestArg[ib&3]
}

// cborShortestArg is the least argument each argument size may carry in DAG-CBOR's shortest
// form: anything smaller fits the size below (rule 9).
var cborShortestArg = [4]uint64{24, 1 << 8, 1 << 16, 1 << 32}

// cborText checks the text string whose content is data[p:p+n] (head at off) and returns where
// it ends: the length must fit in the input and the content must be valid UTF-8 (rule 9).
func cborText(data []byte, off, p int, n uint64) (int, *Error) {
	if n > uint64(len(data)-p) {
		return 0, cborErr(ErrTruncated, off, "text string of "+count(n, "bytes"))
	}
	end := p + int(n)
	if !cborValidText(data, p, end) {
		return 0, cborErr(ErrInvalidUTF8, off, "")
	}
	return end, nil
}

// cborASCIIMask has the top bit of every byte set: a word ANDed with it is zero when all eight
// bytes are ASCII.
const cborASCIIMask = 0x8080808080808080

// cborValidText reports whether data[p:end] is valid UTF-8: utf8v.Valid, except that a string
// of fewer than 8 bytes is first tested as one word, the bytes past it masked off, when the input
// extends that far. Strings of 8 bytes or more go straight to utf8v.Valid, whose own ASCII loop
// is as fast: a pass here ORing their words first cost non-ASCII text a second pass.
func cborValidText(data []byte, p, end int) bool {
	if n := end - p; n < 8 && len(data)-p >= 8 {
		if binary.LittleEndian.Uint64(data[p:])&(cborASCIIMask>>(64-8*n)) == 0 {
			return true
		}
	}
	return utf8v.Valid(data[p:end])
}

// cborASCII16 reports whether data[p:p+n] is all ASCII, for n ≤ 16 and p+16 ≤ len(data): two
// word loads, the bytes past n masked off by a table, no loop. (With masks computed from n by
// shifts, and cborShortLess calling the runtime's compare for keys of 9 to 16 bytes, cborKey took
// 135 instructions a key on the 32 768-key map of internal/peers' wide32k; 87 with both changes.)
func cborASCII16(data []byte, p, n int) bool {
	b := data[p : p+16]
	m := &cborASCII16Masks[n&31]
	return binary.LittleEndian.Uint64(b)&m[0]|binary.LittleEndian.Uint64(b[8:])&m[1] == 0
}

// cborASCII16Masks[n] has the high bit of each of the first n bytes (n ≤ 16) of two
// little-endian words; the entries past 16 are never used.
var cborASCII16Masks = func() (t [32][2]uint64) {
	for n := range 17 {
		for i := range n {
			t[n][i/8] |= 0x80 << (8 * (i % 8))
		}
	}
	return t
}()

// cborShortLess reports whether data[a:a+n] sorts strictly before data[b:b+n], for n ≤ 16 and
// a < b ≤ len(data)-16: as one or two big-endian words, the bytes past n shifted out.
func cborShortLess(data []byte, a, b, n int) bool {
	x, y := binary.BigEndian.Uint64(data[a:]), binary.BigEndian.Uint64(data[b:])
	if n <= 8 {
		shift := uint(64 - 8*n) // 64 for n = 0, which makes both words 0: equal, not less
		return x>>shift < y>>shift
	}
	if x != y {
		return x < y
	}
	shift := uint(128-8*n) & 63 // 0 to 56
	return binary.BigEndian.Uint64(data[a+8:])>>shift < binary.BigEndian.Uint64(data[b+8:])>>shift
}

// cborCheckCID checks a binary CIDv1 without allocating: version 1, then codec, hash function
// and digest length as minimal unsigned varints (at most 9 bytes, as multiformats specifies), then
// exactly the declared digest. It returns the offset of the problem and what it is, or "" if b
// is valid. cidutil.ParseBinary makes the same checks when building the CID; this copy exists
// because the scanner must not allocate.
func cborCheckCID(b []byte) (int, string) {
	if len(b) >= 2 && b[0] == 0x12 && b[1] == 0x20 {
		return 0, "CIDv0 is not allowed (DECISIONS rule 12)"
	}
	if len(b) == 0 || b[0] != 1 {
		return 0, "not a CIDv1"
	}
	off := 1
	var digestLen uint64
	for field := 0; field < 3; field++ {
		v, n := cborUvarint(b[off:])
		if n <= 0 {
			if n == 0 {
				return off, "truncated varint"
			}
			return off, "varint not in its shortest form or longer than 9 bytes"
		}
		off += n
		digestLen = v
	}
	if digestLen != uint64(len(b)-off) {
		return off, "digest length " + strconv.FormatUint(digestLen, 10) + " declared, " + strconv.Itoa(len(b)-off) + " bytes present"
	}
	return 0, ""
}

// cborUvarint reads a multiformats unsigned varint: n > 0 bytes read, 0 if truncated, -1 if not
// minimal or longer than 9 bytes.
func cborUvarint(b []byte) (v uint64, n int) {
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		c := b[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, -1
			}
			return v, i + 1
		}
	}
	return 0, -1
}
