package peers

import (
	"bytes"
	"testing"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/peers/cborgenpeer"
)

// The typed comparison of issue 15: atcore's struct path (datamodel.UnmarshalCBORStruct and
// MarshalCBORStruct into feedPost) against the code cbor-gen v0.3.1 generates for a plain struct
// with the same fields (package cborgenpeer), on the same bytes. indigo's generated
// bsky.FeedPost, which reads the embed union twice, stays as context (impl=indigo).

// typedInputs are the posts of the typed benchmarks: testdata/records/post, and mixpost from
// benchinputs (four images with mixed-script alt text, mention, link and tag facets, a reply),
// which no implementation was tuned on.
func typedInputs(t testing.TB) []record {
	t.Helper()
	out := []record{{name: "post", cbor: postCBOR(t)}}
	for _, in := range generatedInputs(t) {
		if in.Name == "mixpost" {
			out = append(out, record{name: in.Name, cbor: in.CBOR, json: in.JSON})
		}
	}
	if len(out) != 2 {
		t.Fatal("benchinputs has no mixpost")
	}
	return out
}

func cborgenPeerDecode(data []byte) (*cborgenpeer.FeedPost, error) {
	var p cborgenpeer.FeedPost
	if err := p.UnmarshalCBOR(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	return &p, nil
}

func cborgenPeerEncode(p *cborgenpeer.FeedPost) ([]byte, error) {
	var buf bytes.Buffer
	if err := p.MarshalCBOR(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func atcoreTypedDecode(data []byte) (*feedPost, error) {
	var p feedPost
	if err := datamodel.UnmarshalCBORStruct(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Each implementation must read every field of both inputs and write the same bytes back, or the
// benchmarks would compare different work.
func TestTypedRoundTrip(t *testing.T) {
	for _, in := range typedInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			cg, err := cborgenPeerDecode(in.cbor)
			if err != nil {
				t.Fatalf("cbor-gen decode: %v", err)
			}
			if got, err := cborgenPeerEncode(cg); err != nil || !bytes.Equal(got, in.cbor) {
				t.Errorf("cbor-gen round trip gives\n%x, %v\nwant\n%x", got, err, in.cbor)
			}
			if cg.Embed == nil || len(cg.Embed.Images) == 0 || !cg.Embed.Images[0].Image.Ref.Defined() || cg.Reply == nil || len(cg.Facets) == 0 {
				t.Errorf("cbor-gen left fields empty: %+v", cg)
			}
			at, err := atcoreTypedDecode(in.cbor)
			if err != nil {
				t.Fatalf("atcore decode: %v", err)
			}
			if got, err := datamodel.MarshalCBORStruct(at); err != nil || !bytes.Equal(got, in.cbor) {
				t.Errorf("atcore round trip gives\n%x, %v\nwant\n%x", got, err, in.cbor)
			}
			ig, err := cborgenDecodePost(in.cbor)
			if err != nil {
				t.Fatalf("indigo decode: %v", err)
			}
			if got, err := cborgenEncodePost(ig); err != nil || !bytes.Equal(got, in.cbor) {
				t.Errorf("indigo round trip gives\n%x, %v\nwant\n%x", got, err, in.cbor)
			}
		})
	}
}

var sinkPeerPost *cborgenpeer.FeedPost

// BenchmarkTypedDecode decodes one post into Go structs: atcore's feedPost through
// datamodel.UnmarshalCBORStruct, cbor-gen's plain struct, and indigo's bsky.FeedPost.
func BenchmarkTypedDecode(b *testing.B) {
	for _, in := range typedInputs(b) {
		data := in.cbor
		b.Run("rec="+in.name, func(b *testing.B) {
			benchImpl(b, "atcore", len(data), func() (*feedPost, error) {
				p, err := atcoreTypedDecode(data)
				sinkPost = p
				return p, err
			})
			benchImpl(b, "cborgen", len(data), func() (*cborgenpeer.FeedPost, error) {
				p, err := cborgenPeerDecode(data)
				sinkPeerPost = p
				return p, err
			})
			benchImpl(b, "indigo", len(data), func() (any, error) {
				p, err := cborgenDecodePost(data)
				sinkFeedPost = p
				return p, err
			})
		})
	}
}

// BenchmarkTypedEncode encodes one post from Go structs decoded beforehand, into a new byte slice.
func BenchmarkTypedEncode(b *testing.B) {
	for _, in := range typedInputs(b) {
		data := in.cbor
		b.Run("rec="+in.name, func(b *testing.B) {
			at, err := atcoreTypedDecode(data)
			if err != nil {
				b.Fatal(err)
			}
			cg, err := cborgenPeerDecode(data)
			if err != nil {
				b.Fatal(err)
			}
			ig, err := cborgenDecodePost(data)
			if err != nil {
				b.Fatal(err)
			}
			benchImpl(b, "atcore", len(data), func() ([]byte, error) { return datamodel.MarshalCBORStruct(at) })
			benchImpl(b, "cborgen", len(data), func() ([]byte, error) { return cborgenPeerEncode(cg) })
			benchImpl(b, "indigo", len(data), func() ([]byte, error) { return cborgenEncodePost(ig) })
		})
	}
}
