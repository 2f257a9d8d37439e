package cidutil_test

import (
	"errors"
	"fmt"

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
	// true cidutil.ParseBinary: invalid CID: CIDv0 (a bare sha2-256 multihash) is not allowed, want CIDv1 (at byte 0)
}

func ExampleParseString() {
	c, err := cidutil.ParseString("bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a")
	fmt.Println(c.Type() == cidutil.CodecDagCBOR, err)

	_, err = cidutil.ParseString("QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR")
	fmt.Println(err)
	// Output:
	// true <nil>
	// cidutil.ParseString("QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR"): invalid CID: CIDv0 (base58btc "Qm…") is not allowed, want CIDv1 (at byte 0)
}
