package peers

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/bluesky-social/indigo/atproto/atdata"
	cid "github.com/ipfs/go-cid"
	ipld "github.com/ipld/go-ipld-prime/datamodel"
	cidlink "github.com/ipld/go-ipld-prime/linking/cid"
	"github.com/ipld/go-ipld-prime/node/basicnode"
	mh "github.com/multiformats/go-multihash"

	"github.com/atcore/atcore/datamodel"
)

// treeGen generates random data-model values: trees of the datamodel package's Go types, biased
// towards the places where encoders go wrong (integer and length boundaries, keys whose
// length-first and bytewise orders differ, multi-byte UTF-8, every kind of CID link, blobs).
type treeGen struct {
	r        *rand.Rand
	maxDepth int
}

var interestingInts = []int64{
	0, 1, 23, 24, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64,
	-1, -24, -25, -256, -257, -65536, -65537, math.MinInt32, math.MinInt64, math.MinInt64 + 1,
}

// stringRunes mixes one-, two-, three- and four-byte UTF-8 so that bytewise key order differs
// from code-point order only where UTF-8 says it should.
var stringRunes = []rune("abcxyzABZ019 .-_:~$/\\\"\n\té€ü日本😀𓋓\u200d\u00a0")

func (g *treeGen) int64() int64 {
	if g.r.IntN(3) == 0 {
		return interestingInts[g.r.IntN(len(interestingInts))]
	}
	// A random magnitude, so that every head width is exercised.
	v := int64(g.r.Uint64() >> (1 + g.r.IntN(63)))
	if g.r.IntN(2) == 0 {
		v = -v - 1
	}
	return v
}

func (g *treeGen) string(maxLen int) string {
	n := g.r.IntN(maxLen + 1)
	if g.r.IntN(50) == 0 {
		n = 250 + g.r.IntN(300) // lengths whose heads take one and two bytes
	}
	var b strings.Builder
	for range n {
		b.WriteRune(stringRunes[g.r.IntN(len(stringRunes))])
	}
	return b.String()
}

// key returns a map key: mostly short keys from a small alphabet, so that maps often hold keys
// of equal length and keys that are prefixes of others.
func (g *treeGen) key() string {
	if g.r.IntN(10) == 0 {
		return g.string(12)
	}
	const alphabet = "abAB0é"
	var b strings.Builder
	for range g.r.IntN(4) {
		b.WriteString(string([]rune(alphabet)[g.r.IntN(6)]))
	}
	return b.String()
}

func (g *treeGen) bytes() datamodel.Bytes {
	n := g.r.IntN(40)
	if g.r.IntN(30) == 0 {
		n = 250 + g.r.IntN(300)
	}
	b := make([]byte, n) // never nil: an empty Bytes is still bytes
	for i := range b {
		b[i] = byte(g.r.Uint32())
	}
	return b
}

// cid returns any CIDv1 a record may hold (DECISIONS rule 12): mostly the blessed forms, and
// sometimes other codecs and hashes, which must be kept byte for byte.
func (g *treeGen) cid() cid.Cid {
	seed := make([]byte, 8)
	for i := range seed {
		seed[i] = byte(g.r.Uint32())
	}
	digest := sha256.Sum256(seed)
	codec := []uint64{cid.DagCBOR, cid.Raw, cid.DagCBOR, cid.Raw, cid.DagProtobuf, cid.DagJSON}[g.r.IntN(6)]
	var hash mh.Multihash
	var err error
	switch g.r.IntN(6) {
	case 0:
		hash, err = mh.Encode(digest[:20], mh.IDENTITY)
	case 1:
		hash, err = mh.Encode(append(digest[:], digest[:]...), mh.SHA2_512)
	default:
		hash, err = mh.Encode(digest[:], mh.SHA2_256)
	}
	if err != nil {
		panic(err)
	}
	return cid.NewCidV1(codec, hash)
}

func (g *treeGen) blob() datamodel.Blob {
	ref := cid.NewCidV1(cid.Raw, mustSum([]byte(g.string(8))))
	mime := []string{"image/jpeg", "image/png", "video/mp4", "application/octet-stream"}[g.r.IntN(4)]
	if g.r.IntN(8) == 0 {
		return datamodel.Blob{Ref: datamodel.Link(ref), MimeType: mime, Legacy: true}
	}
	return datamodel.Blob{Ref: datamodel.Link(ref), MimeType: mime, Size: g.r.Int64N(1 << 40)}
}

// record returns a random record: a map at the top, as every record is.
func (g *treeGen) record() map[string]any { return g.mapValue(1) }

func (g *treeGen) value(depth int) any {
	kinds := 10
	if depth >= g.maxDepth {
		kinds = 8 // leaves only
	}
	switch g.r.IntN(kinds) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2, 3:
		return g.int64()
	case 4:
		return g.string(20)
	case 5:
		return g.bytes()
	case 6:
		return datamodel.Link(g.cid())
	case 7:
		return g.blob()
	case 8:
		n := g.r.IntN(6)
		if g.r.IntN(40) == 0 {
			n = 24 + g.r.IntN(260) // lengths whose heads take one and two bytes
		}
		arr := make([]any, n)
		for i := range arr {
			arr[i] = g.value(depth + 1)
		}
		return arr
	default:
		return g.mapValue(depth + 1)
	}
}

func (g *treeGen) mapValue(depth int) map[string]any {
	n := g.r.IntN(8)
	m := make(map[string]any, n)
	for range n {
		m[g.key()] = g.value(depth + 1)
	}
	// Maps with a "$link" or "$bytes" key are not generated: atcore refuses them (they would read
	// back from JSON as a link or bytes); the malformed tables cover them.
	if g.r.IntN(12) == 0 {
		m["$type"] = "com.example." + g.key() + "x"
	}
	return m
}

// toIPLD converts a datamodel value into go-ipld-prime basic nodes. A blob becomes the map it is
// written as.
func toIPLD(v any) (ipld.Node, error) {
	switch v := v.(type) {
	case nil:
		return ipld.Null, nil
	case bool:
		return basicnode.NewBool(v), nil
	case int64:
		return basicnode.NewInt(v), nil
	case string:
		return basicnode.NewString(v), nil
	case datamodel.Bytes:
		return basicnode.NewBytes(v), nil
	case datamodel.Link:
		return basicnode.NewLink(cidlink.Link{Cid: cid.Cid(v)}), nil
	case datamodel.Blob:
		return toIPLD(blobAsMap(v))
	case []any:
		nb := basicnode.Prototype.List.NewBuilder()
		la, err := nb.BeginList(int64(len(v)))
		if err != nil {
			return nil, err
		}
		for _, e := range v {
			n, err := toIPLD(e)
			if err != nil {
				return nil, err
			}
			if err := la.AssembleValue().AssignNode(n); err != nil {
				return nil, err
			}
		}
		if err := la.Finish(); err != nil {
			return nil, err
		}
		return nb.Build(), nil
	case map[string]any:
		nb := basicnode.Prototype.Map.NewBuilder()
		ma, err := nb.BeginMap(int64(len(v)))
		if err != nil {
			return nil, err
		}
		for k, e := range v {
			n, err := toIPLD(e)
			if err != nil {
				return nil, err
			}
			if err := ma.AssembleKey().AssignString(k); err != nil {
				return nil, err
			}
			if err := ma.AssembleValue().AssignNode(n); err != nil {
				return nil, err
			}
		}
		if err := ma.Finish(); err != nil {
			return nil, err
		}
		return nb.Build(), nil
	default:
		return nil, fmt.Errorf("toIPLD: unexpected %T", v)
	}
}

// blobAsMap is the map a blob is written as (DECISIONS rule 13), legacy form included.
func blobAsMap(b datamodel.Blob) map[string]any {
	if b.Legacy {
		return map[string]any{"cid": b.Ref.String(), "mimeType": b.MimeType}
	}
	return map[string]any{"$type": "blob", "ref": b.Ref, "mimeType": b.MimeType, "size": b.Size}
}

// toIndigo converts a datamodel value into the Go types of indigo's atdata package. A legacy
// blob becomes the plain map it is written as: atdata.Blob's legacy form (Size -1) is not
// written back as {cid, mimeType} by atdata.MarshalCBOR.
func toIndigo(v any) any {
	switch v := v.(type) {
	case datamodel.Bytes:
		return atdata.Bytes(v)
	case datamodel.Link:
		return atdata.CIDLink(v)
	case datamodel.Blob:
		if b := v; b.Legacy {
			return map[string]any{"cid": b.Ref.String(), "mimeType": b.MimeType}
		}
		return atdata.Blob{Ref: atdata.CIDLink(v.Ref), MimeType: v.MimeType, Size: v.Size}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toIndigo(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toIndigo(e)
		}
		return out
	default:
		return v
	}
}
