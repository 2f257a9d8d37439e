package peers

import (
	"bytes"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

// The app.bsky.feed.post record as a plain Go struct with `cbor` tags, as a Lexicon code
// generator would write it for atcore's typed path (datamodel.UnmarshalCBORStruct, through
// fxamacker/cbor), covering every field of testdata/records/post.
type (
	feedPost struct {
		Type      string          `cbor:"$type"`
		Text      string          `cbor:"text"`
		Facets    []richtextFacet `cbor:"facets,omitempty"`
		Reply     *replyRef       `cbor:"reply,omitempty"`
		Embed     *embedImages    `cbor:"embed,omitempty"`
		Langs     []string        `cbor:"langs,omitempty"`
		Tags      []string        `cbor:"tags,omitempty"`
		CreatedAt string          `cbor:"createdAt"`
	}
	richtextFacet struct {
		Index    facetIndex     `cbor:"index"`
		Features []facetFeature `cbor:"features"`
	}
	facetIndex struct {
		ByteStart int64 `cbor:"byteStart"`
		ByteEnd   int64 `cbor:"byteEnd"`
	}
	// facetFeature is the union of the mention, link and tag features, told apart by $type.
	facetFeature struct {
		Type string `cbor:"$type"`
		Did  string `cbor:"did,omitempty"`
		URI  string `cbor:"uri,omitempty"`
		Tag  string `cbor:"tag,omitempty"`
	}
	replyRef struct {
		Root   strongRef `cbor:"root"`
		Parent strongRef `cbor:"parent"`
	}
	strongRef struct {
		URI string `cbor:"uri"`
		CID string `cbor:"cid"`
	}
	embedImages struct {
		Type   string       `cbor:"$type"`
		Images []embedImage `cbor:"images"`
	}
	embedImage struct {
		Alt         string         `cbor:"alt"`
		Image       datamodel.Blob `cbor:"image"`
		AspectRatio *aspectRatio   `cbor:"aspectRatio,omitempty"`
	}
	aspectRatio struct {
		Width  int64 `cbor:"width"`
		Height int64 `cbor:"height"`
	}
)

var sinkPost *feedPost

// The typed comparison is fair only if atcore's typed path reads every field of the post and
// writes the same bytes back, as cbor-gen does (TestFeedPostCborgenRoundTrip).
func TestFeedPostAtcoreRoundTrip(t *testing.T) {
	data := postCBOR(t)
	var p feedPost
	if err := datamodel.UnmarshalCBORStruct(data, &p); err != nil {
		t.Fatal(err)
	}
	got, err := datamodel.MarshalCBORStruct(&p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("atcore typed round trip of post.cbor gives\n%x\nwant\n%x", got, data)
	}
}

func benchFeedPostDecodeAtcore(b *testing.B, data []byte) {
	b.Run("impl=atcore", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var p feedPost
			if err := datamodel.UnmarshalCBORStruct(data, &p); err != nil {
				b.Fatal(err)
			}
			sinkPost = &p
		}
	})
}

func benchFeedPostEncodeAtcore(b *testing.B, data []byte) {
	var p feedPost
	if err := datamodel.UnmarshalCBORStruct(data, &p); err != nil {
		b.Fatal(err)
	}
	b.Run("impl=atcore", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			out, err := datamodel.MarshalCBORStruct(&p)
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
}
