package cidutil

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"unsafe"

	cid "github.com/ipfs/go-cid"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// digest32 is an arbitrary 32-byte digest for the tables.
var digest32 = strings.Repeat("ab", 32)

// encodeIn writes c in another multibase through go-cid (base is a multibase prefix character).
func encodeIn(c cid.Cid, base rune) string {
	var s string
	var err error
	switch base { // the untyped constants convert to go-multibase's Encoding
	case 'k':
		s, err = c.StringOfBase('k')
	case 'm':
		s, err = c.StringOfBase('m')
	default:
		panic("base not in encodeIn")
	}
	if err != nil {
		panic(err)
	}
	return s
}

func TestParseBinary(t *testing.T) {
	tests := []struct {
		rule    string
		in      string // hex, spaces ignored
		ok      bool
		wantErr string // substring of the error
		offset  int
	}{
		{"rule 12: blessed dag-cbor CID", "01 71 12 20" + digest32, true, "", 0},
		{"rule 12: blessed raw CID", "01 55 12 20" + digest32, true, "", 0},
		{"rule 12: any codec kept (dag-pb 0x70)", "01 70 12 20" + digest32, true, "", 0},
		{"rule 12: any hash kept (blake2b-256 0xb220, 2-byte varint)", "01 71 a0e402 20" + digest32, true, "", 0},
		{"rule 12: truncated sha2-256 digest is a valid multihash", "01 71 12 10" + digest32[:32], true, "", 0},
		{"rule 12: identity hash, empty digest", "01 55 00 00", true, "", 0},
		{"rule 12: codec needing 2 varint bytes", "01 8001 12 20" + digest32, true, "", 0},
		{"rule 12: CIDv0 bare multihash rejected", "12 20" + digest32, false, "CIDv0", 0},
		{"version must be 1 (0)", "00 71 12 20" + digest32, false, "version 0", 0},
		{"version must be 1 (2)", "02 71 12 20" + digest32, false, "version 2", 0},
		{"version must be 1 (18, not followed by 0x20)", "12 21" + digest32, false, "version 18", 0},
		{"empty input", "", false, "empty", 0},
		{"varints minimal: version 81 00", "81 00 71 12 20" + digest32, false, "version: varint not in its shortest form", 0},
		{"varints minimal: codec f1 00", "01 f1 00 12 20" + digest32, false, "codec: varint not in its shortest form", 1},
		{"varints minimal: hash code 92 00", "01 71 92 00 20" + digest32, false, "hash function code: varint not in its shortest form", 2},
		{"varints minimal: digest length a0 00", "01 71 12 a0 00" + digest32, false, "digest length: varint not in its shortest form", 3},
		{"varints at most 9 bytes", "01 ffffffffffffffffff01 12 20" + digest32, false, "longer than 9 bytes", 1},
		{"truncated: version only", "01", false, "codec: truncated varint", 1},
		{"truncated: in codec varint", "01 80", false, "codec: truncated varint", 2},
		{"truncated: no digest length", "01 71 12", false, "digest length: truncated", 3},
		{"digest shorter than declared", "01 71 12 20" + digest32[:62], false, "digest length 32 declared, only 31 bytes follow", 3},
		{"huge declared length, no allocation", "01 71 12 ffffffffffffffff7f", false, "digest length 9223372036854775807 declared, only 0 bytes follow", 3},
		{"trailing bytes after digest", "01 71 12 20" + digest32 + "00", false, "1 byte after the digest", 36},
		{"tag 42 prefix 0x00 left in (caller's job)", "00 01 71 12 20" + digest32, false, "version 0", 0},
	}
	// ParseKeyString reads the same bytes held in a string, with the same rules and errors.
	parsers := []struct {
		name  string
		parse func([]byte) (cid.Cid, error)
	}{
		{"ParseBinary", ParseBinary},
		{"ParseKeyString", func(b []byte) (cid.Cid, error) { return ParseKeyString(string(b)) }},
	}
	for _, tt := range tests {
		in := mustHex(tt.in)
		for _, p := range parsers {
			c, err := p.parse(in)
			if tt.ok {
				if err != nil {
					t.Errorf("%s: %s(%x) error %v", tt.rule, p.name, in, err)
					continue
				}
				if !bytes.Equal(c.Bytes(), in) {
					t.Errorf("%s: %s: round trip %x, want %x", tt.rule, p.name, c.Bytes(), in)
				}
				if c.Version() != 1 {
					t.Errorf("%s: version %d", tt.rule, c.Version())
				}
				continue
			}
			if err == nil {
				t.Errorf("%s: %s(%x) = %v, want error", tt.rule, p.name, in, c)
				continue
			}
			if c.Defined() {
				t.Errorf("%s: defined CID %v returned with error", tt.rule, c)
			}
			var e *Error
			if !errors.Is(err, ErrInvalid) || !errors.As(err, &e) {
				t.Errorf("%s: error %v does not wrap ErrInvalid in *Error", tt.rule, err)
				continue
			}
			if !strings.Contains(err.Error(), tt.wantErr) || e.Offset != tt.offset {
				t.Errorf("%s: error %q (offset %d), want %q at %d", tt.rule, err, e.Offset, tt.wantErr, tt.offset)
			}
		}
	}
}

// The tag 42 payloads inside the interop fixtures parse, and print as the $link strings of the
// fixture's JSON.
func TestParseBinaryFixtureLinks(t *testing.T) {
	raw, err := os.ReadFile("../testdata/interop/data-model/data-model-fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range readFixtures(t) {
		data, _ := base64.RawStdEncoding.DecodeString(f.CBORBase64)
		// tag 42, byte string of 37 bytes, 0x00 prefix: d8 2a 58 25 00
		for {
			i := bytes.Index(data, []byte{0xd8, 0x2a, 0x58, 0x25, 0x00})
			if i < 0 {
				break
			}
			payload := data[i+5 : i+5+36]
			data = data[i+5+36:]
			c, err := ParseBinary(payload)
			if err != nil {
				t.Errorf("fixture link %x: %v", payload, err)
				continue
			}
			if !bytes.Contains(raw, []byte(`"$link": "`+c.String()+`"`)) {
				t.Errorf("fixture link parsed as %s, not one of the fixture's $link values", c)
			}
			found++
		}
	}
	if want := bytes.Count(raw, []byte(`"$link"`)); found != want {
		t.Errorf("found %d tag-42 links in the fixtures' CBOR, want %d as in their JSON", found, want)
	}
}

func TestParseString(t *testing.T) {
	blessed := "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
	blessedBytes, _ := ParseString(blessed)
	tests := []struct {
		rule    string
		in      string
		ok      bool
		wantErr string
	}{
		{"rule 12: blessed base32", blessed, true, ""},
		{"rule 12: blob raw base32", "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity", true, ""},
		{"any multibase: base58btc", "zdj7WWeQ43G6JJvLWQWZpyHuAMq6uYWRjkBXFad11vE2LHhQ7", true, ""},
		{"any multibase: base16", "f017012202c5f688262e0ece8569aa6f94d60aad55ca8d9d83734e4a7430d0cff6588ec2b", true, ""},
		{"any multibase: base32 upper", strings.ToUpper(blessed), true, ""},
		{"any multibase: base36", encodeIn(blessedBytes, 'k'), true, ""},
		{"any multibase: base64", encodeIn(blessedBytes, 'm'), true, ""},
		{"any CIDv1 kept: dag-pb", "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi", true, ""},
		{"CIDv0 Qm… rejected", "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR", false, "CIDv0"},
		{"CIDv0 bytes in base32 rejected", "bciqmhrdthtek77ignopj75ip7rv42lwilmfxaacls4ewnhbr32kdsgq", false, "CIDv0"},
		{"CIDv0 bytes in base16 rejected", "f1220c3c4733ec8affd06cf9e9ff50ffc6bcd2ec85a6170004bb709669c31de94391a", false, "CIDv0"},
		{"empty string", "", false, "empty"},
		{"prefix only", "b", false, "empty input"},
		{"unknown multibase", "#abc", false, "unknown multibase prefix"},
		{"unknown multibase, not ASCII", "ébafy", false, "unknown multibase prefix '\\u00e9'"},
		{"base32: upper case under lower-case prefix", "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2A", false, "not in the base32 alphabet"},
		{"base32: padding not allowed", blessed + "=", false, "not in the base32 alphabet"},
		{"base32: non-zero trailing bits (canonical form)", "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2b", false, "non-zero bits"},
		{"base32: impossible length", blessed + "a", false, "impossible length"},
		{"base32: whitespace", " " + blessed, false, "unknown multibase"},
		{"base32: trailing whitespace", blessed + " ", false, "not in the base32 alphabet"},
		{"base32: truncated CID", blessed[:len(blessed)-8], false, "digest length 32 declared"},
		{"base16: non-canonical upper-case digits under f", "f017012202C5F688262E0ECE8569AA6F94D60AAD55CA8D9D83734E4A7430D0CFF6588EC2B", false, "'C' is not in the base16 alphabet"},
		{"base58: junk", "z0OIl", false, "not a CID in multibase 'z'"},
		{"rule 14: longer than any 100-byte CID", "z" + strings.Repeat("2", MaxStringLen), false, "longer than any CID"},
		{"a 120-byte CID (identity hash) decodes beyond the stack buffer", mustBinary("01 55 00 74" + strings.Repeat("5a", 116)).String(), true, ""},
		{"a 120-byte non-CID in base32", "b" + strings.Repeat("a", 192), false, "version 0"},
		{"base16: trailing bytes", "f017012202c5f688262e0ece8569aa6f94d60aad55ca8d9d83734e4a7430d0cff6588ec2b00", false, "trailing"},
	}
	for _, tt := range tests {
		c, err := ParseString(tt.in)
		if tt.ok {
			if err != nil {
				t.Errorf("%s: ParseString(%q) error %v", tt.rule, tt.in, err)
				continue
			}
			if c.Version() != 1 {
				t.Errorf("%s: version %d", tt.rule, c.Version())
			}
			if _, err := ParseBinary(c.Bytes()); err != nil {
				t.Errorf("%s: bytes %x fail ParseBinary: %v", tt.rule, c.Bytes(), err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: ParseString(%q) = %v, want error", tt.rule, tt.in, c)
			continue
		}
		if c.Defined() {
			t.Errorf("%s: defined CID returned with error", tt.rule)
		}
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %q, want ErrInvalid containing %q", tt.rule, err, tt.wantErr)
		}
	}
}

// ParseString and ParseBinary agree, and ParseString of c.String() gives c back.
func TestParseStringRoundTrip(t *testing.T) {
	for _, in := range []string{"01 71 12 20" + digest32, "01 55 00 00", "01 8001 a0e402 20" + digest32} {
		c, err := ParseBinary(mustHex(in))
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseString(c.String())
		if err != nil || back != c {
			t.Errorf("ParseString(%s) = %v, %v; want %v", c.String(), back, err, c)
		}
	}
}

func TestParseAllocs(t *testing.T) {
	bin := mustHex("01 71 12 20" + digest32)
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseBinary(bin) }); n != 1 {
		t.Errorf("ParseBinary allocates %v times, want 1 (the CID string)", n)
	}
	s := "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseString(s) }); n != 1 {
		t.Errorf("ParseString(b…) allocates %v times, want 1 (the CID string)", n)
	}
	buf := make([]byte, 0, MaxLen)
	if n := testing.AllocsPerRun(100, func() { _, _ = AppendBinaryString(buf[:0], s) }); n != 0 {
		t.Errorf("AppendBinaryString(b…) with room allocates %v times, want 0", n)
	}
	key := string(bin)
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseKeyString(key) }); n != 0 {
		t.Errorf("ParseKeyString allocates %v times, want 0 (the CID shares the string)", n)
	}
	if c, _ := ParseKeyString(key); unsafe.StringData(c.KeyString()) != unsafe.StringData(key) {
		t.Error("ParseKeyString copied its input")
	}
}

// Declared lengths cost nothing: inputs that declare huge digests or varints allocate only the
// error, never in proportion to what they declare.
func TestParseDeclaredLengthsCostNothing(t *testing.T) {
	for _, h := range []string{
		"01 71 12 ffffffffffffffff7f", // digest length 2^63-1
		"01 ffffffffffffffff7f 12 20", // codec 2^63-1, then a short digest
		"01 71 ffffffffffffffff7f ffffffffffffffff7f",
	} {
		in := mustHex(h)
		if n := bytesAllocated(100, func() { _, _ = ParseBinary(in) }); n > 1024 {
			t.Errorf("ParseBinary(%x) allocated %d bytes", in, n)
		}
		s := mustBinaryString(in)
		if n := bytesAllocated(100, func() { _, _ = ParseString(s) }); n > 1024 {
			t.Errorf("ParseString(%q) allocated %d bytes", s, n)
		}
	}
}

// mustBinaryString is the base32 multibase string of arbitrary bytes (not necessarily a CID).
func mustBinaryString(b []byte) string {
	return "b" + strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString(b), "="))
}

// A character outside the alphabet is reported at its own offset wherever it falls: the base32
// decoder reads whole 8-character blocks at a time and must not lose the position.
func TestParseStringBadCharacterOffset(t *testing.T) {
	const good = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
	for i := 1; i < len(good); i++ {
		for _, bad := range []byte{'1', 'A', '=', 0x80} {
			s := good[:i] + string(bad) + good[i+1:]
			_, err := ParseString(s)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseString(%q) = %v, want an *Error", s, err)
			}
			if e.Offset != i || !strings.Contains(e.Reason, "not in the base32 alphabet") {
				t.Errorf("ParseString with %q at %d: offset %d, %q", bad, i, e.Offset, e.Reason)
			}
		}
	}
}

// TestAppendBlessedAgrees checks appendBlessed, the straight-line path of AppendBinaryString and
// ParseString, against the general path (appendBits) on blessed strings and on every one-byte
// change of them: where the fast path accepts, the general one accepts the same bytes, and every
// string of the fast path's shape that the general path accepts, the fast path accepts too.
func TestAppendBlessedAgrees(t *testing.T) {
	var inputs []string
	for i, codec := range []byte{CodecDagCBOR, CodecRaw, 0x7f, 0x80} {
		for _, hash := range []byte{HashSHA256, 0x13, 0x7f, 0x80} {
			bin := append([]byte{1, codec, hash, SHA256Len}, bytes.Repeat([]byte{byte(i*16 + int(hash))}, 32)...)
			s := "b" + strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString(bin), "="))
			inputs = append(inputs, s, s[:len(s)-1], s+"a", "B"+strings.ToUpper(s[1:]))
			for pos := range s {
				for _, c := range []byte("aqz27=A\x00\xff") {
					m := []byte(s)
					m[pos] = c
					inputs = append(inputs, string(m))
				}
			}
		}
	}
	fast := 0
	for _, s := range inputs {
		got, ok := appendBlessed([]byte("x"), s)
		var want []byte
		var err *Error
		if err = checkStringShape(s); err == nil && s[0] == 'b' {
			want, _, err = appendBits([]byte("x"), s, bitAlphabets['b'])
		}
		shaped := len(s) == blessedStringLen && s[0] == 'b' && err == nil && len(want) == 1+blessedLen && want[1] == 1 &&
			want[2] < 0x80 && want[3] < 0x80 && want[4] == SHA256Len
		switch {
		case ok && (err != nil || !bytes.Equal(got, want)):
			t.Fatalf("appendBlessed(%q) = %x, the general path %x, %v", s, got, want, err)
		case !ok && shaped:
			t.Fatalf("appendBlessed(%q) refused what the general path reads as %x", s, want)
		case !ok && len(got) != 1:
			t.Fatalf("appendBlessed(%q) refused but changed dst to %q", s, got)
		}
		if ok {
			fast++
		}
	}
	if fast < 16 {
		t.Fatalf("appendBlessed accepted %d of %d strings, want the 16 unchanged ones at least", fast, len(inputs))
	}
}

// ParseString decodes a bit-packing multibase "with a single allocation, the CID's", and
// AppendBinaryString allocates nothing "when dst has room for the CID": both held only when the
// decoder's estimate of the bytes, which counted padding and the scratch room of base32's 8-byte
// stores, fitted too. A 100-byte CID (MaxLen) in base32 or padded base64, and a blessed CID in
// base32upper, base32pad or base32hex into a buffer with room for its 36 bytes, each took one
// allocation more than documented.
func TestDecodeAllocsAsDocumented(t *testing.T) {
	blessed := mustHex("01 71 12 20" + digest32)
	largest := append(mustHex("01 71 12 60"), bytes.Repeat([]byte{0xab}, MaxLen-4)...)
	for _, bin := range [][]byte{blessed, largest} {
		c, err := ParseBinary(bin)
		if err != nil {
			t.Fatal(err)
		}
		for prefix, s := range encodeAll(t, c.StringOfBase, "0fFbBcCvVtTmMuU") {
			a := bitAlphabets[prefix]
			if got, err := ParseString(s); err != nil || got != c {
				t.Fatalf("ParseString(%s) = %v, %v; want %v", s, got, err, c)
			}
			if n := testing.AllocsPerRun(20, func() { _, _ = ParseString(s) }); n != 1 {
				t.Errorf("ParseString of a %d-byte CID in %s allocates %v times, want 1 (the CID string)", len(bin), a.name, n)
			}
			buf := make([]byte, 0, len(bin)) // room for the CID, exactly
			if got, err := AppendBinaryString(buf, s); err != nil || !bytes.Equal(got, bin) {
				t.Fatalf("AppendBinaryString(%s) = %x, %v; want %x", s, got, err, bin)
			}
			if n := testing.AllocsPerRun(20, func() { _, _ = AppendBinaryString(buf[:0], s) }); n != 0 {
				t.Errorf("AppendBinaryString of a %d-byte CID in %s into a buffer with room for it allocates %v times, want 0", len(bin), a.name, n)
			}
		}
	}
}
