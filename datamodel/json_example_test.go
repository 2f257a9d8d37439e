package datamodel_test

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/datamodel"
)

func ExampleUnmarshalJSON() {
	v, err := datamodel.UnmarshalJSON([]byte(`{
		"$type": "app.bsky.feed.like",
		"subject": {"$link": "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"},
		"big": 9007199254740993,
		"round": 123.0
	}`))
	if err != nil {
		panic(err)
	}
	m := v.(map[string]any)
	fmt.Printf("%T %v\n", m["subject"], m["subject"])
	fmt.Printf("%T %v\n", m["big"], m["big"])
	fmt.Printf("%T %v\n", m["round"], m["round"])

	_, err = datamodel.UnmarshalJSON([]byte(`{"embed":{"images":[{"image":{"$type":"blob","size":"1"}}]}}`))
	fmt.Println(errors.Is(err, datamodel.ErrBlob))
	fmt.Println(err)
	// Output:
	// datamodel.Link bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a
	// int64 9007199254740993
	// int64 123
	// true
	// datamodel: malformed blob (size must be an integer, found a string) at "/embed/images/0/image/size" at offset 52
}

func ExampleMarshalJSON() {
	out, err := datamodel.MarshalJSON(map[string]any{
		"text":  "hi",
		"$type": "app.example.note",
		"sig":   datamodel.Bytes{0xde, 0xad, 0xbe, 0xef},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))

	_, err = datamodel.MarshalJSON(map[string]any{"ratio": 0.5})
	fmt.Println(err)
	// Output:
	// {"$type":"app.example.note","sig":{"$bytes":"3q2+7w"},"text":"hi"}
	// datamodel: floating-point number (float64 0.5) at "/ratio"
}

func ExampleMarshalJSONIndent() {
	out, err := datamodel.MarshalJSONIndent(map[string]any{"a": []any{int64(1), int64(2)}}, "", "  ")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {
	//   "a": [
	//     1,
	//     2
	//   ]
	// }
}

func ExampleJSONToCBOR() {
	cbor, err := datamodel.JSONToCBOR([]byte(`{"b": 1, "a": "x"}`))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", cbor)
	back, err := datamodel.CBORToJSON(cbor)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(back))
	// Output:
	// a261616178616201
	// {"a":"x","b":1}
}

func ExampleRecordCID() {
	v, err := datamodel.UnmarshalJSON([]byte(`{
		"a": {"$link": "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"},
		"b": {"$bytes": "nFERjvLLiw9qm45JrqH9QTzyC2Lu1Xb4ne6+sBrCzI0"},
		"c": {
			"$type": "blob",
			"ref": {"$link": "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"},
			"mimeType": "image/jpeg",
			"size": 10000
		}
	}`))
	if err != nil {
		panic(err)
	}
	c, err := datamodel.RecordCID(v)
	if err != nil {
		panic(err)
	}
	fmt.Println(c) // the CID of data-model-fixtures.json's second fixture
	// Output:
	// bafyreihldkhcwijkde7gx4rpkkuw7pl6lbyu5gieunyc7ihactn5bkd2nm
}

func ExampleBlobs() {
	v, err := datamodel.UnmarshalJSON([]byte(`{
		"$type": "app.bsky.actor.profile",
		"banner": {"$type": "blob", "ref": {"$link": "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"}, "mimeType": "image/png", "size": 5120},
		"avatar": {"cid": "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity", "mimeType": "image/jpeg"}
	}`))
	if err != nil {
		panic(err)
	}
	for _, b := range datamodel.Blobs(v) {
		fmt.Println(b.Ref, b.MimeType, b.Size, b.Legacy)
	}
	// Links holds only real CID links: the legacy blob's CID is a plain string in the record.
	fmt.Println(len(datamodel.Links(v)))
	// Output:
	// bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity image/jpeg 0 true
	// bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity image/png 5120 false
	// 1
}

func ExampleValidate() {
	record := map[string]any{
		"$type": "com.example.thing",
		"items": []any{map[string]any{"$type": ""}},
	}
	err := datamodel.Validate(record)
	fmt.Println(errors.Is(err, datamodel.ErrType), err)

	err = datamodel.ValidateRecord("blah")
	fmt.Println(errors.Is(err, datamodel.ErrNotRecord), err)
	// Output:
	// true datamodel: invalid $type (want a non-empty string, found an empty string) at "/items/0/$type"
	// true datamodel: record is not an object (found a string)
}
