package datamodel_test

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/atcore/atcore/datamodel"
)

func ExampleUnmarshalCBOR() {
	// {"$type": "app.bsky.graph.follow", "subject": "did:plc:abc"} in DAG-CBOR.
	data, _ := hex.DecodeString("a2652474797065756170702e62736b792e67726170682e666f6c6c6f77677375626a6563746b6469643a706c633a616263")
	v, err := datamodel.UnmarshalCBOR(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := v.(map[string]any)
	fmt.Println(m["$type"], m["subject"])

	// The same map with its keys in the wrong order is refused, with the offset of the key.
	bad, _ := hex.DecodeString("a2677375626a6563746b6469643a706c633a616263652474797065756170702e62736b792e67726170682e666f6c6c6f77")
	_, err = datamodel.UnmarshalCBOR(bad)
	fmt.Println(errors.Is(err, datamodel.ErrUnsortedKeys))
	fmt.Println(err)
	// Output:
	// app.bsky.graph.follow did:plc:abc
	// true
	// datamodel: map keys not in length-first bytewise order ("$type" after "subject") at offset 21
}

func ExampleMarshalCBOR() {
	out, err := datamodel.MarshalCBOR(map[string]any{
		"text":      "hello",
		"$type":     "app.bsky.feed.post",
		"createdAt": "2024-11-08T09:41:27.512Z",
		"langs":     []any{"en"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%x\n", out[:12]) // map of 4; keys sorted length-first: "text", "$type", "langs", ...

	// Floats are not part of the data model; the error names the path to the value.
	_, err = datamodel.MarshalCBOR(map[string]any{"embed": map[string]any{"ratio": 1.5}})
	fmt.Println(err)
	// Output:
	// a464746578746568656c6c6f
	// datamodel: floating-point number (float64 1.5) at "/embed/ratio"
}

func ExampleScanCBOR() {
	for _, h := range []string{
		"a1616101",                  // {"a": 1}
		"a1616118 01",               // {"a": 1} with a non-minimal integer
		"a161 61fb3ff0000000000000", // {"a": 1.0} as a float
		"9b0000000100000000",        // an array declaring 2^32 elements, with no data
	} {
		data, _ := hex.DecodeString(removeSpaces(h))
		fmt.Println(datamodel.ScanCBOR(data))
	}
	// Output:
	// <nil>
	// datamodel: integer or length not in its shortest form (one-byte argument 1) at "/a" at offset 3
	// datamodel: floating-point number (double-precision float) at "/a" at offset 3
	// datamodel: unexpected end of input (array of 4294967296 elements) at offset 0
}

func removeSpaces(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

func ExampleUnmarshalCBORStruct() {
	type Like struct {
		Type      string          `cbor:"$type"`
		Subject   datamodel.Link  `cbor:"subject"`
		Via       *datamodel.Link `cbor:"via,omitempty"`
		CreatedAt string          `cbor:"createdAt"`
	}
	link, _ := datamodel.UnmarshalCBOR(mustHex("d82a58250001711220" +
		"65062a5a5a00fc16d73c6944237ccbc15b1c4a7234489336891d091741a239d0"))
	in := Like{Type: "com.example.like", Subject: link.(datamodel.Link), CreatedAt: "2024-11-08T09:43:02.118Z"}
	data, err := datamodel.MarshalCBORStruct(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	var out Like
	if err := datamodel.UnmarshalCBORStruct(data, &out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Subject, out.Via == nil, out == in)
	// Output:
	// bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a true true
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
