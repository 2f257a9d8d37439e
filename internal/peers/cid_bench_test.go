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

// benchCIDOf compares the CID of data (cidutil, as a cid.Cid and as binary CID bytes appended to
// a reused buffer) with go-cid's Prefix.Sum and bare sha256.
func benchCIDOf(b *testing.B, data []byte, ours func([]byte) cid.Cid, oursAppend func(dst, data []byte) []byte, prefix cid.Prefix) {
	b.Run("impl=atcore", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			sinkCID = ours(data)
		}
	})
	b.Run("impl=atcore-append", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		buf := make([]byte, 0, 64)
		for b.Loop() {
			buf = oursAppend(buf[:0], data)
		}
		sinkBytes = buf
	})
	b.Run("impl=go-cid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			c, err := prefix.Sum(data)
			if err != nil {
				b.Fatal(err)
			}
			sinkCID = c
		}
	})
	b.Run("impl=sha256", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			sinkDigest = sha256.Sum256(data)
		}
	})
}

// BenchmarkRecordCID hashes a record's DAG-CBOR bytes into its CID.
func BenchmarkRecordCID(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			benchCIDOf(b, rec.cbor, cidutil.SumCBOR, cidutil.AppendSumCBOR, dagCBORPrefix)
		})
	}
}

// BenchmarkRecordCIDFromValue computes a decoded record's CID: encode, then hash.
func BenchmarkRecordCIDFromValue(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ours, err := datamodel.UnmarshalCBOR(rec.cbor)
			if err != nil {
				b.Fatal(err)
			}
			theirs, err := atdata.UnmarshalCBOR(rec.cbor)
			if err != nil {
				b.Fatal(err)
			}
			node, err := ipldDecode(rec.cbor)
			if err != nil {
				b.Fatal(err)
			}
			benchImpl(b, "atcore", len(rec.cbor), func() (cid.Cid, error) { return datamodel.RecordCID(ours) })
			benchImpl(b, "indigo", len(rec.cbor), func() (cid.Cid, error) {
				data, err := atdata.MarshalCBOR(theirs)
				if err != nil {
					return cid.Undef, err
				}
				return dagCBORPrefix.Sum(data)
			})
			benchImpl(b, "ipld", len(rec.cbor), func() (cid.Cid, error) {
				data, err := ipldEncode(node)
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
		benchCIDOf(b, blob, cidutil.SumRaw, cidutil.AppendSumRaw, rawPrefix)
	})
}
