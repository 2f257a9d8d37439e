package datamodel

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
)

// ScanCBOR checks that data is exactly one canonical DAG-CBOR value within the limits, without
// allocating (DECISIONS rules 9 and 14; passing options costs one allocation, for the options).
// Every check UnmarshalCBOR makes on the encoding is made here too, in one pass over the bytes,
// but no Go value is built. It is a pure syntax check: it does not apply the data-model rules
// (rules 10, 11 and 13: "$link" and "$bytes" keys, "$type", blobs), which UnmarshalCBOR adds.
//
// It rejects: map keys that are not text strings, not sorted length-first then bytewise, or
// repeated; integers, lengths and tags not in their shortest form; indefinite lengths; floats of
// any width; tags other than 42, and tag 42 on anything but 0x00 followed by a CIDv1 of at most
// Limits.MaxCIDLen bytes; simple values other than false, true and null; invalid UTF-8 in text
// strings; integers outside int64; trailing bytes; and anything beyond the limits. A declared
// length is checked against the bytes actually present before it is used, so a short hostile
// input cannot make it loop or allocate.
//
// The error is an *Error giving the byte offset of the offending item, the JSON Pointer of the
// value, and one of the Err* sentinels.
func ScanCBOR(data []byte, opts ...Option) error {
	lim := limitsOf(opts)
	if len(data) > lim.MaxCBORSize {
		return cborErrTooLarge(lim)
	}
	s := cborScanner{data: data, lim: &lim}
	end, err := s.value(0, 1)
	if err != nil {
		return err
	}
	if end != len(data) {
		return cborErr(ErrTrailingBytes, end, strconv.Itoa(len(data)-end)+" bytes")
	}
	return nil
}

// cborErr builds the error for the item at byte offset off. Callers on the way out of the
// recursion prepend their path tokens, so the success path does no path bookkeeping.
func cborErr(sentinel error, off int, detail string) *Error {
	return &Error{Err: sentinel, Offset: int64(off), Detail: detail}
}

func cborErrTooLarge(lim Limits) *Error {
	return cborErr(ErrTooLarge, lim.MaxCBORSize, "more than "+strconv.Itoa(lim.MaxCBORSize)+" bytes")
}

// cborErrKey prepends the JSON Pointer token of the map key data[ks:ke] to err's path.
func cborErrKey(err *Error, data []byte, ks, ke int) *Error {
	err.Path = string(appendPointerToken(nil, string(data[ks:ke]))) + err.Path
	return err
}

// cborErrIndex prepends the JSON Pointer token of array index i to err's path.
func cborErrIndex(err *Error, i int) *Error {
	err.Path = "/" + strconv.Itoa(i) + err.Path
	return err
}

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
// carries n itself, major type 1 carries -1-n; both need arg ≤ MaxInt64.
func cborIntRange(major byte, arg uint64, off int) *Error {
	if arg > math.MaxInt64 {
		if major == 0 {
			return cborErr(ErrIntegerRange, off, strconv.FormatUint(arg, 10))
		}
		return cborErr(ErrIntegerRange, off, "-1-"+strconv.FormatUint(arg, 10))
	}
	return nil
}

// cborText checks the text string whose content is data[p:p+n] (head at off) and returns where
// it ends: the length must fit in the input and the content must be valid UTF-8 (rule 9).
func cborText(data []byte, off, p int, n uint64) (int, *Error) {
	if n > uint64(len(data)-p) {
		return 0, cborErr(ErrTruncated, off, "text string of "+strconv.FormatUint(n, 10)+" bytes")
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

// cborValidText reports whether data[p:end] is valid UTF-8. It is utf8.Valid with a fast path
// for ASCII, which is most of the text in records: it ORs the string's 8-byte words together and
// tests their top bits once, without a branch per word. A string of 8 bytes or more ends with a
// word loaded from its last 8 bytes, which may overlap the word before (no harm to an OR); a
// shorter one is one word with the bytes past it masked off, when the input extends that far. At
// a non-ASCII byte it hands over to utf8.Valid.
func cborValidText(data []byte, p, end int) bool {
	b := data[p:end]
	var acc uint64
	switch {
	case len(b) >= 8:
		acc = binary.LittleEndian.Uint64(b[len(b)-8:])
		for len(b) > 16 {
			acc |= binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:])
			b = b[16:]
		}
		if len(b) > 8 {
			acc |= binary.LittleEndian.Uint64(b)
		}
	case len(data)-p >= 8:
		acc = binary.LittleEndian.Uint64(data[p:]) & (cborASCIIMask >> (64 - 8*len(b)))
	default:
		for _, c := range b {
			acc |= uint64(c) // the top bit lands on the mask's lowest byte
		}
	}
	if acc&cborASCIIMask == 0 {
		return true
	}
	return utf8.Valid(data[p:end])
}

// cborContainer checks an array or map header before any element is read: nesting depth, the
// element limit, and that the input can hold the declared count (each element takes at least one
// byte, each map entry two), so that a forged length costs nothing (rule 14).
func cborContainer(data []byte, lim *Limits, major byte, n uint64, off, p, depth int) *Error {
	if depth > lim.MaxDepth {
		return cborErr(ErrTooDeep, off, "deeper than "+strconv.Itoa(lim.MaxDepth)+" levels")
	}
	minBytes := n
	if major == 5 {
		minBytes = 2 * n // cannot overflow: n is checked against the input length first
	}
	if n > uint64(len(data)-p) || minBytes > uint64(len(data)-p) {
		return cborErr(ErrTruncated, off, cborMajorNames[major]+" of "+strconv.FormatUint(n, 10)+" elements")
	}
	if n > uint64(lim.MaxElements) {
		return cborErr(ErrTooManyElements, off, strconv.FormatUint(n, 10)+" elements, limit "+strconv.Itoa(lim.MaxElements))
	}
	return nil
}

// cborKey reads the map key at off, which must be a text string of valid UTF-8 within the key
// length limit and must sort strictly after the previous key data[pks:pke] (pke < 0 for the
// first key): length-first, then bytewise, no duplicates (rule 9). It returns the key's content
// range.
func cborKey(data []byte, lim *Limits, off, pks, pke int) (ks, ke int, err *Error) {
	// Fast path for the usual key: an ASCII text string of 1 to 8 bytes, in order, checked and
	// compared with the previous key as big-endian words shifted down to the key's bytes.
	if off >= 0 && off+9 <= len(data) {
		b := data[off : off+9]
		if n := int(b[0]) - int(cborMajorText); uint(n-1) < 8 && n <= lim.MaxKeyLen {
			shift := uint(64-8*n) & 63 // 0 to 56
			w := binary.BigEndian.Uint64(b[1:]) >> shift
			if w&cborASCIIMask == 0 {
				// Equal lengths compare bytewise; pks+8 <= off < len(data)-8: the previous key
				// and its head come before this one.
				if prevLen := pke - pks; n > prevLen || n == prevLen && binary.BigEndian.Uint64(data[pks:])>>shift < w {
					return off + 1, off + 1 + n, nil
				}
			}
			return cborKeySlow(data, lim, off, pks, pke)
		}
	}
	// Then keys of up to 16 bytes.
	if off+17 <= len(data) {
		if n := int(data[off]) - int(cborMajorText); uint(n) <= 16 && n <= lim.MaxKeyLen && cborASCII16(data, off+1, n) {
			ks, ke = off+1, off+1+n
			if prevLen := pke - pks; n > prevLen || n == prevLen && cborShortLess(data, pks, ks, n) {
				return ks, ke, nil
			}
		}
	}
	return cborKeySlow(data, lim, off, pks, pke)
}

// cborASCII16 reports whether data[p:p+n] is all ASCII, for n ≤ 16 and p+16 ≤ len(data): two
// word loads, the bytes past n masked off, no loop.
func cborASCII16(data []byte, p, n int) bool {
	w := binary.LittleEndian.Uint64(data[p:]) & (cborASCIIMask >> (64 - 8*min(n, 8)))
	w |= binary.LittleEndian.Uint64(data[p+8:]) & (cborASCIIMask >> (64 - 8*max(n-8, 0)))
	return w&cborASCIIMask == 0
}

// cborShortLess reports whether data[a:a+n] sorts strictly before data[b:b+n], for n ≤ 16 and
// a < b ≤ len(data)-16: keys of up to 8 bytes compare as big-endian words, longer ones as strings.
func cborShortLess(data []byte, a, b, n int) bool {
	if n <= 8 {
		shift := uint(64 - 8*n) // 64 for n = 0, which makes both words 0: equal, not less
		return binary.BigEndian.Uint64(data[a:])>>shift < binary.BigEndian.Uint64(data[b:])>>shift
	}
	return string(data[a:a+n]) < string(data[b:b+n])
}

// cborKeySlow is cborKey for any key, and the one that reports errors.
func cborKeySlow(data []byte, lim *Limits, off, pks, pke int) (ks, ke int, err *Error) {
	major, n, p, err := cborHead(data, off)
	if err != nil {
		return 0, 0, err
	}
	if major != 3 {
		return 0, 0, cborErr(ErrKeyNotString, off, cborMajorNames[major])
	}
	if n > uint64(lim.MaxKeyLen) {
		return 0, 0, cborErr(ErrKeyTooLong, off, strconv.FormatUint(n, 10)+" bytes, limit "+strconv.Itoa(lim.MaxKeyLen))
	}
	ke, err = cborText(data, off, p, n)
	if err != nil {
		return 0, 0, err
	}
	if pke >= 0 {
		prevLen, curLen := pke-pks, ke-p
		if curLen < prevLen {
			return 0, 0, cborErr(ErrUnsortedKeys, off, strconv.Quote(string(data[p:ke]))+" after "+strconv.Quote(string(data[pks:pke])))
		}
		if curLen == prevLen {
			switch bytes.Compare(data[pks:pke], data[p:ke]) {
			case 0:
				return 0, 0, cborErr(ErrDuplicateKey, off, strconv.Quote(string(data[p:ke])))
			case 1:
				return 0, 0, cborErr(ErrUnsortedKeys, off, strconv.Quote(string(data[p:ke]))+" after "+strconv.Quote(string(data[pks:pke])))
			}
		}
	}
	return p, ke, nil
}

// cborLink checks the content of a tag 42 whose head ends at p (tag head at off) and returns the
// binary CID's range: a byte string holding the identity multibase prefix 0x00 and a CIDv1 of at
// most MaxCIDLen bytes (spec/data-model.txt, "link"; DECISIONS rules 9 and 12).
func cborLink(data []byte, lim *Limits, off, p int) (cs, ce int, err *Error) {
	major, n, q, err := cborHead(data, p)
	if err != nil {
		return 0, 0, err
	}
	if major != 2 {
		return 0, 0, cborErr(ErrInvalidCID, p, "tag 42 on "+cborMajorWithArticle[major]+", want a byte string")
	}
	if n > uint64(len(data)-q) {
		return 0, 0, cborErr(ErrTruncated, p, "byte string of "+strconv.FormatUint(n, 10)+" bytes")
	}
	if n == 0 || data[q] != 0 {
		return 0, 0, cborErr(ErrInvalidCID, q, "tag 42 content does not start with the 0x00 multibase prefix")
	}
	cs, ce = q+1, q+int(n)
	if ce-cs > lim.MaxCIDLen {
		return 0, 0, cborErr(ErrInvalidCID, cs, strconv.Itoa(ce-cs)+"-byte CID, limit "+strconv.Itoa(lim.MaxCIDLen))
	}
	if at, detail := cborCheckCID(data[cs:ce]); detail != "" {
		return 0, 0, cborErr(ErrInvalidCID, cs+at, detail)
	}
	return cs, ce, nil
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

// cborScanner is the state of one ScanCBOR: the input and the limits.
type cborScanner struct {
	data []byte
	lim  *Limits
	// dataModel adds the cheap data-model rules on map keys, for UnmarshalCBORStruct, where no
	// generic decode follows to check them: "$type" holds a non-empty string (rule 11), and no
	// map has a "$link" or "$bytes" key (rule 10; see cborReservedKey).
	dataModel bool
}

// value checks the item at off, at nesting depth depth, and returns the offset after it.
func (s *cborScanner) value(off, depth int) (int, *Error) {
	// Fast paths for the most common items: small integers, short valid strings, false, true,
	// null. Anything else, including every error, takes the general path below.
	if off < len(s.data) {
		switch ib := s.data[off]; {
		case ib < 0x18 || ib-0x20 < 0x18 || ib-0xf4 < 3:
			return off + 1, nil
		case ib-0x60 < 0x18:
			if n := int(ib - 0x60); n <= 16 && off+17 <= len(s.data) {
				if cborASCII16(s.data, off+1, n) {
					return off + 1 + n, nil
				}
			} else if end := off + 1 + n; end <= len(s.data) && cborValidText(s.data, off+1, end) {
				return end, nil
			}
		case ib == 0x78 && off+1 < len(s.data) && s.data[off+1] >= 24: // text of 24 to 255 bytes
			if end := off + 2 + int(s.data[off+1]); end <= len(s.data) && cborValidText(s.data, off+2, end) {
				return end, nil
			}
		case (ib == 0x18 || ib == 0x38) && off+1 < len(s.data) && s.data[off+1] >= 24: // one-byte integers
			return off + 2, nil
		}
	}
	major, arg, p, err := cborHead(s.data, off)
	if err != nil {
		return 0, err
	}
	switch major {
	case 0, 1:
		if err := cborIntRange(major, arg, off); err != nil {
			return 0, err
		}
		return p, nil
	case 2:
		if arg > uint64(len(s.data)-p) {
			return 0, cborErr(ErrTruncated, off, "byte string of "+strconv.FormatUint(arg, 10)+" bytes")
		}
		return p + int(arg), nil
	case 3:
		return cborText(s.data, off, p, arg)
	case 4:
		if err := cborContainer(s.data, s.lim, major, arg, off, p, depth); err != nil {
			return 0, err
		}
		for i := 0; i < int(arg); i++ {
			if p, err = s.value(p, depth+1); err != nil {
				return 0, cborErrIndex(err, i)
			}
		}
		return p, nil
	case 5:
		if err := cborContainer(s.data, s.lim, major, arg, off, p, depth); err != nil {
			return 0, err
		}
		pks, pke := 0, -1
		for i := 0; i < int(arg); i++ {
			ks, ke, err := cborKey(s.data, s.lim, p, pks, pke)
			if err != nil {
				return 0, err
			}
			if s.dataModel && ke-ks >= len("$link") && s.data[ks] == '$' {
				if err := cborReservedKey(s.data, p, ks, ke); err != nil {
					return 0, err
				}
			}
			if p, err = s.value(ke, depth+1); err != nil {
				return 0, cborErrKey(err, s.data, ks, ke)
			}
			if s.dataModel && ke-ks == 5 && string(s.data[ks:ke]) == "$type" && (s.data[ke]&0xe0 != cborMajorText || s.data[ke] == cborMajorText) {
				return 0, cborErrKey(cborErr(ErrType, ke, ""), s.data, ks, ke)
			}
			pks, pke = ks, ke
		}
		return p, nil
	case 6:
		if arg != cborTagCID {
			return 0, cborErr(ErrTag, off, "tag "+strconv.FormatUint(arg, 10))
		}
		_, ce, err := cborLink(s.data, s.lim, off, p)
		return ce, err
	default:
		return p, cborSimple(arg, off)
	}
}
