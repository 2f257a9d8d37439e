package peers

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// cat concatenates byte slices and single bytes into one CBOR input.
func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case byte:
			b = append(b, p)
		case int:
			b = append(b, byte(p))
		case rune:
			b = append(b, byte(p))
		case []byte:
			b = append(b, p...)
		case string:
			b = append(b, p...)
		default:
			panic("cat: unexpected part")
		}
	}
	return b
}

// head returns the minimal CBOR head for major type major and argument n.
func head(major byte, n uint64) []byte {
	m := major << 5
	switch {
	case n < 24:
		return []byte{m | byte(n)}
	case n <= 0xff:
		return []byte{m | 24, byte(n)}
	case n <= 0xffff:
		return binary.BigEndian.AppendUint16([]byte{m | 25}, uint16(n))
	case n <= 0xffff_ffff:
		return binary.BigEndian.AppendUint32([]byte{m | 26}, uint32(n))
	default:
		return binary.BigEndian.AppendUint64([]byte{m | 27}, n)
	}
}

// text is a minimal CBOR text string.
func text(s string) []byte { return cat(head(3, uint64(len(s))), s) }

// wrap puts value under the single key "a": {"a": value}. Records are maps, and indigo's decoder
// rejects any other top level, so every bad value is tested inside a valid map.
func wrap(value ...any) []byte { return cat(0xa1, 0x61, 'a', cat(value...)) }

// nested returns depth arrays, each holding the next, the innermost empty.
func nested(depth int) []byte {
	return cat(bytes.Repeat([]byte{0x81}, depth-1), 0x80)
}

// link is a tag-42 CID link with the given payload bytes.
func link(payload []byte) []byte { return cat(0xd8, 0x2a, head(2, uint64(len(payload))), payload) }

// A malformedCase is an input that breaks one DECISIONS rule; atcore must reject it.
type malformedCase struct {
	rule  string // DECISIONS rule and item
	name  string
	input []byte
}

// malformedCases has one row per item of DECISIONS rules 9 and 14 (and a few of 10, 11 and 13).
func malformedCases() []malformedCase {
	u64 := func(major byte, v uint64) []byte {
		return binary.BigEndian.AppendUint64([]byte{major<<5 | 27}, v)
	}
	return []malformedCase{
		{"9 minimal heads", "integer 1 in a 1-byte argument (0x18 0x01)", wrap(0x18, 0x01)},
		{"9 minimal heads", "integer 255 in a 2-byte argument", wrap(0x19, 0x00, 0xff)},
		{"9 minimal heads", "integer 1 in an 8-byte argument", wrap(u64(0, 1))},
		{"9 minimal heads", "negative integer -1 in a 1-byte argument", wrap(0x38, 0x00)},
		{"9 minimal heads", "text length 1 in a 1-byte argument", wrap(0x78, 0x01, 'x')},
		{"9 minimal heads", "bytes length 1 in a 1-byte argument", wrap(0x58, 0x01, 0x00)},
		{"9 minimal heads", "array length 0 in a 1-byte argument", wrap(0x98, 0x00)},
		{"9 minimal heads", "map length 1 in a 1-byte argument", cat(0xb8, 0x01, 0x61, 'a', 0x00)},
		{"9 minimal heads", "map key length in a 1-byte argument", cat(0xa1, 0x78, 0x01, 'a', 0x00)},
		{"9 minimal heads", "tag 42 in a 2-byte argument", wrap(0xd9, 0x00, 0x2a, head(2, uint64(len(testPayload))), testPayload)},
		{"9 minimal heads", "false as a two-byte simple value (0xf8 0x14)", wrap(0xf8, 0x14)},
		{"9 key order", "keys out of bytewise order (b, a)", cat(0xa2, text("b"), 0x00, text("a"), 0x00)},
		{"9 key order", "keys bytewise-sorted but not length-first (aa, b)", cat(0xa2, text("aa"), 0x00, text("b"), 0x00)},
		{"9 key order", "duplicate key", cat(0xa2, text("a"), 0x00, text("a"), 0x01)},
		{"9 key order", "duplicate key, not adjacent", cat(0xa3, text("a"), 0x00, text("b"), 0x00, text("a"), 0x01)},
		{"9 map keys", "integer map key", cat(0xa1, 0x01, 0x00)},
		{"9 map keys", "byte-string map key", cat(0xa1, 0x41, 'a', 0x00)},
		{"9 map keys", "array map key", cat(0xa1, 0x80, 0x00)},
		{"9 no floats", "float64 1.5", wrap(0xfb, u64(0, 0x3ff8000000000000)[1:])},
		{"9 no floats", "float64 1.0 (integral)", wrap(0xfb, u64(0, 0x3ff0000000000000)[1:])},
		{"9 no floats", "float32 1.5", wrap(0xfa, 0x3f, 0xc0, 0x00, 0x00)},
		{"9 no floats", "float16 1.0", wrap(0xf9, 0x3c, 0x00)},
		{"9 no floats", "NaN (float16)", wrap(0xf9, 0x7e, 0x00)},
		{"9 no floats", "NaN (float64)", wrap(0xfb, u64(0, 0x7ff8000000000000)[1:])},
		{"9 no floats", "+Infinity (float16)", wrap(0xf9, 0x7c, 0x00)},
		{"9 simple values", "undefined (0xf7)", wrap(0xf7)},
		{"9 simple values", "simple value 16 (0xf0)", wrap(0xf0)},
		{"9 simple values", "simple value 255 (0xf8 0xff)", wrap(0xf8, 0xff)},
		{"9 simple values", "break code outside an indefinite item (0xff)", wrap(0xff)},
		{"9 tags", "tag 0 (date/time string)", wrap(0xc0, text("2024-01-01T00:00:00Z"))},
		{"9 tags", "tag 1 (epoch time)", wrap(0xc1, 0x1a, 0x65, 0x92, 0x00, 0x80)},
		{"9 tags", "tag 43", wrap(0xd8, 0x2b, 0x00)},
		{"9 tags", "tag 55799 (self-described CBOR) before the record", cat(0xd9, 0xd9, 0xf7, 0xa1, 0x61, 'a', 0x00)},
		{"9 tags", "tag 42 nested in tag 42", wrap(0xd8, 0x2a, link(testPayload))},
		{"9 tag 42 payload", "tag 42 on a text string (CID in base32)", wrap(0xd8, 0x2a, text(testCID.String()))},
		{"9 tag 42 payload", "tag 42 on an integer", wrap(0xd8, 0x2a, 0x00)},
		{"9 tag 42 payload", "tag 42 bytes without the 0x00 prefix", wrap(link(testCID.Bytes()))},
		{"9 tag 42 payload", "tag 42 bytes with prefix 0x01", wrap(link(cat(0x01, testCID.Bytes())))},
		{"9 tag 42 payload", "tag 42 on empty bytes", wrap(link(nil))},
		{"9 tag 42 payload", "tag 42 on just the 0x00 prefix", wrap(link([]byte{0x00}))},
		{"9 tag 42 payload", "tag 42 CID with a truncated multihash", wrap(link(testPayload[:len(testPayload)-1]))},
		{"9 tag 42 payload", "tag 42 CID followed by extra bytes", wrap(link(cat(testPayload, 0x00)))},
		{"9 tag 42 payload", "tag 42 CID with version 2", wrap(link(cat(0x00, 0x02, testCID.Bytes()[1:])))},
		{"12 CIDv0", "CIDv0 (bare sha2-256 multihash) in tag 42", wrap(link(cat(0x00, cidV0)))},
		{"9 UTF-8", "invalid UTF-8 in a string value", wrap(0x62, 0xc3, 0x28)},
		{"9 UTF-8", "UTF-16 surrogate encoded as UTF-8 (CESU-8)", wrap(0x63, 0xed, 0xa0, 0x80)},
		{"9 UTF-8", "overlong UTF-8 encoding of '/'", wrap(0x62, 0xc0, 0xaf)},
		{"9 UTF-8", "invalid UTF-8 in a map key", cat(0xa1, 0x61, 0xff, 0x00)},
		{"9 indefinite lengths", "indefinite-length text", wrap(0x7f, text("x"), 0xff)},
		{"9 indefinite lengths", "indefinite-length bytes", wrap(0x5f, 0x41, 0x00, 0xff)},
		{"9 indefinite lengths", "indefinite-length array", wrap(0x9f, 0x00, 0xff)},
		{"9 indefinite lengths", "indefinite-length map", cat(0xbf, text("a"), 0x00, 0xff)},
		{"9 int64 range", "unsigned 2^63", wrap(u64(0, 1<<63))},
		{"9 int64 range", "unsigned 2^64-1", wrap(u64(0, 1<<64-1))},
		{"9 int64 range", "negative -2^63-1", wrap(u64(1, 1<<63))},
		{"9 int64 range", "negative -2^64", wrap(u64(1, 1<<64-1))},
		{"9 trailing bytes", "one byte after the record", cat(0xa1, text("a"), 0x00, 0x00)},
		{"9 trailing bytes", "two records back to back", cat(0xa1, text("a"), 0x00, 0xa1, text("a"), 0x00)},
		{"9 truncated", "empty input", []byte{}},
		{"9 truncated", "map declares one entry, has none", []byte{0xa1}},
		{"9 truncated", "text shorter than its length", wrap(0x65, 'a', 'b')},
		{"9 truncated", "input ends inside a head's argument", wrap(0x1a, 0x00, 0x01)},
		{"9 truncated", "input ends inside a CID link", wrap(0xd8, 0x2a, 0x58, 0x25, testPayload[:10])},
		{"14 depth", "33 levels of nesting (limit 32)", wrap(nested(32))},
		{"14 depth", "10,000 levels of nesting", wrap(nested(10_000))},
		{"14 declared lengths", "array declares 2^32 elements, has none", wrap(0x9b, u64(0, 1<<32)[1:])},
		{"14 declared lengths", "map declares 2^31 entries, has none", cat(0xba, 0x80, 0x00, 0x00, 0x00)},
		{"14 declared lengths", "bytes declare 2^31 bytes, have none", wrap(0x5a, 0x80, 0x00, 0x00, 0x00)},
		{"14 element count", "array of 131,073 elements (limit 131,072)", wrap(head(4, 131_073), make([]byte, 131_073))},
		{"14 key length", "map key of 8,193 bytes (limit 8,192)", cat(0xa1, text(strings.Repeat("k", 8193)), 0x00)},
		{"14 record size", "record of 1 MiB + 8 bytes (limit 1 MiB)", wrap(head(2, 1<<20), make([]byte, 1<<20))},
		{"14 CID length", "CID of 124 bytes (limit 100)", wrap(link(cat(0x00, longCID)))},
		{"10 reserved keys", "map with a \"$link\" key (a link when read as JSON)", wrap(0xa1, text("$link"), text(testCID.String()))},
		{"10 reserved keys", "map with a \"$bytes\" key (bytes when read as JSON)", wrap(0xa1, text("$bytes"), text("AAEC"))},
		{"11 $type", "$type is an empty string", cat(0xa1, text("$type"), text(""))},
		{"11 $type", "$type is an integer", cat(0xa1, text("$type"), 0x01)},
		{"11 $type", "$type is null", cat(0xa1, text("$type"), 0xf6)},
		{"13 blobs", "blob with a negative size", wrap(blobMap(0x20))},
		{"13 blobs", "blob with an extra key", wrap(0xa5, text("ref"), link(testPayload), text("size"), 0x01, text("$type"), text("blob"), text("extra"), 0x00, text("mimeType"), text("image/png"))},
		{"13 blobs", "blob whose ref is a string", wrap(0xa4, text("ref"), text(testCID.String()), text("size"), 0x01, text("$type"), text("blob"), text("mimeType"), text("image/png"))},
		{"13 blobs", "blob with an empty mimeType", wrap(0xa4, text("ref"), link(testPayload), text("size"), 0x01, text("$type"), text("blob"), text("mimeType"), text(""))},
		{"13 blobs", "blob without size", wrap(0xa3, text("ref"), link(testPayload), text("$type"), text("blob"), text("mimeType"), text("image/png"))},
	}
}

// blobMap is {"$type":"blob","ref":<link>,"size":<size item>,"mimeType":"image/png"} in
// canonical key order, with size given as a raw CBOR item.
func blobMap(size ...any) []byte {
	return cat(0xa4, text("ref"), link(testPayload), text("size"), cat(size...), text("$type"), text("blob"), text("mimeType"), text("image/png"))
}

// controlCases are valid inputs next to the malformed ones, at each boundary. atcore must accept
// them, or the malformed table would prove nothing (a decoder that rejects everything passes it).
func controlCases() []malformedCase {
	return []malformedCase{
		{"9", "integer 23 and 24 in their minimal forms", cat(0xa2, text("a"), 0x17, text("b"), 0x18, 0x18)},
		{"9", "keys sorted length-first (b, aa)", cat(0xa2, text("b"), 0x00, text("aa"), 0x00)},
		{"9", "CID link", wrap(link(testPayload))},
		{"9", "-2^63 and 2^63-1", cat(0xa2, text("a"), 0x3b, u64be(1<<63-1), text("b"), 0x1b, u64be(1<<63-1))},
		{"9", "false, true, null", wrap(0x83, 0xf4, 0xf5, 0xf6)},
		{"14", "32 levels of nesting", wrap(nested(31))},
		{"14", "array of 131,072 elements", wrap(head(4, 131_072), make([]byte, 131_072))},
		{"14", "map key of 8,192 bytes", cat(0xa1, text(strings.Repeat("k", 8192)), 0x00)},
		{"13", "blob of size 0", wrap(blobMap(0x00))},
	}
}

func u64be(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// atcoreChecksRule reports whether the atcore decoder named decoder is documented to enforce
// the rule of c. ScanCBOR checks the encoding (rules 9, 12, 14) but not the data-model rules on
// the reserved keys, "$type" and blobs (10, 11, 13), which need decoded values; UnmarshalCBOR
// and UnmarshalCBORStruct check them all (the latter also on a blob map decoded into a
// map[string]any).
func atcoreChecksRule(decoder string, c malformedCase) bool {
	if decoder == "atcore-scan" {
		return !strings.HasPrefix(c.rule, "10 ") && !strings.HasPrefix(c.rule, "11 ") && !strings.HasPrefix(c.rule, "13 ")
	}
	return true
}

// atcoreDecoders are the atcore columns of cborDecoders.
func atcoreDecoders() []decoder {
	var out []decoder
	for _, d := range cborDecoders {
		if strings.HasPrefix(d.name, "atcore") {
			out = append(out, d)
		}
	}
	return out
}

func TestMalformedCBORRejectedByAtcore(t *testing.T) {
	for _, c := range malformedCases() {
		for _, d := range atcoreDecoders() {
			if !atcoreChecksRule(d.name, c) {
				continue
			}
			out, err := run(d.decode, c.input)
			if out != rejected {
				t.Errorf("rule %s, %s: %s: %s (%v)", c.rule, c.name, d.name, out, err)
			} else {
				t.Logf("rule %s, %s: %s: %v", c.rule, c.name, d.name, err)
			}
		}
	}
	for _, c := range controlCases() {
		for _, d := range atcoreDecoders() {
			if out, err := run(d.decode, c.input); out != accepted {
				t.Errorf("control (rule %s) %s: %s: %s (%v)", c.rule, c.name, d.name, out, err)
			}
		}
	}
}
