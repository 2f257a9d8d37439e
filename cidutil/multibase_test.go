package cidutil

import (
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"
)

// multibasePrefixes are the multibase prefixes go-multibase can write (besides base256emoji).
const multibasePrefixes = "\x00" + "0" + "fF" + "bBcCvVtT" + "kK" + "zZ" + "mMuU"

// encodeAll writes c in every multibase of prefixes through go-cid. enc is c.StringOfBase; the
// type parameter stands for go-multibase's Encoding, which this package does not import.
func encodeAll[E ~int](t *testing.T, enc func(E) (string, error), prefixes string) map[rune]string {
	t.Helper()
	out := make(map[rune]string)
	for _, p := range prefixes {
		s, err := enc(E(p))
		if err != nil {
			t.Fatalf("go-cid cannot write multibase %q: %v", p, err)
		}
		out[p] = s
	}
	return out
}

// Every multibase string go-cid writes for a CIDv1 parses back to the same CID, for CIDs whose
// lengths exercise every padding remainder.
func TestParseStringEveryMultibase(t *testing.T) {
	var cids []cid.Cid
	for _, h := range []string{
		"01 71 12 20" + digest32, "01 55 12 20" + digest32, "01 70 a0e402 20" + digest32,
		"01 55 00 00", "01 55 00 01 ff", "01 55 00 02 ffff", "01 55 00 03 ffffff", "01 55 00 04 ffffffff",
		"01 55 00 74" + strings.Repeat("5a", 116),
	} {
		cids = append(cids, mustBinary(h))
	}
	for _, c := range cids {
		for p, s := range encodeAll(t, c.StringOfBase, multibasePrefixes) {
			got, err := ParseString(s)
			if len(s) > MaxStringLen {
				// Rule 14: a CID this long in this base is over the limit.
				if err == nil || !strings.Contains(err.Error(), "longer than any CID") {
					t.Errorf("multibase %q: ParseString of %d characters = %v, want the length error", p, len(s), err)
				}
				continue
			}
			if err != nil || got != c {
				t.Errorf("multibase %q: ParseString(%q) = %v, %v; want %x", p, s, got, err, c.Bytes())
			}
		}
	}
}

// Strictness of the bit-packing decoders, per base: each row is a string go-cid would decode (it
// is lenient there) or a malformed one, and must be rejected.
func TestParseStringBitBasesStrict(t *testing.T) {
	c := mustBinary("01 55 00 00") // 4 bytes: the padded bases pad, the others have leftover bits
	enc := encodeAll(t, c.StringOfBase, "fbcmMuU0vt")
	tests := []struct {
		rule    string
		in      string
		wantErr string
	}{
		{"base16: odd length", enc['f'] + "0", "impossible length"},
		{"base2: not whole bytes", enc['0'] + "0", "impossible length"},
		{"base32pad: padding missing", strings.TrimRight(enc['c'], "="), "not whole 8-character blocks"},
		{"base32pad: a whole block of padding", enc['c'] + "========", "padding characters"},
		{"base32pad: padding inside", "c" + strings.Repeat("a", 7) + "=" + strings.Repeat("a", 8), "'=' is not in the base32pad alphabet"},
		{"base64pad: padding missing", strings.TrimRight(enc['M'], "="), "not whole 4-character blocks"},
		{"base64pad: too much padding", strings.TrimRight(enc['M'], "=") + "===", "not whole 4-character blocks"},
		{"base64: padding not allowed", enc['m'] + "=", "'=' is not in the base64 alphabet"},
		{"base64: url alphabet under m", "m" + strings.Repeat("_", 8), "'_' is not in the base64 alphabet"},
		{"base64url: std alphabet under u", "u" + strings.Repeat("+", 8), "'+' is not in the base64url alphabet"},
		{"base64: newline (Go's decoder would skip it)", enc['m'][:4] + "\n" + enc['m'][4:], "'\\n' is not in the base64 alphabet"},
		{"base64: non-zero trailing bits", enc['m'][:len(enc['m'])-1] + "/", "non-zero bits"},
		{"base32hex: lower alphabet only under v", "v" + strings.ToUpper(enc['v'][1:]), "is not in the base32hex alphabet"},
		{"base32z: not decodable by go-multibase either", "hybndrfg8", "unknown multibase prefix 'h'"},
		{"base10: not decodable by go-multibase either", "9123456789", "unknown multibase prefix '9'"},
		{"base256emoji: not supported", "🚀" + strings.Repeat("😀", 8), "unknown multibase prefix '\\U0001f680'"},
	}
	for _, tt := range tests {
		got, err := ParseString(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: ParseString(%q) = %v, %v; want error containing %q", tt.rule, tt.in, got, err, tt.wantErr)
		}
	}
}
