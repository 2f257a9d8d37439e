package datamodel_test

import (
	"fmt"

	"github.com/atcore/atcore/datamodel"
)

// Go types for two record types, a post and a like, and one member of the post's embed union.
type (
	feedPost struct {
		Type  string          `cbor:"$type"`
		Text  string          `cbor:"text"`
		Embed datamodel.Union `cbor:"embed,omitzero"` // an open union
	}
	feedLike struct {
		Type    string `cbor:"$type"`
		Subject string `cbor:"subject"`
	}
	embedExternal struct {
		Type string `cbor:"$type"`
		URI  string `cbor:"uri"`
	}
)

// A registry with two record types and an open union field: records decode by their $type, and
// the embed into its registered type, or generic when its type is not registered.
func ExampleRegistry() {
	var reg datamodel.Registry
	datamodel.MustRegister[feedPost](&reg, "app.bsky.feed.post")
	datamodel.MustRegister[feedLike](&reg, "app.bsky.feed.like")
	datamodel.MustRegister[embedExternal](&reg, "app.bsky.embed.external")

	records := []string{
		`{"$type":"app.bsky.feed.post","text":"see","embed":{"$type":"app.bsky.embed.external","uri":"https://example.com"}}`,
		`{"$type":"app.bsky.feed.post","text":"vote","embed":{"$type":"app.example.poll","options":["yes","no"]}}`,
		`{"$type":"app.bsky.feed.like","subject":"at://did:plc:abc/app.bsky.feed.post/3laerg4w3ob23"}`,
		`{"$type":"app.example.note","body":"a type nobody registered"}`,
	}
	for _, js := range records {
		v, _ := datamodel.UnmarshalJSON([]byte(js))
		data, _ := datamodel.MarshalCBOR(v) // as a repository holds it

		rec, err := reg.DecodeCBOR(data)
		if err != nil {
			fmt.Println(err)
			continue
		}
		switch r := rec.(type) {
		case *feedPost:
			switch e := r.Embed.Value().(type) {
			case *embedExternal:
				fmt.Printf("post %q, linking %s\n", r.Text, e.URI)
			case map[string]any: // open: a type not registered stays generic
				fmt.Printf("post %q, embedding a %s\n", r.Text, r.Embed.Type())
			}
			out, _ := datamodel.MarshalCBORStruct(r)
			fmt.Println("  same bytes:", string(out) == string(data))
		case *feedLike:
			fmt.Println("like of", r.Subject)
		case map[string]any:
			fmt.Println("generic", r["$type"])
		}
	}
	// Output:
	// post "see", linking https://example.com
	//   same bytes: true
	// post "vote", embedding a app.example.poll
	//   same bytes: true
	// like of at://did:plc:abc/app.bsky.feed.post/3laerg4w3ob23
	// generic app.example.note
}
