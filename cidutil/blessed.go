package cidutil

import (
	"fmt"
	"strconv"

	"github.com/atcore/atcore/internal/echo"
	cid "github.com/ipfs/go-cid"
)

// blessedLen is the length of a blessed binary CID: version, codec, hash code and digest length
// (one byte each) and the 32-byte digest.
const blessedLen = 4 + SHA256Len

// IsBlessed reports whether c is in the blessed form of DECISIONS rule 12: CIDv1, codec dag-cbor
// (0x71) or raw (0x55), sha2-256 with a 32-byte digest. It does not allocate. cid.Undef and CIDv0
// are not blessed.
func IsBlessed(c cid.Cid) bool {
	b := c.KeyString() // the binary CID, without a copy
	return len(b) == blessedLen && b[0] == 1 && (b[1] == CodecDagCBOR || b[1] == CodecRaw) &&
		b[2] == HashSHA256 && b[3] == SHA256Len
}

// ParseBlessed reads a CID string in the strict blessed form of DECISIONS rule 12: multibase
// base32 lower case ("b…"), CIDv1, codec dag-cbor (0x71) or raw (0x55), sha2-256 with 32 bytes,
// and the canonical encoding of those bytes (the string c.String() gives back; no padding, no
// upper case, no stray trailing bits). Errors wrap ErrNotBlessed and say which part failed; if
// the string is not a CID at all they also wrap ErrInvalid.
func ParseBlessed(s string) (cid.Cid, error) {
	c, err := parseString(s)
	if err != nil {
		e := &Error{Err: ErrNotBlessed, Offset: -1, Reason: "not a well-formed CID: ", Cause: err}
		return cid.Undef, e.done(kindString, s, len(s))
	}
	if s[0] != 'b' {
		return cid.Undef, notBlessed(s, 0, "multibase "+echo.QuoteAt(s, 0)+", want 'b' (base32 lower case)")
	}
	if detail := blessedParts(c.KeyString()); detail != "" {
		return cid.Undef, notBlessed(s, -1, detail)
	}
	return c, nil
}

func notBlessed(s string, off int, detail string) *Error {
	e := &Error{Err: ErrNotBlessed, Offset: off, Reason: "not in the blessed form: " + detail}
	return e.done(kindString, s, len(s))
}

// blessedParts says which part of the well-formed binary CIDv1 b is not blessed, or "" if none.
func blessedParts(b string) string {
	_, n, _ := uvarint(b, 0) // version: 1, checked by the caller
	codec, m, _ := uvarint(b, n)
	hash, k, _ := uvarint(b, n+m)
	digestLen, _, _ := uvarint(b, n+m+k)
	switch {
	case codec != CodecDagCBOR && codec != CodecRaw:
		return fmt.Sprintf("codec 0x%x, want dag-cbor (0x71) or raw (0x55)", codec)
	case hash != HashSHA256:
		return fmt.Sprintf("hash function 0x%x, want sha2-256 (0x12)", hash)
	case digestLen != SHA256Len:
		return fmt.Sprintf("digest of %d bytes, want 32 (a truncated sha2-256)", digestLen)
	}
	return ""
}

// Bounds of the loose syntax check, from the atproto syntax rules for CID strings.
const (
	minSyntaxLen = 8
	maxSyntaxLen = 256
)

// CheckSyntax is the loose syntax check for a CID string that the atproto conformance vectors
// (testdata/interop/syntax/cid_syntax_*.txt) test: 8 to 256 characters from [A-Za-z0-9+=], the
// first one a multibase prefix. That rules out CIDv0, a base58btc multihash written without a
// multibase prefix ("Qm…"; "1…" for other multihashes): neither 'Q' nor '1' is a multibase
// prefix. It does not decode the string: a string that passes may still fail ParseString, which
// is the check to use before trusting a CID. Errors wrap ErrInvalid.
func CheckSyntax(s string) error {
	bad := func(off int, detail string) error {
		return invalid(off, detail).done(kindString, s, len(s))
	}
	if len(s) < minSyntaxLen || len(s) > maxSyntaxLen {
		return bad(-1, "length "+strconv.Itoa(len(s))+", want 8 to 256")
	}
	for i := 0; i < len(s); i++ {
		if !syntaxChar[s[i]] {
			return bad(i, "character "+echo.QuoteAt(s, i)+" not in [A-Za-z0-9+=]")
		}
	}
	switch {
	case s[0] == 'Q' || s[0] == '1':
		return bad(0, "CIDv0 (a base58btc multihash) is not allowed, want CIDv1")
	case !multibasePrefix[s[0]]:
		return bad(0, "unknown multibase prefix "+echo.QuoteAt(s, 0))
	}
	return nil
}

// syntaxChar is the character set of the loose syntax check.
var syntaxChar = func() (t [256]bool) {
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+=" {
		t[c] = true
	}
	return t
}()

// multibasePrefix holds the multibase prefixes (multiformats multibase table) that can begin a
// string of syntaxChar characters: base2, base8, base10, base16, the base32 variants, base32z,
// base36, base58btc, base58flickr, base64 and base64url (padded and not), proquint.
var multibasePrefix = func() (t [256]bool) {
	for _, c := range "0" + "7" + "9" + "fF" + "bBcCvVtTh" + "kK" + "zZ" + "mMuU" + "p" {
		t[c] = true
	}
	return t
}()
