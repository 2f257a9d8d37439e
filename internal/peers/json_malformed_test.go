package peers

import (
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"

	"github.com/atcore/atcore/datamodel"
)

// jsonDecoders are the atproto JSON readers in the JSON matrix. atcore's record path is
// UnmarshalJSON followed by ValidateRecord (records are objects); indigo's UnmarshalJSON takes
// only objects.
var jsonDecoders = []decoder{
	{"atcore", "`datamodel.UnmarshalJSON`, then `datamodel.ValidateRecord`", func(data []byte) error {
		v, err := datamodel.UnmarshalJSON(data)
		if err != nil {
			return err
		}
		return datamodel.ValidateRecord(v)
	}},
	{"indigo", "indigo `atdata.UnmarshalJSON`", func(data []byte) error {
		_, err := atdata.UnmarshalJSON(data)
		return err
	}},
}

// jsonCase is an atproto JSON input with the DECISIONS rule (or interop file) it comes from.
type jsonCase struct {
	rule  string
	name  string
	input []byte
}

// malformedJSONCases are the invalid interop cases plus one row per item of DECISIONS rule 10
// and the JSON side of rules 9 and 14 that the interop cases miss. atcore must reject them all.
func malformedJSONCases(t testing.TB) []jsonCase {
	var out []jsonCase
	var invalid []interopCase
	readInteropJSON(t, "data-model-invalid.json", &invalid)
	for _, c := range invalid {
		out = append(out, jsonCase{"interop", c.Note, c.JSON})
	}
	const blobCID = "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"
	for _, c := range []struct{ rule, name, input string }{
		{"10 numbers", "fraction written with an exponent (1.5e0)", `{"a":1.5e0}`},
		{"10 numbers", "integer 2^63", `{"a":9223372036854775808}`},
		{"10 numbers", "integer -2^63-1", `{"a":-9223372036854775809}`},
		{"10 numbers", "NaN", `{"a":NaN}`},
		{"10 numbers", "leading zero (01)", `{"a":01}`},
		{"10 $link", "CIDv0 in $link", `{"a":{"$link":"QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"}}`},
		{"10 $bytes", "$bytes that is not base64", `{"a":{"$bytes":"!!"}}`},
		{"10 $bytes", "$bytes in URL-safe base64", `{"a":{"$bytes":"-_8"}}`},
		{"9 key order", "duplicate key", `{"a":1,"a":2}`},
		{"9 UTF-8", "lone surrogate escape \\ud800", `{"a":"\ud800"}`},
		{"9 UTF-8", "invalid UTF-8 byte in a string", "{\"a\":\"\xff\"}"},
		{"9 trailing bytes", "text after the record", `{"a":1} x`},
		{"13 blobs", "blob with a negative size", `{"a":{"$type":"blob","ref":{"$link":"` + blobCID + `"},"mimeType":"image/jpeg","size":-1}}`},
		{"13 blobs", "blob with an empty mimeType", `{"a":{"$type":"blob","ref":{"$link":"` + blobCID + `"},"mimeType":"","size":1}}`},
		{"14 depth", "33 levels of nesting (limit 32)", `{"a":` + strings.Repeat("[", 32) + strings.Repeat("]", 32) + `}`},
		{"14 key length", "map key of 8,193 bytes (limit 8,192)", `{"` + strings.Repeat("k", 8193) + `":1}`},
		{"14 record size", "record over 2 MiB (limit 2 MiB)", `{"a":"` + strings.Repeat("x", 2<<20) + `"}`},
		{"records", "top-level array", `[1]`},
	} {
		out = append(out, jsonCase{c.rule, c.name, []byte(c.input)})
	}
	return out
}

// validJSONNotes are valid inputs on which the peers differ, shown under the matrix.
func validJSONCases() []jsonCase {
	return []jsonCase{
		{"10 $bytes", "$bytes with padding (optional on read)", []byte(`{"a":{"$bytes":"AAE="}}`)},
		{"10 $bytes", "$bytes with non-zero unused bits (\"123\", interop \"full\")", []byte(`{"a":{"$bytes":"123"}}`)},
		{"10 numbers", "integer written with a zero fraction (123.0)", []byte(`{"a":123.0}`)},
		{"10 numbers", "integer written with an exponent (1e2)", []byte(`{"a":1e2}`)},
		{"10 numbers", "integer 2^53+1, exactly", []byte(`{"a":9007199254740993}`)},
	}
}

func TestMalformedJSONRejectedByAtcore(t *testing.T) {
	for _, c := range malformedJSONCases(t) {
		if out, err := run(jsonDecoders[0].decode, c.input); out != rejected {
			t.Errorf("rule %s, %s: atcore: %s (%v)", c.rule, c.name, out, err)
		} else {
			t.Logf("rule %s, %s: %v", c.rule, c.name, err)
		}
	}
	for _, c := range validJSONCases() {
		if out, err := run(jsonDecoders[0].decode, c.input); out != accepted {
			t.Errorf("valid (rule %s) %s: atcore: %s (%v)", c.rule, c.name, out, err)
		}
	}
}
