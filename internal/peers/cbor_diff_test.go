package peers

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
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

// comparePeerRoundTrips checks that the peers decode atcore's encoding (want) of v and encode it
// back unchanged. Where indigo changes the data and v holds something it is known to change
// (TestIndigoKnownDivergences), the case is counted under that reason (see CONFORMANCE.md);
// any other difference fails.
func comparePeerRoundTrips(t testing.TB, tl *tally, what string, v any, want []byte) {
	t.Helper()
	n, err := ipldDecode(want)
	if err != nil {
		t.Errorf("%s: go-ipld-prime rejects atcore's encoding: %v", what, err)
	} else if got, err := ipldEncode(n); err != nil {
		t.Errorf("%s: go-ipld-prime cannot re-encode: %v", what, err)
	} else {
		tl.compared["ipld round trip"]++
		if !bytes.Equal(got, want) {
			t.Errorf("%s: go-ipld-prime round trip gives\n%x\nwant\n%x", what, got, want)
		}
	}

	reason := indigoRoundTripProblem(v)
	got, err := indigoRoundTrip(want)
	switch {
	case err == nil && bytes.Equal(got, want):
		tl.compared["indigo round trip"]++
	case reason != "":
		tl.skip("indigo round trip", reason)
	case err != nil:
		t.Errorf("%s: indigo: %v", what, err)
	default:
		t.Errorf("%s: indigo round trip gives\n%x\nwant\n%x", what, got, want)
	}
}

// indigoRoundTrip decodes with atdata.UnmarshalCBOR and encodes back with atdata.MarshalCBOR.
func indigoRoundTrip(data []byte) ([]byte, error) {
	m, err := atdata.UnmarshalCBOR(data)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	out, err := atdata.MarshalCBOR(m)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return out, nil
}

// indigoRoundTripProblem names the first thing in v that indigo's atdata is known not to carry
// through decode and encode unchanged, or returns "".
func indigoRoundTripProblem(v any) string {
	switch v := v.(type) {
	case datamodel.Bytes:
		if len(v) == 0 {
			return "an empty byte string is re-encoded as null"
		}
	case datamodel.Blob:
		if v.Legacy {
			return "a legacy blob {cid, mimeType} is re-encoded as {$type: blob, size: -1, …}"
		}
	case []any:
		for _, e := range v {
			if r := indigoRoundTripProblem(e); r != "" {
				return r
			}
		}
	case map[string]any:
		// Sorted, so that a value with two causes is always counted under the same one.
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if r := indigoRoundTripProblem(v[k]); r != "" {
				return r
			}
		}
	}
	return ""
}

// compareRandomTrees encodes random trees with atcore and checks every peer against the bytes.
func compareRandomTrees(t testing.TB) *tally {
	g := &treeGen{r: rand.New(rand.NewPCG(treeSeed, 1)), maxDepth: 6}
	tl := newTally()
	for i := range randomTrees {
		tree := g.record()
		want, err := datamodel.MarshalCBOR(tree)
		if err != nil {
			t.Fatalf("tree %d: atcore cannot encode %s: %v", i, describe(tree), err)
		}
		what := fmt.Sprintf("tree %d", i)
		if v, err := datamodel.UnmarshalCBOR(want); err != nil {
			t.Errorf("%s: atcore rejects its own encoding: %v", what, err)
		} else if again, err := datamodel.MarshalCBOR(v); err != nil || !bytes.Equal(again, want) {
			t.Errorf("%s: atcore round trip gives %x (%v)", what, again, err)
		}
		compareEncodings(t, tl, what, tree, want)
		comparePeerRoundTrips(t, tl, what, tree, want)
		if t.Failed() {
			t.Fatalf("%s: %s", what, describe(tree))
		}
	}
	return tl
}

func TestRandomTreesLikePeers(t *testing.T) {
	for _, l := range compareRandomTrees(t).lines() {
		t.Log(l)
	}
}

// compareRandomJSON writes random trees as JSON with atcore and checks that atcore and indigo
// read them back to the same DAG-CBOR.
func compareRandomJSON(t testing.TB) *tally {
	g := &treeGen{r: rand.New(rand.NewPCG(treeSeed, 2)), maxDepth: 6}
	tl := newTally()
	for i := range randomTrees {
		tree := g.record()
		what := fmt.Sprintf("JSON tree %d", i)
		want, err := datamodel.MarshalCBOR(tree)
		if err != nil {
			t.Fatalf("%s: atcore cannot encode %s: %v", what, describe(tree), err)
		}
		jsonData, err := datamodel.MarshalJSON(tree)
		if err != nil {
			t.Fatalf("%s: atcore cannot write JSON for %s: %v", what, describe(tree), err)
		}
		v, err := datamodel.UnmarshalJSON(jsonData)
		if err != nil {
			t.Fatalf("%s: atcore rejects its own JSON %s: %v", what, jsonData, err)
		}
		if got, err := datamodel.MarshalCBOR(v); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: atcore JSON round trip gives %x (%v), want %x", what, got, err, want)
		}
		compareIndigoJSON(t, tl, what, tree, jsonData, want)
		if t.Failed() {
			t.Fatalf("%s: %s", what, jsonData)
		}
	}
	return tl
}

func TestRandomJSONLikeIndigo(t *testing.T) {
	for _, l := range compareRandomJSON(t).lines() {
		t.Log(l)
	}
}

// indigoDivergences are the smallest records showing each way in which indigo's atdata does not
// carry valid data through decode and encode unchanged. The reasons are the ones
// indigoRoundTripProblem gives, and CONFORMANCE.md lists.
var indigoDivergences = []struct {
	reason string
	record map[string]any
}{
	{"an empty byte string is re-encoded as null", map[string]any{"a": datamodel.Bytes{}}},
	{"a legacy blob {cid, mimeType} is re-encoded as {$type: blob, size: -1, …}", map[string]any{
		"a": datamodel.Blob{Ref: datamodel.Link(testCID), MimeType: "image/png", Legacy: true}}},
}

// TestIndigoKnownDivergences shows each divergence happening, so that the reasons counted in
// the random-tree comparison are observed facts; atcore round-trips every one of these records.
func TestIndigoKnownDivergences(t *testing.T) {
	for _, d := range indigoDivergences {
		if got := indigoRoundTripProblem(d.record); got != d.reason {
			t.Errorf("%s: indigoRoundTripProblem says %q", d.reason, got)
		}
		want, err := datamodel.MarshalCBOR(d.record)
		if err != nil {
			t.Fatalf("%s: atcore: %v", d.reason, err)
		}
		got, err := indigoRoundTrip(want)
		if err == nil && bytes.Equal(got, want) {
			t.Errorf("%s: indigo now round-trips %x unchanged; update the table and CONFORMANCE.md", d.reason, want)
			continue
		}
		t.Logf("%s: %x -> %x (%v)", d.reason, want, got, err)
	}
}
