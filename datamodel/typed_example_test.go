package datamodel_test

import (
	"fmt"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datamodel"
)

// A service built against an older revision of app.bsky.graph.follow reads a record written with
// a newer one, which has a field the service's Go type lacks, and writes it back: with an
// UnknownFields field the record keeps every byte, so its CID does not change.
func ExampleUnknownFields() {
	type follow struct {
		Type      string                  `cbor:"$type"`
		Subject   string                  `cbor:"subject"`
		CreatedAt string                  `cbor:"createdAt"`
		Unknown   datamodel.UnknownFields `cbor:"-" json:"-"` // what this revision does not know
	}
	data, _ := datamodel.MarshalCBOR(map[string]any{
		"$type": "app.bsky.graph.follow", "subject": "did:plc:abc",
		"createdAt": "2024-11-08T09:41:27.512Z", "via": map[string]any{"uri": "at://did:plc:def/x/1"},
	})
	var f follow
	if err := datamodel.UnmarshalCBORStruct(data, &f); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Subject, f.Unknown)

	f.Subject = "did:plc:xyz" // an edit by the service; the unknown field stays
	out, _ := datamodel.MarshalCBORStruct(&f)
	back, _ := datamodel.UnmarshalCBOR(out)
	fmt.Println(back.(map[string]any)["via"])

	f.Subject = "did:plc:abc" // undone: the very record read, same CID
	c, _ := datamodel.RecordCID(&f)
	fmt.Println(c == cidutil.SumCBOR(data))

	// A field the struct names cannot be in Unknown as well.
	f.Unknown["subject"] = "did:plc:other"
	_, err := datamodel.MarshalCBORStruct(&f)
	fmt.Println(err)
	// Output:
	// did:plc:abc map[via:map[uri:at://did:plc:def/x/1]]
	// map[uri:at://did:plc:def/x/1]
	// true
	// datamodel: value does not fit the Go type (key "subject" of datamodel_test.follow.Unknown is also the key of Go field datamodel_test.follow.Subject) at "/subject"
}
