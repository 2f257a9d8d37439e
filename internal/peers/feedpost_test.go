package peers

import (
	"bytes"
	"testing"

	"github.com/bluesky-social/indigo/api/bsky"
)

var sinkFeedPost *bsky.FeedPost

// cborgenDecodePost decodes a post with indigo's cbor-gen generated code.
func cborgenDecodePost(data []byte) (*bsky.FeedPost, error) {
	var p bsky.FeedPost
	if err := p.UnmarshalCBOR(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return &p, nil
}

// cborgenEncodePost encodes a post with indigo's cbor-gen generated code.
func cborgenEncodePost(p *bsky.FeedPost) ([]byte, error) {
	var buf bytes.Buffer
	if err := p.MarshalCBOR(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// postCBOR returns testdata/records/post.cbor.
func postCBOR(t testing.TB) []byte {
	for _, rec := range loadRecords(t) {
		if rec.name == "post" {
			return rec.cbor
		}
	}
	t.Fatal("no post record")
	return nil
}

// The typed benchmarks are fair only if cbor-gen reads every field of the post and writes the
// same bytes back.
func TestFeedPostCborgenRoundTrip(t *testing.T) {
	data := postCBOR(t)
	p, err := cborgenDecodePost(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cborgenEncodePost(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("cbor-gen round trip of post.cbor gives\n%x\nwant\n%x", got, data)
	}
}

func BenchmarkFeedPostDecode(b *testing.B) {
	data := postCBOR(b)
	benchFeedPostDecodeAtcore(b, data)
	b.Run("impl=cbor-gen", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			p, err := cborgenDecodePost(data)
			if err != nil {
				b.Fatal(err)
			}
			sinkFeedPost = p
		}
	})
}

func BenchmarkFeedPostEncode(b *testing.B) {
	data := postCBOR(b)
	benchFeedPostEncodeAtcore(b, data)
	p, err := cborgenDecodePost(data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("impl=cbor-gen", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			out, err := cborgenEncodePost(p)
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
}
