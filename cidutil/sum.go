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

// AppendSumCBOR appends the binary form of SumCBOR(data) to dst and returns the extended slice:
// the 36 bytes (version, codec, sha2-256 multihash) that a DAG-CBOR link holds after its 0x00
// prefix and that CAR files and MST nodes are made of. It allocates nothing when dst has room;
// SumCBOR must allocate the string its cid.Cid owns, which for a record of about a hundred
// bytes costs about a quarter of the hashing.
func AppendSumCBOR(dst, data []byte) []byte { return appendSum(dst, CodecDagCBOR, data) }

// AppendSumRaw appends the binary form of SumRaw(data) to dst and returns the extended slice, as
// AppendSumCBOR does.
func AppendSumRaw(dst, data []byte) []byte { return appendSum(dst, CodecRaw, data) }

func appendSum(dst []byte, codec byte, data []byte) []byte {
	d := sha256.Sum256(data)
	dst = append(dst, 1, codec, HashSHA256, SHA256Len)
	return append(dst, d[:]...)
}

func sum(codec uint64, data []byte) cid.Cid {
	return fromDigest(codec, sha256.Sum256(data))
}

// fromDigest builds the CID of a sha2-256 digest under codec, one of the blessed codecs (each a
// one-byte varint): its binary form is assembled on the stack, and wrap copies it into the CID's
// string, the one allocation.
func fromDigest(codec uint64, digest [SHA256Len]byte) cid.Cid {
	var b [4 + SHA256Len]byte
	b[0], b[1], b[2], b[3] = 1, byte(codec), HashSHA256, SHA256Len
	copy(b[4:], digest[:])
	return wrap(b[:], 2)
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
