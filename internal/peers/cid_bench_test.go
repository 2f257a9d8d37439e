package peers

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"
	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datamodel"
)

var (
	sinkCID    cid.Cid
	sinkDigest [32]byte
)

// rawPrefix is go-cid's description of a blessed blob CID.
var rawPrefix = cid.Prefix{Version: 1, Codec: cid.Raw, MhType: mh.SHA2_256, MhLength: 32}

// benchCIDOf compares the CID of each of parts (cidutil, as a cid.Cid and as binary CID bytes
// appended to a reused buffer) with go-cid's Prefix.Sum and bare sha256. An operation hashes
// every part.
func benchCIDOf(b *testing.B, parts [][]byte, ours func([]byte) cid.Cid, oursAppend func(dst, data []byte) []byte, prefix cid.Prefix) {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	b.Run("impl=atcore", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range parts {
				sinkCID = ours(p)
			}
		}
	})
	b.Run("impl=atcore-append", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		buf := make([]byte, 0, 64)
		for b.Loop() {
			for _, p := range parts {
				buf = oursAppend(buf[:0], p)
			}
		}
		sinkBytes = buf
	})
	b.Run("impl=go-cid", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range parts {
				c, err := prefix.Sum(p)
				if err != nil {
					b.Fatal(err)
				}
				sinkCID = c
			}
		}
	})
	b.Run("impl=sha256", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range parts {
				sinkDigest = sha256.Sum256(p)
			}
		}
	})
}

// BenchmarkRecordCID hashes a record's DAG-CBOR bytes into its CID.
func BenchmarkRecordCID(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			benchCIDOf(b, cborParts(rec.parts), cidutil.SumCBOR, cidutil.AppendSumCBOR, dagCBORPrefix)
		})
	}
}

// BenchmarkRecordCIDFromValue computes a decoded record's CID: encode, then hash.
func BenchmarkRecordCIDFromValue(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			n := len(rec.parts)
			ours := decodeParts(b, rec.parts, false, atcoreCBOR)
			theirs := decodeParts(b, rec.parts, false, atdata.UnmarshalCBOR)
			nodes := decodeParts(b, rec.parts, false, ipldDecode)
			benchParts(b, "atcore", rec.size, n, func(i int) (cid.Cid, error) { return datamodel.RecordCID(ours[i]) })
			benchParts(b, "indigo", rec.size, n, func(i int) (cid.Cid, error) {
				data, err := atdata.MarshalCBOR(theirs[i])
				if err != nil {
					return cid.Undef, err
				}
				return dagCBORPrefix.Sum(data)
			})
			benchParts(b, "ipld", rec.size, n, func(i int) (cid.Cid, error) {
				data, err := ipldEncode(nodes[i])
				if err != nil {
					return cid.Undef, err
				}
				return dagCBORPrefix.Sum(data)
			})
		})
	}
}

// BenchmarkBlobCID hashes a 1 MiB blob into its raw CID.
func BenchmarkBlobCID(b *testing.B) {
	blob := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range blob {
		blob[i] = byte(r.Uint32())
	}
	b.Run("size=1MiB", func(b *testing.B) {
		benchCIDOf(b, [][]byte{blob}, cidutil.SumRaw, cidutil.AppendSumRaw, rawPrefix)
	})
}
