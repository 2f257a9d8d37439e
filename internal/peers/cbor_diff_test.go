package peers

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"
	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datamodel"
)

// treeSeed seeds the random data-model trees; randomTrees is how many each run compares.
const (
	treeSeed    = 20261122
	randomTrees = 3000
)

// dagCBORPrefix is go-cid's description of a blessed record CID, for computing CIDs the peers' way.
var dagCBORPrefix = cid.Prefix{Version: 1, Codec: cid.DagCBOR, MhType: mh.SHA2_256, MhLength: 32}

// tally counts compared cases and skipped ones by reason, so that nothing is skipped silently.
type tally struct {
	compared map[string]int // by peer
	skipped  map[string]int // by "peer: reason"
}

func newTally() *tally { return &tally{compared: map[string]int{}, skipped: map[string]int{}} }

func (t *tally) skip(peer, reason string) { t.skipped[peer+": "+reason]++ }

// lines renders the tally for logs and CONFORMANCE.md, sorted.
func (t *tally) lines() []string {
	var out []string
	for peer, n := range t.compared {
		out = append(out, fmt.Sprintf("compared with %s: %d", peer, n))
	}
	for reason, n := range t.skipped {
		out = append(out, fmt.Sprintf("skipped, %s: %d", reason, n))
	}
	sort.Strings(out)
	return out
}

// compareEncodings checks that the peers encode the value v exactly as atcore does (want), and
// that the CIDs agree. what names the value in failure messages.
func compareEncodings(t testing.TB, tl *tally, what string, v any, want []byte) {
	t.Helper()
	n, err := toIPLD(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	got, err := ipldEncode(n)
	if err != nil {
		t.Errorf("%s: go-ipld-prime cannot encode it: %v", what, err)
	} else {
		tl.compared["ipld"]++
		if !bytes.Equal(got, want) {
			t.Errorf("%s: go-ipld-prime encodes\n%x\natcore encodes\n%x", what, got, want)
		}
		compareCIDs(t, what, got, want)
	}

	m, ok := toIndigo(v).(map[string]any)
	if !ok {
		tl.skip("indigo", "atdata.MarshalCBOR takes only a map at the top level")
		return
	}
	got, err = atdata.MarshalCBOR(m)
	if err != nil {
		t.Errorf("%s: indigo cannot encode it: %v", what, err)
		return
	}
	tl.compared["indigo"]++
	if !bytes.Equal(got, want) {
		t.Errorf("%s: indigo encodes\n%x\natcore encodes\n%x", what, got, want)
	}
}

// compareCIDs checks that go-cid's CID of the peer's bytes equals cidutil's CID of ours.
func compareCIDs(t testing.TB, what string, peerBytes, ours []byte) {
	t.Helper()
	theirs, err := dagCBORPrefix.Sum(peerBytes)
	if err != nil {
		t.Fatalf("%s: go-cid: %v", what, err)
	}
	if mine := cidutil.SumCBOR(ours); !mine.Equals(theirs) || mine.String() != theirs.String() {
		t.Errorf("%s: CID %s (atcore) != %s (go-cid)", what, mine, theirs)
	}
}

// describe prints a short, stable description of a tree for failure messages.
func describe(v any) string {
	s := fmt.Sprintf("%v", v)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}

func TestRandomTreesEncodeLikePeers(t *testing.T) {
	g := &treeGen{r: rand.New(rand.NewPCG(treeSeed, 1)), maxDepth: 6, specialKeys: true}
	tl := newTally()
	for i := range randomTrees {
		tree := g.record()
		want, err := datamodel.MarshalCBOR(tree)
		if err != nil {
			t.Fatalf("tree %d: atcore cannot encode %s: %v", i, describe(tree), err)
		}
		compareEncodings(t, tl, fmt.Sprintf("tree %d", i), tree, want)
		if t.Failed() {
			t.Fatalf("tree %d: %s", i, describe(tree))
		}
	}
	for _, l := range tl.lines() {
		t.Log(l)
	}
}
