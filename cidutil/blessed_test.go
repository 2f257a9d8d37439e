package cidutil

import (
	"errors"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/internal/testvec"
)

func TestIsBlessed(t *testing.T) {
	v0, err := cid.Decode("QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR") // go-cid accepts CIDv0
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rule string
		c    cid.Cid
		want bool
	}{
		{"rule 12: dag-cbor sha2-256 is blessed", SumCBOR([]byte("x")), true},
		{"rule 12: raw sha2-256 is blessed", SumRaw([]byte("x")), true},
		{"rule 12: dag-pb codec is not", mustBinary("01 70 12 20" + digest32), false},
		{"rule 12: blake2b-256 is not", mustBinary("01 71 a0e402 20" + digest32), false},
		{"rule 12: truncated sha2-256 is not", mustBinary("01 71 12 10" + digest32[:32]), false},
		{"rule 12: identity hash is not", mustBinary("01 55 00 00"), false},
		{"rule 12: CIDv0 is never valid", v0, false},
		{"cid.Undef is not", cid.Undef, false},
	}
	for _, tt := range tests {
		if got := IsBlessed(tt.c); got != tt.want {
			t.Errorf("%s: IsBlessed(%x) = %v", tt.rule, tt.c.Bytes(), got)
		}
	}
	c := SumCBOR([]byte("x"))
	if n := testing.AllocsPerRun(100, func() { _ = IsBlessed(c) }); n != 0 {
		t.Errorf("IsBlessed allocates %v times, want 0", n)
	}
}

func mustBinary(h string) cid.Cid {
	c, err := ParseBinary(mustHex(h))
	if err != nil {
		panic(err)
	}
	return c
}

func TestParseBlessed(t *testing.T) {
	const blessed = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
	tests := []struct {
		rule    string
		in      string
		ok      bool
		invalid bool   // also wraps ErrInvalid (not a CID at all)
		wantErr string // substring naming the failed part
	}{
		{"rule 12: dag-cbor, sha2-256, base32", blessed, true, false, ""},
		{"rule 12: raw blob CID", "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity", true, false, ""},
		{"rule 12: multibase must be b, not B", strings.ToUpper(blessed), false, false, "multibase 'B'"},
		{"rule 12: multibase must be b, not z", "zdj7WhuEjrB52m1BisYCtmjH1hSKa7yZ3jEZ9JcXaFRD51wVz", false, false, "multibase 'z'"},
		{"rule 12: multibase must be b, not f", "f017112206506" + strings.Repeat("00", 30), false, false, "multibase 'f'"},
		{"rule 12: codec dag-pb not blessed", "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi", false, false, "codec 0x70"},
		{"rule 12: hash must be sha2-256", mustBinary("01 71 a0e402 20" + digest32).String(), false, false, "hash function 0xb220"},
		{"rule 12: digest must be 32 bytes", mustBinary("01 71 12 10" + digest32[:32]).String(), false, false, "digest of 16 bytes"},
		{"rule 12: CIDv0 never valid", "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR", false, true, "CIDv0"},
		{"rule 12: canonical: stray trailing bits", blessed[:len(blessed)-1] + "b", false, true, "non-zero bits"},
		{"rule 12: canonical: no padding", blessed + "======", false, true, "not in the base32 alphabet"},
		{"rule 12: canonical: no mixed case", "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2A", false, true, "not in the base32 alphabet"},
		{"whitespace", blessed + "\n", false, true, "not in the base32 alphabet"},
		{"empty", "", false, true, "empty"},
		{"cid.Undef's string \"b\"", cid.Undef.String(), false, true, "empty input"},
	}
	for _, tt := range tests {
		c, err := ParseBlessed(tt.in)
		if tt.ok {
			if err != nil || !IsBlessed(c) || c.String() != tt.in {
				t.Errorf("%s: ParseBlessed(%q) = %v, %v", tt.rule, tt.in, c, err)
			}
			continue
		}
		if err == nil || c.Defined() {
			t.Errorf("%s: ParseBlessed(%q) = %v, %v; want error", tt.rule, tt.in, c, err)
			continue
		}
		if !errors.Is(err, ErrNotBlessed) || errors.Is(err, ErrInvalid) != tt.invalid ||
			!strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %q (ErrInvalid %v), want ErrNotBlessed, ErrInvalid %v, containing %q",
				tt.rule, err, errors.Is(err, ErrInvalid), tt.invalid, tt.wantErr)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseBlessed(blessed) }); n != 1 {
		t.Errorf("ParseBlessed allocates %v times, want 1 (the CID string)", n)
	}
}

func TestCheckSyntaxVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "cid_syntax_valid.txt") {
		if err := CheckSyntax(s); err != nil {
			t.Errorf("interop valid %q: %v", s, err)
		}
	}
	for _, s := range testvec.Syntax(t, "cid_syntax_invalid.txt") {
		err := CheckSyntax(s)
		if err == nil {
			t.Errorf("interop invalid %q: accepted", s)
		} else if !errors.Is(err, ErrInvalid) {
			t.Errorf("interop invalid %q: %v does not wrap ErrInvalid", s, err)
		}
	}
}

func TestCheckSyntax(t *testing.T) {
	tests := []struct {
		rule    string
		in      string
		wantErr string // "" for valid
	}{
		{"blessed CIDs pass", "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a", ""},
		{"any multibase: base32 upper", "BAFYREIDFAYVFUWQA7QLNOPDJIQRXZS6BLMOEU4RUJCJTNCI5BELUDIRZ2A", ""},
		{"any multibase: base64pad (M)", "MAXESIGUGKlpaAPwW1zxpRCN8y8FbHEpyNEiTNokdCRdBojnQ", ""},
		{"length: 7 is too short", "bafyrei", "length 7"},
		{"length: 8 is enough", "bafyreid", ""},
		{"length: 256 is the maximum", "b" + strings.Repeat("a", 255), ""},
		{"length: 257 is too long", "b" + strings.Repeat("a", 256), "length 257"},
		{"CIDv0 Qm… rejected", "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR", "CIDv0"},
		{"CIDv0: any Q… (multibase reserves Q)", "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG", "CIDv0"},
		{"base58 multihash 1… (multibase reserves 1)", "1AaNmMAwRWVkFxJ8PYHBQrBz3tXUpSNg", "CIDv0"},
		{"junk: URL characters", "https://example.com", "character ':'"},
		{"junk: not a multibase prefix", "xafyreidfayvfuwqa7", "unknown multibase prefix 'x'"},
		{"junk: a non-ASCII first character is named whole", "ébafyreidfa", "character '\\u00e9'"},
		{"junk: a lone byte is named as a byte", "\xffbafyreidfa", "character '\\xff'"},
		{"junk: NUL (identity multibase is binary, not syntax)", "\x00afyreidfayvfuwq", "character '\\x00'"},
		{"whitespace inside", "bafybe igdyrzt5sfp7", "character ' '"},
		{"base64url characters are outside the syntax", "uAXESIGUGKlpaAPwW1zxpRCN8y8FbHEpyNEiTNokdCRdBojn_", "character '_'"},
	}
	for _, tt := range tests {
		err := CheckSyntax(tt.in)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: CheckSyntax(%q) = %v", tt.rule, tt.in, err)
		case tt.wantErr != "" && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: CheckSyntax(%q) = %v, want ErrInvalid containing %q", tt.rule, tt.in, err, tt.wantErr)
		}
	}
	s := "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
	if n := testing.AllocsPerRun(100, func() { _ = CheckSyntax(s) }); n != 0 {
		t.Errorf("CheckSyntax allocates %v times on valid input, want 0", n)
	}
}

// Every string ParseString accepts in a text multibase passes the loose check: it is looser.
func TestCheckSyntaxLooserThanParse(t *testing.T) {
	for _, s := range append(testvec.Syntax(t, "cid_syntax_valid.txt"),
		"bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a",
		"BAFYREIDFAYVFUWQA7QLNOPDJIQRXZS6BLMOEU4RUJCJTNCI5BELUDIRZ2A") {
		if _, err := ParseString(s); err == nil {
			if err := CheckSyntax(s); err != nil {
				t.Errorf("ParseString accepts %q but CheckSyntax says %v", s, err)
			}
		}
	}
}
