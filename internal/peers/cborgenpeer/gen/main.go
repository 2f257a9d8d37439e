// Command gen writes ../cbor_gen.go, the cbor-gen v0.3.1 map encoders of package cborgenpeer, with
// cbor-gen's default limits (go generate ./cborgenpeer, in internal/peers).
package main

import (
	"log"

	typegen "github.com/whyrusleeping/cbor-gen"

	"github.com/atcore/atcore/internal/peers/cborgenpeer"
)

func main() {
	g := typegen.Gen{SortTypeNames: true}
	if err := g.WriteMapEncodersToFile("cbor_gen.go", "cborgenpeer",
		cborgenpeer.FeedPost{},
		cborgenpeer.RichtextFacet{},
		cborgenpeer.FacetIndex{},
		cborgenpeer.FacetFeature{},
		cborgenpeer.ReplyRef{},
		cborgenpeer.StrongRef{},
		cborgenpeer.EmbedImages{},
		cborgenpeer.EmbedImage{},
		cborgenpeer.AspectRatio{},
		cborgenpeer.Blob{},
	); err != nil {
		log.Fatal(err)
	}
}
