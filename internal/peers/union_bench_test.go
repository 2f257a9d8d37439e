package peers

import (
	"bytes"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

// unionPost is feedPost with its embed as a union (datamodel.Union), as a code generator would
// write it for app.bsky.feed.post, whose embed is an open union of five types.
type unionPost struct {
	Type      string          `cbor:"$type"`
	Text      string          `cbor:"text"`
	Facets    []richtextFacet `cbor:"facets,omitempty"`
	Reply     *replyRef       `cbor:"reply,omitempty"`
	Embed     datamodel.Union `cbor:"embed,omitzero"`
	Langs     []string        `cbor:"langs,omitempty"`
	Tags      []string        `cbor:"tags,omitempty"`
	CreatedAt string          `cbor:"createdAt"`
}

// unionRegistry holds the post and its images embed.
var unionRegistry = func() *datamodel.Registry {
	r := new(datamodel.Registry)
	datamodel.MustRegister[unionPost](r, "app.bsky.feed.post")
	datamodel.MustRegister[embedImages](r, "app.bsky.embed.images")
	return r
}()

// The comparison is fair only if the registry reads the whole post into the same struct as the
// direct decode, embed included, and both write the same bytes back.
func TestUnionDecodeSame(t *testing.T) {
	data := postCBOR(t)
	v, err := unionRegistry.DecodeCBOR(data)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := v.(*unionPost)
	if !ok {
		t.Fatalf("DecodeCBOR gave %T", v)
	}
	img, ok := p.Embed.Value().(*embedImages)
	if !ok {
		t.Fatalf("the embed is a %T", p.Embed.Value())
	}
	var direct feedPost
	if err := datamodel.UnmarshalCBORStruct(data, &direct); err != nil {
		t.Fatal(err)
	}
	if direct.Embed == nil || img.Images[0].Alt != direct.Embed.Images[0].Alt || p.Text != direct.Text {
		t.Error("the registry's post differs from the direct decode")
	}
	out, err := datamodel.MarshalCBORStruct(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, data) {
		t.Errorf("registry round trip of post.cbor gives\n%x\nwant\n%x", out, data)
	}
}

// BenchmarkUnionDecode (issue 15): impl=atcore decodes testdata/records/post through a registry
// (its $type peeked, then the registered struct, its embed union into the registered images
// struct); impl=atcore-concrete decodes the same bytes with UnmarshalCBORStruct into feedPost,
// whose embed is the images struct itself. benchreport checks atcore within 1.2× of
// atcore-concrete.
func BenchmarkUnionDecode(b *testing.B) {
	data := postCBOR(b)
	b.Run("rec=post", func(b *testing.B) {
		benchImpl(b, "atcore", len(data), func() (any, error) {
			v, err := unionRegistry.DecodeCBOR(data)
			sinkAny = v
			return v, err
		})
		b.Run("impl=atcore-concrete", func(b *testing.B) {
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
	})
}

// BenchmarkUnionDecodeRatio times the two sides of BenchmarkUnionDecode alternately, batch by
// batch (see interleaved), for issue 15's target on a machine whose load changes: rows measured
// apart moved by more than the 1.2× the target allows (atcore 9.4 µs against 4.1 µs in one full
// run, 4.8 µs against 4.3 µs minutes later). Run it with a fixed iteration count, e.g.
// -benchtime 20x.
func BenchmarkUnionDecodeRatio(b *testing.B) {
	data := postCBOR(b)
	b.Run("rec=post", func(b *testing.B) {
		interleaved(b, len(data), [2]string{"atcore", "atcore-concrete"}, [2]func() error{
			func() error {
				v, err := unionRegistry.DecodeCBOR(data)
				sinkAny = v
				return err
			},
			func() error {
				var p feedPost
				err := datamodel.UnmarshalCBORStruct(data, &p)
				sinkPost = &p
				return err
			},
		})
	})
}
