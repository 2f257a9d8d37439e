package cidutil

import (
	"bytes"
	"encoding/base64"
	"errors"
	"testing"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/internal/testvec"
)

// seedStrings are the string seeds: the interop vectors, valid and invalid, and a few variants.
func seedStrings(f *testing.F) []string {
	seeds := append(testvec.Syntax(f, "cid_syntax_valid.txt"), testvec.Syntax(f, "cid_syntax_invalid.txt")...)
	for _, fx := range readFixtures(f) {
		seeds = append(seeds, fx.CID)
	}
	return append(seeds, "", "b", "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2b",
		"BAFYREIDFAYVFUWQA7QLNOPDJIQRXZS6BLMOEU4RUJCJTNCI5BELUDIRZ2A",
		"cafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a======",
		"uAXESIGUGKlpaAPwW1zxpRCN8y8FbHEpyNEiTNokdCRdBojnQ", "\x00\x01\x55\x00\x00",
		"MAVUAAA==", "cafkqaaa=", "CAFKQAAA=", "t05ag000=", "v05ag000", "UAVUAAA==", "0000000010101010100000000000000000",
		"k2jvsl7wph2xec9tldt5guqsv8bqse480mslfjw2lyfdlxfws95udh3k", "F0155000401020304")
}

func FuzzParseBinary(f *testing.F) {
	for _, h := range []string{"01 71 12 20" + digest32, "01 55 12 20" + digest32, "12 20" + digest32,
		"01 71 a0e402 20" + digest32, "01 71 12 ffffffffffffffff7f", "01 f1 00 12 20", "01 55 00 00", ""} {
		f.Add(mustHex(h))
	}
	for _, fx := range readFixtures(f) {
		data, _ := base64.RawStdEncoding.DecodeString(fx.CBORBase64)
		f.Add(data)
		if i := bytes.Index(data, []byte{0xd8, 0x2a, 0x58, 0x25, 0x00}); i >= 0 {
			f.Add(data[i+5 : i+5+36])
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseBinary(b)
		// ParseKeyString reads the same bytes held in a string with the same verdict and offset.
		kc, kerr := ParseKeyString(string(b))
		var e, ke *Error
		if kc != c || (err == nil) != (kerr == nil) ||
			err != nil && (!errors.As(err, &e) || !errors.As(kerr, &ke) || e.Offset != ke.Offset || e.Reason != ke.Reason || e.Error() != ke.Error()) {
			t.Fatalf("ParseKeyString(%x) = %v, %v; ParseBinary gave %v, %v", b, kc, kerr, c, err)
		}
		if err != nil {
			if c.Defined() || !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseBinary(%x) = %v, %v", b, c, err)
			}
			return
		}
		// Accepted bytes are kept byte for byte and are a CIDv1 go-cid agrees with.
		if !bytes.Equal(c.Bytes(), b) || c.Version() != 1 {
			t.Fatalf("ParseBinary(%x) = %x (v%d)", b, c.Bytes(), c.Version())
		}
		if g, err := cid.Cast(b); err != nil || g != c {
			t.Fatalf("cid.Cast(%x) = %v, %v; ParseBinary gave %v", b, g, err, c)
		}
		// The string form parses back to the same CID.
		if back, err := ParseString(c.String()); err != nil || back != c {
			t.Fatalf("ParseString(%s) = %v, %v", c.String(), back, err)
		}
		if s := AppendString(nil, c); string(s) != c.String() {
			t.Fatalf("AppendString(%x) = %q, want %q", b, s, c.String())
		}
		if IsBlessed(c) != (len(b) == 36 && (b[1] == 0x71 || b[1] == 0x55) && b[2] == 0x12) {
			t.Fatalf("IsBlessed(%x) = %v", b, IsBlessed(c))
		}
	})
}

func FuzzParseString(f *testing.F) {
	for _, s := range seedStrings(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseString(s)
		// AppendBinaryString reads s exactly as ParseString does, after what dst holds.
		prefix := []byte("prefix")
		b, berr := AppendBinaryString(prefix, s)
		if (berr == nil) != (err == nil) || berr != nil && berr.Error() != err.Error() ||
			string(b[:len(prefix)]) != "prefix" || err == nil && string(b[len(prefix):]) != c.KeyString() {
			t.Fatalf("AppendBinaryString(%q) = %x, %v; ParseString gave %x, %v", s, b, berr, c.KeyString(), err)
		}
		if err != nil {
			if c.Defined() || !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseString(%q) = %v, %v", s, c, err)
			}
			return
		}
		if _, err := ParseBinary(c.Bytes()); err != nil {
			t.Fatalf("ParseString(%q) accepted bytes %x that ParseBinary rejects: %v", s, c.Bytes(), err)
		}
		// Canonical: the string is the CID's encoding in its own multibase, so no other string
		// in that base names it.
		if canon, err := stringOfBase(c.StringOfBase, rune(s[0])); err != nil || canon != s {
			t.Fatalf("ParseString(%q) accepted a non-canonical string of %s (%v)", s, canon, err)
		}
		if g, err := cid.Decode(s); err != nil || g != c {
			t.Fatalf("cid.Decode(%q) = %v, %v; ParseString gave %v", s, g, err, c)
		}
	})
}

func FuzzParseBlessed(f *testing.F) {
	for _, s := range seedStrings(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseBlessed(s)
		// Oracle: blessed means ParseString accepts it, in base "b", and the CID is blessed.
		pc, perr := ParseString(s)
		want := perr == nil && s[0] == 'b' && IsBlessed(pc)
		if (err == nil) != want {
			t.Fatalf("ParseBlessed(%q) error %v; ParseString %v, %v", s, err, pc, perr)
		}
		if err != nil {
			if c.Defined() || !errors.Is(err, ErrNotBlessed) {
				t.Fatalf("ParseBlessed(%q) = %v, %v", s, c, err)
			}
			return
		}
		if c != pc || c.String() != s || CheckSyntax(s) != nil {
			t.Fatalf("ParseBlessed(%q) = %v (%s)", s, c, c.String())
		}
	})
}

func FuzzCheckSyntax(f *testing.F) {
	for _, s := range seedStrings(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckSyntax(s)
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("CheckSyntax(%q) = %v", s, err)
		}
		if _, perr := ParseBlessed(s); perr == nil && err != nil {
			t.Fatalf("blessed %q fails the loose check: %v", s, err)
		}
	})
}

// stringOfBase writes c in multibase p through go-cid; E stands for go-multibase's Encoding.
func stringOfBase[E ~int](enc func(E) (string, error), p rune) (string, error) { return enc(E(p)) }
