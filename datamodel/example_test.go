package datamodel_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/atcore/atcore/datamodel"
)

// A record arrives as atproto JSON: it is decoded strictly, checked as a record, written as
// canonical DAG-CBOR (the bytes that are signed and hashed) and named by its CID. A bad record
// gets an error that names the rule, the JSON Pointer of the value and the byte offset.
func Example() {
	body := []byte(`{"$type": "app.bsky.feed.post", "text": "hi", "createdAt": "2024-07-19T16:40:46.480Z"}`)
	v, err := datamodel.UnmarshalJSON(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := datamodel.ValidateRecord(v); err != nil {
		fmt.Println(err)
		return
	}
	cbor, err := datamodel.MarshalCBOR(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := datamodel.RecordCID(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	back, err := datamodel.UnmarshalCBOR(cbor)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(cbor), c, back.(map[string]any)["text"])

	_, err = datamodel.UnmarshalJSON([]byte(`{"embed": {"aspectRatio": {"width": 1.5}}}`))
	var de *datamodel.Error
	if errors.As(err, &de) {
		fmt.Println(de.Path, de.Offset, errors.Is(err, datamodel.ErrFraction))
	}
	fmt.Println(err)
	// Output:
	// 70 bafyreiekz4vxkqkjzahspxy453clonjnzz2xc6kp35j4jdtalh2qhssj7y hi
	// /embed/aspectRatio/width 36 true
	// datamodel: number has a fractional part (1.5) at "/embed/aspectRatio/width" at offset 36
}

func ExampleUnmarshalCBORPrefix() {
	// An event-stream frame: a header value, then a body value, back to back.
	header, _ := datamodel.MarshalCBOR(map[string]any{"op": int64(1), "t": "#identity"})
	body, _ := datamodel.MarshalCBOR(map[string]any{"did": "did:plc:abc", "seq": int64(42)})
	frame := append(header, body...)

	h, rest, err := datamodel.UnmarshalCBORPrefix(frame)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := datamodel.UnmarshalCBOR(rest) // the body must end the frame
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.(map[string]any)["t"], b.(map[string]any)["seq"])
	// Output:
	// #identity 42
}

func ExampleMarshalCBORStruct() {
	type follow struct {
		Type      string `cbor:"$type"`
		Subject   string `cbor:"subject"`
		CreatedAt string `cbor:"createdAt"`
	}
	out, err := datamodel.MarshalCBORStruct(follow{"app.bsky.graph.follow", "did:plc:abc", "2024-11-08T09:41:27.512Z"})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The same bytes as the generic encoder writes for the same map: canonical DAG-CBOR.
	generic, _ := datamodel.MarshalCBOR(map[string]any{
		"$type": "app.bsky.graph.follow", "subject": "did:plc:abc", "createdAt": "2024-11-08T09:41:27.512Z",
	})
	fmt.Println(bytes.Equal(out, generic))

	// Floats are outside the data model: the struct path refuses them too.
	type ratio struct {
		R float64 `cbor:"r"`
	}
	_, err = datamodel.MarshalCBORStruct(ratio{1.5})
	fmt.Println(errors.Is(err, datamodel.ErrFloat))

	// So is a $type left empty: every decoder would refuse "$type": "".
	_, err = datamodel.MarshalCBORStruct(follow{Subject: "did:plc:abc"})
	fmt.Println(err)
	// Output:
	// true
	// true
	// datamodel: invalid $type (want a non-empty string, found an empty string) at "/$type"
}

func ExampleDisallowUnknownFields() {
	type follow struct {
		Type    string `cbor:"$type"`
		Subject string `cbor:"subject"`
	}
	// A record of a newer revision of the Lexicon, with a field the Go type lacks.
	data, _ := datamodel.MarshalCBOR(map[string]any{
		"$type": "app.bsky.graph.follow", "subject": "did:plc:abc", "via": "did:plc:def",
	})
	var f follow
	err := datamodel.UnmarshalCBORStruct(data, &f) // ignored, as the Lexicon spec asks
	fmt.Println(f.Subject, err)

	err = datamodel.UnmarshalCBORStruct(data, &f, datamodel.DisallowUnknownFields())
	fmt.Println(err)
	// Output:
	// did:plc:abc <nil>
	// datamodel: value does not fit the Go type (no field of Go type datamodel_test.follow for the key "via") at "/via" at offset 1
}

func ExampleCBORToJSON() {
	data, _ := datamodel.JSONToCBOR([]byte(`{"$type":"app.bsky.feed.like","sig":{"$bytes":"AQID"},"n":1}`))
	js, err := datamodel.CBORToJSON(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(js)) // keys sorted bytewise; bytes as {"$bytes": …} without padding
	// Output:
	// {"$type":"app.bsky.feed.like","n":1,"sig":{"$bytes":"AQID"}}
}

func ExampleLinks() {
	v, err := datamodel.UnmarshalJSON([]byte(`{
		"subject": {"cid": {"$link": "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"}, "uri": "at://did:plc:abc/app.bsky.feed.post/3k2la"},
		"embed": [{"$link": "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"}]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range datamodel.Links(v) {
		fmt.Println(l)
	}
	// Output:
	// bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity
	// bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a
}

func ExampleWithLimits() {
	// A service that takes small records only: 4 levels, 8 KiB. The other limits keep their
	// defaults.
	small := datamodel.WithLimits(datamodel.Limits{MaxDepth: 4, MaxJSONSize: 8 << 10})
	_, err := datamodel.UnmarshalJSON([]byte(`{"a":[[[[1]]]]}`), small)
	fmt.Println(err)
	_, err = datamodel.UnmarshalJSON([]byte(`{"a":[[[1]]]}`), small)
	fmt.Println(err)
	// Output:
	// datamodel: nesting deeper than the limit (limit 4) at "/a/0/0/0" at offset 8
	// <nil>
}

func ExampleWithSafeIntegers() {
	in := []byte(`{"likes":9007199254740993}`) // 2^53+1: JavaScript cannot hold it exactly
	v, err := datamodel.UnmarshalJSON(in)
	fmt.Println(v, err)
	_, err = datamodel.UnmarshalJSON(in, datamodel.WithSafeIntegers())
	fmt.Println(errors.Is(err, datamodel.ErrUnsafeInteger))
	fmt.Println(err)
	// Output:
	// map[likes:9007199254740993] <nil>
	// true
	// datamodel: integer outside ±(2^53−1), the JavaScript-safe range (9007199254740993) at "/likes" at offset 9
}

func ExampleNewCBORDecoder() {
	// Three records back to back, the last one cut short: a torn tail.
	var stream []byte
	for _, n := range []int64{1, 2, 3} {
		b, _ := datamodel.MarshalCBOR(map[string]any{"n": n})
		stream = append(stream, b...)
	}
	stream = stream[:len(stream)-1]

	d := datamodel.NewCBORDecoder(bytes.NewReader(stream))
	for {
		v, err := d.Decode()
		if err == io.EOF {
			break // a clean end
		}
		if err != nil {
			fmt.Println(errors.Is(err, io.ErrUnexpectedEOF), err)
			break
		}
		fmt.Println(v)
	}
	// Output:
	// map[n:1]
	// map[n:2]
	// true datamodel: unexpected end of input at "/n" at offset 11
}

func ExampleNewJSONDecoder() {
	ndjson := `{"n":1}

{"n":1.5}
{"n":3}
`
	d := datamodel.NewJSONDecoder(strings.NewReader(ndjson))
	for {
		v, err := d.Decode()
		if err == io.EOF {
			break
		}
		fmt.Println(v, err) // a bad line does not stop the stream
	}
	// Output:
	// map[n:1] <nil>
	// <nil> datamodel: number has a fractional part (1.5) at "/n" at offset 14
	// map[n:3] <nil>
}
