package cidutil

import (
	"crypto/sha256"
	"io"

	cid "github.com/ipfs/go-cid"
)

// SumCBOR returns the CID of DAG-CBOR bytes: CIDv1, codec dag-cbor (0x71), sha2-256 (DECISIONS
// rule 12). data is not checked to be DAG-CBOR.
func SumCBOR(data []byte) cid.Cid { return sum(CodecDagCBOR, data) }

// SumRaw returns the CID of blob bytes: CIDv1, codec raw (0x55), sha2-256 (DECISIONS rule 12).
func SumRaw(data []byte) cid.Cid { return sum(CodecRaw, data) }

func sum(codec uint64, data []byte) cid.Cid {
	return fromDigest(codec, sha256.Sum256(data))
}

// fromDigest builds the CID with one allocation: the multihash is assembled on the stack and
// NewCidV1 copies it, with the version and codec, into the CID's single string.
func fromDigest(codec uint64, digest [SHA256Len]byte) cid.Cid {
	var mh [2 + SHA256Len]byte
	mh[0] = HashSHA256
	mh[1] = SHA256Len
	copy(mh[2:], digest[:])
	return cid.NewCidV1(codec, mh[:])
}

// SumRawReader returns the raw (0x55) sha2-256 CIDv1 of everything r yields and the number of
// bytes read, hashing as it reads, in constant memory: the way to name a large blob. On a read
// error it returns cid.Undef, the bytes read so far and the error.
func SumRawReader(r io.Reader) (c cid.Cid, size int64, err error) {
	h := sha256.New()
	size, err = io.Copy(h, r)
	if err != nil {
		return cid.Undef, size, err
	}
	var d [SHA256Len]byte
	h.Sum(d[:0])
	return fromDigest(CodecRaw, d), size, nil
}
