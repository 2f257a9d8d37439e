package cidutil

import (
	"crypto/sha256"
	"fmt"
	"io"

	cid "github.com/ipfs/go-cid"
)

// Verify checks that data is the content c names (CIDs are self-certifying): it recomputes the
// sha2-256 digest of data and compares it with c's. The codec is not involved: a dag-cbor and a
// raw CID of the same bytes both verify. Errors: ErrMismatch if the digests differ, ErrUnsupported
// if c's hash is not sha2-256 with 32 bytes, ErrInvalid if c is cid.Undef or not a well-formed
// CIDv1. On success it does not allocate.
func Verify(c cid.Cid, data []byte) error {
	want, err := sha256Digest(c)
	if err != nil {
		return err
	}
	got := sha256.Sum256(data)
	if got != want {
		return mismatch(got, want)
	}
	return nil
}

// VerifyReader is Verify for the content read from r, hashed as it is read in constant memory; it
// returns the number of bytes read. Read errors are returned as they are.
func VerifyReader(c cid.Cid, r io.Reader) (size int64, err error) {
	want, err := sha256Digest(c)
	if err != nil {
		return 0, err
	}
	h := sha256.New()
	size, err = io.Copy(h, r)
	if err != nil {
		return size, err
	}
	var got [SHA256Len]byte
	h.Sum(got[:0])
	if got != want {
		return size, mismatch(got, want)
	}
	return size, nil
}

// sha256Digest returns the 32-byte sha2-256 digest c carries.
func sha256Digest(c cid.Cid) (d [SHA256Len]byte, _ error) {
	b := c.KeyString()
	if b == "" {
		return d, invalid(-1, "undefined CID (cid.Undef)").done(kindBinary, "", 0)
	}
	codecEnd, e := checkBinary(b)
	if e != nil {
		return d, e.done(kindBinary, "", len(b))
	}
	hash, n, _ := uvarint(b, codecEnd)
	digestLen, m, _ := uvarint(b, codecEnd+n)
	if hash != HashSHA256 || digestLen != SHA256Len {
		return d, &Error{Err: ErrUnsupported, Offset: -1, Len: len(b),
			Reason: fmt.Sprintf("hash function 0x%x with %d bytes, only sha2-256 (0x12) with 32 can be checked", hash, digestLen)}
	}
	copy(d[:], b[codecEnd+n+m:])
	return d, nil
}

func mismatch(got, want [SHA256Len]byte) error {
	return &Error{Err: ErrMismatch, Offset: -1,
		Reason: fmt.Sprintf("data has sha2-256 %x, CID has %x", got, want)}
}
