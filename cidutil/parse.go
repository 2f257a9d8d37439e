package cidutil

import (
	"fmt"
	"strconv"

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
		err.Func = "ParseBinary"
		return cid.Undef, err
	}
	return build(b, codecEnd), nil
}

// build makes the cid.Cid of the already checked binary CID b with a single allocation. go-cid
// offers no way to wrap bytes it has not parsed itself except NewCidV1, which copies version,
// codec and multihash into one string; because checkBinary insists on minimal varints, its
// re-encoding of the codec is byte-identical to b.
func build(b []byte, codecEnd int) cid.Cid {
	codec := uint64(b[1])
	if codecEnd != 2 {
		codec, _, _ = uvarint(b, 1)
	}
	return cid.NewCidV1(codec, b[codecEnd:])
}

// checkBinary checks that b is exactly one strict CIDv1 and returns the offset where the multihash
// starts. The returned *Error has Func unset.
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
		return 0, invalid(off-n, fmt.Sprintf("digest length %d declared, only %d bytes follow", digestLen, present))
	case digestLen < present:
		return 0, invalid(off+int(digestLen), fmt.Sprintf("%d trailing bytes after the digest", present-digestLen))
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

func invalid(off int, detail string) *Error {
	return &Error{Err: ErrInvalid, Offset: off, Detail: detail}
}

// with prefixes the detail with the name of the field being read.
func (e *Error) with(field string) *Error {
	e.Detail = field + e.Detail
	return e
}

// ParseString reads a CIDv1 written in any multibase that go-multibase can encode (base32 "b…",
// base58btc "z…", base16 "f…", base64 "m…", …), as found in a JSON {"$link": …} object. The
// decoded bytes must pass ParseBinary's strict checks, and the string must be the canonical
// encoding of those bytes in its base (no padding variants, no non-zero trailing bits, no mixed
// case), so two different strings never name the same CID. CIDv0 ("Qm…") is rejected. Errors wrap
// ErrInvalid.
//
// Strings longer than MaxStringLen are rejected before decoding. The common base32 "b…" form is
// decoded here without go-multibase, with a single allocation.
func ParseString(s string) (cid.Cid, error) {
	c, err := parseString(s)
	if err != nil {
		err.Func = "ParseString"
		err.Input = s
		err.fromString = true
		return cid.Undef, err
	}
	return c, nil
}

// maxStackCID is the largest binary CID decoded into a stack buffer; it is the rule-14 limit.
const maxStackCID = MaxLen

func parseString(s string) (cid.Cid, *Error) {
	if len(s) == 0 {
		return cid.Undef, invalid(0, "empty string")
	}
	if len(s) > MaxStringLen {
		return cid.Undef, invalid(-1, "string of "+strconv.Itoa(len(s))+" bytes, longer than any CID of at most "+
			strconv.Itoa(MaxLen)+" bytes in any multibase")
	}
	if s[0] == 'b' {
		return parseBase32(s)
	}
	if len(s) == 46 && s[:2] == "Qm" {
		return cid.Undef, invalid(0, "CIDv0 (base58btc \"Qm…\") is not allowed, want CIDv1")
	}
	enc, err := cid.ExtractEncoding(s)
	if err != nil {
		return cid.Undef, invalid(0, "unknown multibase prefix "+strconv.QuoteRune(rune(s[0])))
	}
	c, err := cid.Decode(s)
	if err != nil {
		return cid.Undef, &Error{Err: ErrInvalid, Offset: -1, Detail: "multibase decoding failed", Cause: err}
	}
	// go-cid is lenient (CIDv0 bytes, any varint form it tolerates); apply the strict checks.
	if _, e := checkBinary(c.KeyString()); e != nil {
		return cid.Undef, e.with("decoded bytes: ")
	}
	canon, err := c.StringOfBase(enc)
	if err != nil || canon != s {
		return cid.Undef, invalid(-1, "not the canonical encoding in its multibase")
	}
	return c, nil
}

// base32Lower is the RFC 4648 base32 alphabet in lower case: multibase "b".
const base32Lower = "abcdefghijklmnopqrstuvwxyz234567"

// base32Value maps a byte to its 5-bit value, or 0xff if it is not in base32Lower.
var base32Value = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(base32Lower); i++ {
		t[base32Lower[i]] = byte(i)
	}
	return t
}()

// parseBase32 decodes a multibase "b" string strictly and checks the CID in it.
func parseBase32(s string) (cid.Cid, *Error) {
	var stack [maxStackCID]byte
	n, err := decodeBase32(stack[:0], s[1:])
	var b []byte
	if err == nil {
		b = n
	} else if err == errTooLongForStack {
		b, err = decodeBase32(make([]byte, 0, 5*(len(s)-1)/8), s[1:])
	}
	if err != nil {
		e := err.(*Error)
		if e.Offset >= 0 {
			e.Offset++ // count the multibase prefix
		}
		return cid.Undef, e
	}
	codecEnd, e := checkBinary(b)
	if e != nil {
		e.Offset = -1 // a byte offset in the decoded bytes means nothing in the string
		return cid.Undef, e.with("decoded bytes: ")
	}
	return build(b, codecEnd), nil
}

var errTooLongForStack = &Error{Err: ErrInvalid, Offset: -1}

// decodeBase32 appends the bytes of unpadded lower-case base32 text s to dst, strictly: only
// alphabet characters, a length that unpadded base32 can produce, and zero bits after the last
// byte (so every byte string has exactly one encoding). If the result would not fit in cap(dst),
// it returns errTooLongForStack.
func decodeBase32(dst []byte, s string) ([]byte, error) {
	outLen := 5 * len(s) / 8
	if outLen > cap(dst) {
		return nil, errTooLongForStack
	}
	var acc uint64
	bits := 0
	for i := 0; i < len(s); i++ {
		v := base32Value[s[i]]
		if v == 0xff {
			return nil, invalid(i, "character "+strconv.QuoteRune(rune(s[i]))+" is not lower-case base32")
		}
		acc = acc<<5 | uint64(v)
		bits += 5
		if bits >= 8 {
			bits -= 8
			dst = append(dst, byte(acc>>bits))
		}
	}
	if bits >= 5 {
		// A whole character would carry no data: 1, 3 or 6 characters in the last group of 8.
		return nil, invalid(-1, "base32 text of impossible length "+strconv.Itoa(len(s)))
	}
	if acc&(1<<bits-1) != 0 {
		return nil, invalid(len(s)-1, "non-zero bits after the last byte: not the canonical encoding")
	}
	return dst, nil
}
