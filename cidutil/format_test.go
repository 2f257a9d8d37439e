package cidutil

import (
	"testing"

	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"
)

// TestAppendString holds AppendString to go-cid's String on CIDs of every length class the block
// loop and the tail meet (identity hashes of 0 to 40 digest bytes), a CIDv0, the undefined CID and
// the interop fixtures, after a prefix that must stay.
func TestAppendString(t *testing.T) {
	var cids []cid.Cid
	for n := 0; n <= 40; n++ {
		digest := make([]byte, n)
		for i := range digest {
			digest[i] = byte(i*37 + n)
		}
		h, err := mh.Sum(digest, mh.IDENTITY, -1)
		if err != nil {
			t.Fatal(err)
		}
		cids = append(cids, cid.NewCidV1(cid.Raw, h), cid.NewCidV1(cid.DagCBOR, h))
	}
	v0, err := cid.Decode("QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR")
	if err != nil {
		t.Fatal(err)
	}
	cids = append(cids, v0, cid.Undef, SumCBOR([]byte("record")), SumRaw(nil))
	for _, fx := range readFixtures(t) {
		c, err := cid.Decode(fx.CID)
		if err != nil {
			t.Fatal(err)
		}
		cids = append(cids, c)
	}
	for _, c := range cids {
		got := AppendString([]byte("prefix"), c)
		if string(got) != "prefix"+c.String() {
			t.Errorf("AppendString(%x) = %q, want %q", c.KeyString(), got[min(6, len(got)):], c.String())
		}
	}
}

// TestAppendStringAllocs: with room in dst, a CIDv1 costs no allocation.
func TestAppendStringAllocs(t *testing.T) {
	c := SumCBOR([]byte("record"))
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = AppendString(buf[:0], c) }); n != 0 {
		t.Errorf("AppendString allocated %v times", n)
	}
}
