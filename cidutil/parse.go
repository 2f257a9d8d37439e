package cidutil

import (
	"fmt"
	"strconv"

	"github.com/atcore/atcore/internal/echo"
	cid "github.com/ipfs/go-cid"
)

// Multiformats codes used by this package (multicodec table).
const (
	CodecDagCBOR = 0x71 // dag-cbor: links to data (records, MST nodes)
	CodecRaw     = 0x55 // raw: links to blobs
	HashSHA256   = 0x12 // sha2-256 multihash code
	SHA256Len    = 32   // sha2-256 digest length in bytes
)

// MaxLen is the size limit for binary CIDs from untrusted input, in bytes (DECISIONS rule 14).
// ParseBinary leaves it to the caller (whose limit may be configured); ParseString enforces the
// matching string length, MaxStringLen.
const MaxLen = 100

// MaxStringLen is the longest string ParseString reads: a MaxLen-byte CID in the most verbose
// multibase, base2 (8 characters a byte, plus the prefix). It also bounds the quadratic cost of
// base58 decoding.
const MaxStringLen = 1 + 8*MaxLen

// maxVarintLen is the longest unsigned varint multiformats allows: 9 bytes, 63 bits
// (multiformats/unsigned-varint, "Practical maximum of 9 bytes").
const maxVarintLen = 9

// ParseBinary reads a binary CID, strictly: the bytes of a DAG-CBOR tag 42 payload after the
// caller has removed the 0x00 multibase prefix. It accepts exactly one CIDv1: version 1, then the
// codec, the hash function code and the digest length as minimal unsigned varints of at most
// 9 bytes, then a digest of exactly the declared length and nothing after it. Any codec and hash
// function are accepted and kept byte for byte (DECISIONS rule 12), so c.Bytes() equals b.
//
// It rejects CIDv0 (a bare sha2-256 multihash "12 20 …", which go-cid's cid.Cast accepts), other
// versions, truncated input and trailing bytes. Errors wrap ErrInvalid and give the byte offset.
// The size limit for untrusted CIDs (100 bytes, DECISIONS rule 14) is the caller's: ParseBinary
// never allocates more than the bytes present.
func ParseBinary(b []byte) (cid.Cid, error) {
	codecEnd, err := checkBinary(b)
	if err != nil {
		return cid.Undef, err.done(kindBinary, "", len(b))
	}
	return wrap(b, codecEnd), nil
}

// ParseKeyString reads a binary CID held in a string (the form of cid.Cid.KeyString, e.g. a map
// key or a view of decoded bytes) exactly as ParseBinary reads b, but the result shares s's
// memory instead of copying it: no allocation. Errors are ParseBinary's.
func ParseKeyString(s string) (cid.Cid, error) {
	codecEnd, err := checkBinary(s)
	if err != nil {
		return cid.Undef, err.done(kindBinary, "", len(s))
	}
	return wrap(s, codecEnd), nil
}

// checkBinary checks that b is exactly one strict CIDv1 and returns the offset where the multihash
// starts. The caller completes the returned *Error with done.
func checkBinary[T string | []byte](b T) (codecEnd int, _ *Error) {
	// Fast path: version 1 and single-byte codec, hash code and length, as in every blessed CID.
	if len(b) >= 4 && b[0] == 1 && b[1] < 0x80 && b[2] < 0x80 && b[3] < 0x80 && len(b)-4 == int(b[3]) {
		return 2, nil
	}
	if len(b) == 0 {
		return 0, invalid(0, "empty input")
	}
	if len(b) >= 2 && b[0] == HashSHA256 && b[1] == SHA256Len {
		return 0, invalid(0, "CIDv0 (a bare sha2-256 multihash) is not allowed, want CIDv1")
	}
	version, n, err := uvarint(b, 0)
	if err != nil {
		return 0, err.with("version: ")
	}
	if version != 1 {
		return 0, invalid(0, "version "+strconv.FormatUint(version, 10)+", want 1")
	}
	off := n
	_, n, err = uvarint(b, off)
	if err != nil {
		return 0, err.with("codec: ")
	}
	off += n
	codecEnd = off
	_, n, err = uvarint(b, off)
	if err != nil {
		return 0, err.with("hash function code: ")
	}
	off += n
	digestLen, n, err := uvarint(b, off)
	if err != nil {
		return 0, err.with("digest length: ")
	}
	off += n
	present := uint64(len(b) - off)
	switch {
	case digestLen > present:
		return 0, invalid(off-n, fmt.Sprintf("digest length %d declared, only %s", digestLen, follow(present)))
	case digestLen < present:
		return 0, invalid(off+int(digestLen), fmt.Sprintf("trailing %s after the digest", nBytes(present-digestLen)))
	}
	return codecEnd, nil
}

// uvarint reads a multiformats unsigned varint from b at off: minimal (no trailing zero groups)
// and at most 9 bytes. n is the number of bytes read.
func uvarint[T string | []byte](b T, off int) (v uint64, n int, _ *Error) {
	for i := 0; i < maxVarintLen; i++ {
		if off+i >= len(b) {
			return 0, 0, invalid(off+i, "truncated varint")
		}
		c := b[off+i]
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 {
				return 0, 0, invalid(off, "varint not in its shortest form")
			}
			return v, i + 1, nil
		}
	}
	return 0, 0, invalid(off, "varint longer than 9 bytes")
}

// follow says "1 byte follows" or "n bytes follow".
func follow(n uint64) string {
	if n == 1 {
		return "1 byte follows"
	}
	return nBytes(n) + " follow"
}

// nBytes says "1 byte" or "n bytes".
func nBytes(n uint64) string {
	if n == 1 {
		return "1 byte"
	}
	return strconv.FormatUint(n, 10) + " bytes"
}

// with prefixes the reason with the name of the field being read.
func (e *Error) with(field string) *Error {
	e.Reason = field + e.Reason
	return e
}

// ParseString reads a CIDv1 written in any multibase that go-multibase reads (base32 "b…",
// base58btc "z…", base16 "f…", base64 "m…", base36 "k…", …; not base256emoji), as found in a JSON
// {"$link": …} object. The decoded bytes must pass ParseBinary's strict checks, and the string must
// be the canonical encoding of those bytes in its base: no padding variants, no non-zero trailing
// bits, no case mixing, no whitespace, so two different strings in one base never name the same
// CID. CIDv0 ("Qm…", or its bytes in any base) is rejected. Errors wrap ErrInvalid.
//
// Strings longer than MaxStringLen are rejected before decoding. The bit-packing bases (base2,
// base16, base32 and base64 in all their variants) are decoded by this package with a single
// allocation, the CID's; the others go through go-cid and a re-encoding check.
func ParseString(s string) (cid.Cid, error) {
	c, err := parseString(s)
	if err != nil {
		return cid.Undef, err.done(kindString, s, len(s))
	}
	return c, nil
}

func parseString(s string) (cid.Cid, *Error) {
	if err := checkStringShape(s); err != nil {
		return cid.Undef, err
	}
	if a := bitAlphabets[s[0]]; a != nil {
		// CIDs up to MaxLen bytes are decoded on the stack, so the CID's string is the only
		// allocation.
		var stack [MaxLen]byte
		if b, ok := appendBlessed(stack[:0], s); ok {
			return wrap(b, 2), nil
		}
		b, codecEnd, err := appendBits(stack[:0], s, a)
		if err != nil {
			return cid.Undef, err
		}
		return wrap(b, codecEnd), nil
	}
	return parseOtherBase(s)
}

// AppendBinaryString appends to dst the binary CID that the string s names, read and checked
// exactly as ParseString reads it, and returns the extended buffer (dst unchanged on error). It is
// for callers that keep CIDs in memory of their own, such as a decoder's arena or a key buffer:
// when dst has room for the CID (at most MaxLen bytes, and always fewer than len(s), as every
// multibase character carries less than a byte), a string in a bit-packing multibase costs no
// allocation. The bytes appended are what ParseBinary accepts and KeyString returns.
func AppendBinaryString(dst []byte, s string) ([]byte, error) {
	if b, ok := appendBlessed(dst, s); ok {
		return b, nil
	}
	if err := checkStringShape(s); err != nil {
		return dst, err.done(kindString, s, len(s))
	}
	if a := bitAlphabets[s[0]]; a != nil {
		b, _, err := appendBits(dst, s, a)
		if err != nil {
			return dst, err.done(kindString, s, len(s))
		}
		return b, nil
	}
	c, err := parseOtherBase(s)
	if err != nil {
		return dst, err.done(kindString, s, len(s))
	}
	return append(dst, c.KeyString()...), nil
}

// blessedStringLen is the length of the string form of nearly every atproto CID: 'b' and 58
// base32 characters, which carry the blessedLen bytes of the binary CID.
const blessedStringLen = 1 + (8*blessedLen+4)/5

// appendBlessed is AppendBinaryString for that form, in one function of straight-line code: a
// string of blessedStringLen bytes, 'b' and lower-case base32, that decodes to a CIDv1 with
// single-byte codec and hash code and a 32-byte digest. It reports false for anything else, which
// the general path then reads; what it accepts, the general path accepts too, with the same bytes
// (TestAppendBlessedAgrees). The general path runs five functions, and a JSON decode, which reads
// a CID for every $link, runs more code than the instruction cache holds: cachegrind counted
// 657 instruction-cache misses in this package per decode of internal/peers' big50k before, 244
// after.
func appendBlessed(dst []byte, s string) ([]byte, bool) {
	if len(s) != blessedStringLen || s[0] != 'b' {
		return dst, false
	}
	val := &bitAlphabets['b'].value
	var out [blessedLen + 3]byte // room for base32Blocks' last store
	if base32Blocks(val, out[:], s[1:blessedStringLen-2]) != blessedStringLen-3 {
		return dst, false
	}
	// The last two characters carry the last byte and two bits that must be zero.
	v0, v1 := val[s[blessedStringLen-2]], val[s[blessedStringLen-1]]
	if v0|v1 >= 32 || v1&3 != 0 {
		return dst, false
	}
	out[blessedLen-1] = v0<<3 | v1>>2
	if out[0] != 1 || out[1] >= 0x80 || out[2] >= 0x80 || out[3] != SHA256Len {
		return dst, false
	}
	return append(dst, out[:blessedLen]...), true
}

// checkStringShape makes ParseString's checks that come before decoding: not empty, not longer
// than any CID string, not CIDv0.
func checkStringShape(s string) *Error {
	if len(s) == 0 {
		return invalid(0, "empty string")
	}
	if len(s) > MaxStringLen {
		return invalid(-1, "string of "+strconv.Itoa(len(s))+" bytes, longer than any CID of at most "+
			strconv.Itoa(MaxLen)+" bytes in any multibase")
	}
	if len(s) == 46 && s[:2] == "Qm" {
		return invalid(0, "CIDv0 (base58btc \"Qm…\") is not allowed, want CIDv1")
	}
	return nil
}

// appendBits decodes a string in one of the bit-packing multibases strictly, appending the bytes
// to dst, and checks the CID in them; it returns dst extended and where the codec's varint ends.
func appendBits(dst []byte, s string, a *alphabet) ([]byte, int, *Error) {
	start := len(dst)
	b, err := a.decode(dst, s[1:])
	if err != nil {
		if err.Offset >= 0 {
			err.Offset++ // count the multibase prefix
		}
		return nil, 0, err
	}
	codecEnd, err := checkBinary(b[start:])
	if err != nil {
		return nil, 0, err.inDecoded()
	}
	return b, codecEnd, nil
}

// parseOtherBase handles the multibases that are not bit packing (base58, base36, base10,
// proquint, identity, …) through go-cid, then applies the strict checks it lacks.
func parseOtherBase(s string) (cid.Cid, *Error) {
	enc, err := cid.ExtractEncoding(s)
	if err != nil {
		return cid.Undef, invalid(0, "unknown multibase prefix "+echo.QuoteAt(s, 0))
	}
	c, err := cid.Decode(s)
	if err != nil {
		return cid.Undef, &Error{Err: ErrInvalid, Offset: -1, Reason: "not a CID in multibase " +
			echo.QuoteAt(s, 0), Cause: err}
	}
	// go-cid is lenient (CIDv0 bytes, for one); apply the strict checks.
	if _, e := checkBinary(c.KeyString()); e != nil {
		return cid.Undef, e.inDecoded()
	}
	// Only the canonical string of the bytes is accepted, so one CID has one string per base.
	if canon, err := c.StringOfBase(enc); err != nil || canon != s {
		return cid.Undef, invalid(-1, "not the canonical encoding in its multibase")
	}
	return c, nil
}

// inDecoded moves a byte offset in decoded bytes, which means nothing in the string, into the
// detail.
func (e *Error) inDecoded() *Error {
	e.Reason = "decoded bytes: " + e.Reason
	if e.Offset >= 0 {
		e.Reason += " at decoded byte " + strconv.Itoa(e.Offset)
		e.Offset = -1
	}
	return e
}
