package datamodel_test

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/datamodel"
)

// A Lexicon struct read from atproto JSON with the generic decoder's rules: a duplicate key is
// refused with its location (encoding/json would keep the last), and a record with a key the
// struct lacks is read and written back with that key kept.
func ExampleUnmarshalJSONStruct() {
	type Image struct {
		Alt   string         `json:"alt"`
		Image datamodel.Blob `json:"image"`
	}
	type Post struct {
		Type      string                  `json:"$type"`
		Text      string                  `json:"text"`
		Images    []Image                 `json:"images,omitempty"`
		CreatedAt string                  `json:"createdAt"`
		Unknown   datamodel.UnknownFields `json:"-" cbor:"-"`
	}

	var p Post
	err := datamodel.UnmarshalJSONStruct([]byte(`{"$type": "app.bsky.feed.post", "text": "hi", "text": "bye"}`), &p)
	var e *datamodel.Error
	if errors.As(err, &e) {
		fmt.Println(errors.Is(err, datamodel.ErrDuplicateKey), e.Path, e.Offset)
	}

	err = datamodel.UnmarshalJSONStruct([]byte(`{"$type": "app.bsky.feed.post", "text": "hi", "images": [{"alt": 1}]}`), &p)
	fmt.Println(err)

	record := []byte(`{"$type":"app.bsky.feed.post","text":"harbour at dawn","langs":["en"],` +
		`"images":[{"alt":"","image":{"$type":"blob","ref":{"$link":"bafkreidablcns4xgypckn6raftypvbb5dtwjxpbyrw4xt74gt6pyo6gdfe"},` +
		`"mimeType":"image/png","size":20511}}],"createdAt":"2024-11-08T09:43:02.118Z"}`)
	if err := datamodel.UnmarshalJSONStruct(record, &p); err != nil {
		panic(err)
	}
	fmt.Println(p.Images[0].Image.Size, p.Unknown)
	out, err := datamodel.MarshalJSONStruct(&p)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// true /text 46
	// datamodel: value does not fit the Go type (found an integer for Go field datamodel_test.Image.Alt of type string) at "/images/0/alt" at offset 65
	// 20511 map[langs:[en]]
	// {"$type":"app.bsky.feed.post","createdAt":"2024-11-08T09:43:02.118Z","images":[{"alt":"","image":{"$type":"blob","mimeType":"image/png","ref":{"$link":"bafkreidablcns4xgypckn6raftypvbb5dtwjxpbyrw4xt74gt6pyo6gdfe"},"size":20511}}],"langs":["en"],"text":"harbour at dawn"}
}
