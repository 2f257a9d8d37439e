package peers

import (
	"bytes"
	"crypto/sha256"

	cid "github.com/ipfs/go-cid"
	"github.com/ipld/go-ipld-prime/codec/dagcbor"
	ipld "github.com/ipld/go-ipld-prime/datamodel"
	"github.com/ipld/go-ipld-prime/node/basicnode"
	mh "github.com/multiformats/go-multihash"
)

// ipldDecode decodes DAG-CBOR into go-ipld-prime's basic nodes, with links.
func ipldDecode(data []byte) (ipld.Node, error) {
	nb := basicnode.Prototype.Any.NewBuilder()
	if err := dagcbor.Decode(nb, bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return nb.Build(), nil
}

// ipldEncode encodes a go-ipld-prime node as DAG-CBOR (keys sorted length-first).
func ipldEncode(n ipld.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := dagcbor.Encode(n, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func mustSum(data []byte) mh.Multihash {
	d := sha256.Sum256(data)
	m, err := mh.Encode(d[:], mh.SHA2_256)
	if err != nil {
		panic(err)
	}
	return m
}

func mustIdentity(data []byte) mh.Multihash {
	m, err := mh.Encode(data, mh.IDENTITY)
	if err != nil {
		panic(err)
	}
	return m
}

// testCID is a blessed CIDv1 (dag-cbor, sha2-256) and its tag-42 payload (0x00 + binary CID).
var (
	testCID     = cid.NewCidV1(cid.DagCBOR, mustSum([]byte("peers")))
	testPayload = append([]byte{0x00}, testCID.Bytes()...)
	// cidV0 is a CIDv0: a bare sha2-256 multihash (DECISIONS rule 12: never valid).
	cidV0 = cid.NewCidV0(mustSum([]byte("peers"))).Bytes()
	// longCID is a CIDv1 with a 120-byte identity multihash: 124 bytes, over rule 14's 100.
	longCID = cid.NewCidV1(cid.DagCBOR, mustIdentity(bytes.Repeat([]byte{7}, 120))).Bytes()
)
