// Package benchinputs makes the benchmark inputs of the speed issue (issue 16) from a fixed
// seed: records that mix Latin, CJK, Cyrillic, Arabic and emoji text, two large records (about
// 50 KB and 900 KB, the second near the 1 MiB record limit), a map of 32 768 keys and a stream of
// 10 000 varied records. Each input comes as canonical DAG-CBOR (through datamodel.JSONToCBOR)
// and as atproto JSON.
//
// The inputs are made at benchmark time rather than committed, so that the repository does not
// grow by megabytes, and they were written once and not tuned on any implementation: the tests of
// internal/peers pin their SHA-256, so any change to the generator shows. To look at them or feed
// them to another tool, write them to a directory:
//
//	go run ./benchinputs/cmd -out /tmp/bench   # in internal/peers
//
// The records follow the Bluesky Lexicons (app.bsky.feed.post with facets, replies and up to four
// images, app.bsky.actor.profile, app.bsky.graph.list, like, repost, follow, block, listitem);
// the large records and the wide map are com.example.atcore.bench.* types, since no real schema
// makes a record that large.
package benchinputs

import (
	"bytes"
	"fmt"

	"github.com/atcore/atcore/datamodel"
)

// Seed is the seed of the committed inputs.
const Seed = 16

// StreamLen is the number of records in the stream input.
const StreamLen = 10_000

// WideMapKeys is the number of keys of the wide map input's map.
const WideMapKeys = 32_768

// An Input is one benchmark input in both forms. For a single record, Parts has one element.
// For a stream, CBOR holds the records back to back and JSON holds them as NDJSON (one per line,
// each line ended by '\n'); Parts has each record's own bytes (subslices of CBOR and JSON).
type Input struct {
	Name  string // short, for a benchmark name: rec=Name
	What  string // one line for the documentation
	CBOR  []byte
	JSON  []byte
	Parts []Part
}

// A Part is one record of an input, in both forms.
type Part struct {
	CBOR, JSON []byte
}

// Generate makes every input from seed. The same seed always gives the same bytes.
func Generate(seed uint64) ([]Input, error) {
	g := newGen(seed)
	var out []Input
	single := func(name, what string, rec obj) error {
		in, err := build(name, what, []obj{rec})
		if err != nil {
			return err
		}
		out = append(out, in)
		return nil
	}
	if err := single("mixprofile", "app.bsky.actor.profile whose display name and description mix Latin, CJK, Cyrillic, Arabic and emoji", g.profile(true)); err != nil {
		return nil, err
	}
	post := g.post(postOpts{mixed: true, facets: 4, reply: true, embed: "images", images: 4})
	if err := single("mixpost", "app.bsky.feed.post: mixed-script text with mention, link and tag facets, a reply, four images with mixed-script alt text", post); err != nil {
		return nil, err
	}
	if err := single("mixlist", "app.bsky.graph.list with a mixed-script name and description, description facets and an avatar", g.list(true)); err != nil {
		return nil, err
	}
	for _, size := range []struct {
		name   string
		target int
	}{{"big50k", 50_000}, {"big900k", 900_000}} {
		rec, err := g.bundle(size.target)
		if err != nil {
			return nil, err
		}
		if err := single(size.name, fmt.Sprintf("a record of at least %d bytes of DAG-CBOR: varied records of the stream's mix, bytes and links", size.target), rec); err != nil {
			return nil, err
		}
	}
	if err := single("wide32k", fmt.Sprintf("a record holding one map of %d keys (1 to 24 bytes, some non-ASCII) in random order", WideMapKeys), g.wideMap(WideMapKeys)); err != nil {
		return nil, err
	}
	var stream []obj
	for range StreamLen {
		stream = append(stream, g.anyRecord())
	}
	in, err := build("stream10k", fmt.Sprintf("%d records of nine collections (posts of every embed kind, likes, reposts, follows, blocks, list items, profiles, lists), a third with mixed-script text", StreamLen), stream)
	if err != nil {
		return nil, err
	}
	return append(out, in), nil
}

// build writes recs as JSON, converts each to canonical DAG-CBOR and concatenates them.
func build(name, what string, recs []obj) (Input, error) {
	in := Input{Name: name, What: what}
	var js, cb []byte
	type span struct{ js, je, cs, ce int }
	var spans []span
	for i, rec := range recs {
		var buf bytes.Buffer
		if err := writeJSON(&buf, rec); err != nil {
			return Input{}, err
		}
		c, err := datamodel.JSONToCBOR(buf.Bytes())
		if err != nil {
			return Input{}, fmt.Errorf("benchinputs: %s record %d: %w", name, i, err)
		}
		s := span{js: len(js), cs: len(cb)}
		js = append(js, buf.Bytes()...)
		s.je = len(js)
		if len(recs) > 1 {
			js = append(js, '\n')
		}
		cb = append(cb, c...)
		s.ce = len(cb)
		spans = append(spans, s)
	}
	in.JSON, in.CBOR = js, cb
	for _, s := range spans {
		in.Parts = append(in.Parts, Part{CBOR: cb[s.cs:s.ce:s.ce], JSON: js[s.js:s.je:s.je]})
	}
	return in, nil
}
