package datamodel

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

// The fast paths that do not call the rules of rules.go are held to them here: whatever they
// accept, the rules accept with the same value. (The JSON quick path is held to the careful one
// in json_paths_test.go.)

// rulesMutations returns data and n random mutations of it: bytes flipped, set to edge values,
// dropped or duplicated.
func rulesMutations(data []byte, n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	out := [][]byte{data}
	for range n {
		b := append([]byte(nil), data...)
		for range 1 + r.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := r.IntN(len(b))
			switch r.IntN(4) {
			case 0:
				b[i] ^= byte(1 << r.IntN(8))
			case 1:
				b[i] = []byte{0, 1, 0x17, 0x18, 0x7f, 0x80, 0xff}[r.IntN(7)]
			case 2:
				if len(b) > 1 {
					b = append(b[:i], b[i+1:]...)
				}
			case 3:
				b = append(b[:i+1], b[i:]...)
			}
		}
		out = append(out, b)
	}
	return out
}

// TestCheckCIDAgreesWithCidutil: the scanner's allocation-free copy of the binary CID check
// (cborCheckCID) gives cidutil.ParseBinary's verdict on every input.
func TestCheckCIDAgreesWithCidutil(t *testing.T) {
	var seeds [][]byte
	for _, s := range []string{cborTestBlobLinkString, jsonTestCBORCID} {
		c, err := cidutil.ParseString(s)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, c.Bytes())
	}
	seeds = append(seeds,
		cborMustHex("1220"+"00000000000000000000000000000000000000000000000000000000000000ab"), // CIDv0
		cborMustHex("01"), cborMustHex("0171"), cborMustHex("017112"), cborMustHex("01711200"),
		cborMustHex("01f1001200"), // a varint not in its shortest form
		cborMustHex("0171120201"), // digest shorter than declared
		cborMustHex("017112010102"), nil)
	for _, seed := range seeds {
		for _, b := range rulesMutations(seed, 300) {
			_, detail := cborCheckCID(b)
			_, err := cidutil.ParseBinary(b)
			if (detail == "") != (err == nil) {
				t.Errorf("%x: cborCheckCID says %q, cidutil.ParseBinary %v", b, detail, err)
			}
		}
	}
}

// TestBlobFastPathFollowsRules: the CBOR decoder's blob fast path (cborDecoder.blob) only accepts
// a map that blobFromMap accepts, as the same Blob; on the inputs it declines, UnmarshalCBOR gives
// blobFromMap's verdict through the generic map.
func TestBlobFastPathFollowsRules(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	var seeds [][]byte
	for _, b := range []Blob{{Ref: ref, MimeType: "image/png", Size: 1234}, {Ref: ref, MimeType: "a", Size: 0}} {
		data, err := MarshalCBOR(b)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	accepted := 0
	for _, seed := range seeds {
		for _, data := range rulesMutations(seed, 2000) {
			if len(data) == 0 || data[0] != cborMajorMap|4 {
				continue
			}
			d := cborDecoder{data: data, lim: DefaultLimits(), chunk: len(data)}
			fast, end, ok := d.blob(1)
			if !ok {
				continue
			}
			accepted++
			// Decode the four entries one by one, as the generic map path does.
			m := map[string]any{}
			p, pks, pke := 1, 0, -1
			for range 4 {
				ks, ke, err := cborKey(data, &d.lim, p, pks, pke)
				if err != nil {
					t.Fatalf("%x: the fast path accepted a map whose key at %d is refused: %v", data, p, err)
				}
				v, q, err := d.value(ke, 2)
				if err != nil {
					t.Fatalf("%x: the fast path accepted a map whose value at %d is refused: %v", data, ke, err)
				}
				m[string(data[ks:ke])] = v
				p, pks, pke = q, ks, ke
			}
			b, err := blobFromMap(m, DefaultMaxCIDLen)
			if err != nil || m["$type"] != "blob" || p != end || !reflect.DeepEqual(b, fast) {
				t.Errorf("%x: fast path %+v (end %d), rules %+v, %v (end %d)", data, fast, end, b, err, p)
			}
		}
	}
	if accepted < 10 {
		t.Errorf("only %d mutations took the fast path: the test does not exercise it", accepted)
	}
}

// TestDescribeHead: describeHead names a CBOR item as describe names its decoded value.
func TestDescribeHead(t *testing.T) {
	for _, h := range []string{"00", "17", "1818", "20", "40", "4101", "60", "6161", "80", "8100", "a0",
		"d82a582500017112200000000000000000000000000000000000000000000000000000000000000000", "f4", "f5", "f6"} {
		data := cborMustHex(h)
		v, err := UnmarshalCBOR(data)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		if got, want := describeHead(data[0]), describe(v); got != want {
			t.Errorf("%s: describeHead %q, describe %q", h, got, want)
		}
	}
}
