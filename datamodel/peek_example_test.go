package datamodel_test

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/datamodel"
)

// Routing records by type, decoding only the ones a consumer handles.
func ExampleRecordTypeCBOR() {
	like, _ := datamodel.JSONToCBOR([]byte(`{"$type": "app.bsky.feed.like", "createdAt": "2024-11-08T09:41:27.512Z",
		"subject": {"uri": "at://did:plc:qg3dpwh42ldnuy2z42ldce5b/app.bsky.feed.post/3laerg63rci24",
		"cid": "bafyreiheoeszncz3oecj7pciali6ictr5ijvtxwpvowpoczulcadpvh7bq"}}`))
	untyped, _ := datamodel.JSONToCBOR([]byte(`{"text": "no type"}`))
	for _, rec := range [][]byte{like, untyped} {
		typ, err := datamodel.RecordTypeCBOR(rec)
		if err != nil {
			fmt.Println(err, errors.Is(err, datamodel.ErrType))
			continue
		}
		switch string(typ) { // no copy: typ is a view of rec
		case "app.bsky.feed.like":
			v, err := datamodel.UnmarshalCBOR(rec)
			fmt.Println("like of", v.(map[string]any)["subject"].(map[string]any)["uri"], err)
		default:
			fmt.Println("skipped", string(typ))
		}
	}
	// Output:
	// like of at://did:plc:qg3dpwh42ldnuy2z42ldce5b/app.bsky.feed.post/3laerg63rci24 <nil>
	// datamodel: invalid $type (no $type key) at "/$type" at offset 0 true
}

func ExampleRecordTypeJSON() {
	typ, err := datamodel.RecordTypeJSON([]byte(`{"text": "hello", "$type": "app.bsky.feed.post"}`))
	fmt.Println(string(typ), err)
	_, err = datamodel.RecordTypeJSON([]byte(`{"$type": 42}`))
	fmt.Println(err)
	// Output:
	// app.bsky.feed.post <nil>
	// datamodel: invalid $type (want a non-empty string, found a number) at "/$type" at offset 10
}
