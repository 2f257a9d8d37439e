package cidutil_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/atcore/atcore/cidutil"
)

func ExampleSumCBOR() {
	// The DAG-CBOR encoding of the empty map {}.
	c := cidutil.SumCBOR([]byte{0xa0})
	fmt.Println(c)
	// Output: bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua
}

func ExampleSumRaw() {
	fmt.Println(cidutil.SumRaw([]byte("hello")))
	// Output: bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq
}

func ExampleAppendSumCBOR() {
	// Binary CIDs of records, back to back in one buffer, without a cid.Cid each.
	var buf []byte
	for _, record := range [][]byte{{0xa0}, {0xa1, 0x61, 0x61, 0x01}} {
		buf = cidutil.AppendSumCBOR(buf, record)
	}
	first, _ := cidutil.ParseBinary(buf[:36])
	fmt.Println(len(buf), first)
	// Output: 72 bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua
}

func ExampleParseBinary() {
	// A tag 42 payload after its 0x00 prefix: a CIDv1 with the blessed prefix 01 71 12 20.
	payload := cidutil.SumCBOR([]byte{0xa0}).Bytes()
	c, err := cidutil.ParseBinary(payload)
	fmt.Println(c, err)

	// A bare sha2-256 multihash is CIDv0, which atproto never accepts.
	_, err = cidutil.ParseBinary(payload[2:])
	fmt.Println(errors.Is(err, cidutil.ErrInvalid), err)
	// Output:
	// bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua <nil>
	// true invalid binary CID of 34 bytes: CIDv0 (a bare sha2-256 multihash) is not allowed, want CIDv1 (offset 0)
}

func ExampleParseString() {
	c, err := cidutil.ParseString("bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a")
	fmt.Println(c.Type() == cidutil.CodecDagCBOR, err)

	_, err = cidutil.ParseString("QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR")
	fmt.Println(err)
	// Output:
	// true <nil>
	// invalid CID "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR": CIDv0 (base58btc "Qm…") is not allowed, want CIDv1 (offset 0)
}

func ExampleAppendBinaryString() {
	// Binary CIDs kept back to back in one buffer, as keys, without a cid.Cid each.
	var keys []byte
	for _, s := range []string{
		"bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a",
		"bafkreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a",
	} {
		var err error
		if keys, err = cidutil.AppendBinaryString(keys, s); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(len(keys), keys[1] == cidutil.CodecDagCBOR, keys[37] == cidutil.CodecRaw)
	// Output:
	// 72 true true
}

func ExampleAppendString() {
	// A link written into a JSON buffer as {"$link": …}, without a string for it.
	c := cidutil.SumCBOR([]byte("record"))
	out := []byte(`{"$link":"`)
	out = cidutil.AppendString(out, c)
	out = append(out, `"}`...)
	fmt.Println(string(out) == `{"$link":"`+c.String()+`"}`, len(out)-len(`{"$link":""}`))
	// Output:
	// true 59
}

func ExampleParseBlessed() {
	c, err := cidutil.ParseBlessed("bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity")
	fmt.Println(c.Type() == cidutil.CodecRaw, err)

	// A well-formed CIDv1 that is not blessed: dag-pb codec.
	_, err = cidutil.ParseBlessed("bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")
	fmt.Println(errors.Is(err, cidutil.ErrNotBlessed), errors.Is(err, cidutil.ErrInvalid))
	fmt.Println(err)
	// Output:
	// true <nil>
	// true false
	// invalid CID "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi": not in the blessed form: codec 0x70, want dag-cbor (0x71) or raw (0x55)
}

func ExampleIsBlessed() {
	c, _ := cidutil.ParseString("zdj7WWeQ43G6JJvLWQWZpyHuAMq6uYWRjkBXFad11vE2LHhQ7")
	fmt.Println(cidutil.IsBlessed(c), cidutil.IsBlessed(cidutil.SumCBOR(nil)))
	// Output: false true
}

func ExampleCheckSyntax() {
	for _, s := range []string{
		"bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a",
		"QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR",
		"https://example.com",
	} {
		fmt.Println(cidutil.CheckSyntax(s))
	}
	// Output:
	// <nil>
	// invalid CID "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR": CIDv0 (a base58btc multihash) is not allowed, want CIDv1 (offset 0)
	// invalid CID "https://example.com": character ':' not in [A-Za-z0-9+=] (offset 5)
}

func ExampleVerify() {
	blob := []byte("hello")
	c := cidutil.SumRaw(blob)
	fmt.Println(cidutil.Verify(c, blob))

	err := cidutil.Verify(c, []byte("hellO"))
	fmt.Println(errors.Is(err, cidutil.ErrMismatch))
	// Output:
	// <nil>
	// true
}

func ExampleError() {
	_, err := cidutil.ParseBinary([]byte{0x01, 0x71, 0x12, 0x20, 0xff})
	var e *cidutil.Error
	if errors.As(err, &e) {
		fmt.Println(e.Offset, e.Reason)
	}
	// Output: 3 digest length 32 declared, only 1 byte follows (offset 3)
}

func ExampleSumRawReader() {
	// A large blob is hashed as it streams, in constant memory.
	c, size, err := cidutil.SumRawReader(strings.NewReader("hello"))
	fmt.Println(c, size, err)

	n, err := cidutil.VerifyReader(c, strings.NewReader("hello"))
	fmt.Println(n, err)
	// Output:
	// bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq 5 <nil>
	// 5 <nil>
}
