//go:build !purego

package utf8v

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestVectorPresent: the machines this package is measured and tested on have SSSE3, so that
// the tests below check the vector path and not the automaton twice.
func TestVectorPresent(t *testing.T) {
	if !useVector {
		t.Error("no SSSE3 on this amd64 machine: the vector path is not tested")
	}
}

// TestVectorTables: the three tables flag exactly the pairs of bytes that no valid UTF-8 holds
// side by side, each with the kind of error it is (vector.go), plus vTwoConts for two
// continuation bytes, which the caller weighs against the bytes before them.
func TestVectorTables(t *testing.T) {
	for b1 := range 256 {
		for b2 := range 256 {
			got := vectorHi1[b1>>4] & vectorLo1[b1&15] & vectorHi2[b2>>4]
			cont2 := b2 >= 0x80 && b2 < 0xC0
			var want byte
			switch {
			case b1 < 0x80:
				if cont2 {
					want = vTooLong
				}
			case b1 < 0xC0:
				if cont2 {
					want = vTwoConts
				}
			case !cont2:
				want = vTooShort
			case b1 <= 0xC1:
				want = vOverlong2
			case b1 == 0xE0 && b2 < 0xA0:
				want = vOverlong3
			case b1 == 0xED && b2 >= 0xA0:
				want = vSurrogate
			case (b1 == 0xF0 || b1 >= 0xF5) && b2 < 0x90:
				want = vOverlong4
			case b1 >= 0xF4 && b2 >= 0x90:
				want = vTooLarge
			}
			if got != want {
				t.Fatalf("bytes %#02x %#02x: tables flag %#08b, want %#08b", b1, b2, got, want)
			}
		}
	}
}

// withScalar runs f with the vector path switched off.
func withScalar(f func()) {
	defer func(v bool) { useVector = v }(useVector)
	useVector = false
	f()
}

// checkBothPaths checks p (check in valid_test.go) on the vector path and on the automaton.
func checkBothPaths(t *testing.T, p []byte) {
	t.Helper()
	check(t, p)
	withScalar(func() { check(t, p) })
}

// classEnds holds both ends of every range of bytes that UTF-8 or a JSON string tells apart
// (RFC 3629 §4; the stop bytes of JSONText): for the bytes of a sequence after its first, a set
// as good as all 256, since each test in vector.go compares whole ranges.
var classEnds = []byte{0x00, 0x1f, 0x20, '"', '\\', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
	0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff}

// TestVectorPairsAndTriples: every sequence of two bytes, and every sequence of three whose first
// byte is not ASCII and whose others are the ends of their ranges (classEnds), at offsets around
// the first block boundary (so that the sequence straddles it or not), in ASCII and in 2-byte
// text, compared with unicode/utf8 through every entry point. (All 8.4 million triples a place
// took 340 s under the race detector; TestVectorTables covers every pair of the tables.)
func TestVectorPairsAndTriples(t *testing.T) {
	if !useVector {
		t.Skip("no vector path on this machine")
	}
	// 96 bytes, so that Valid, which hands text of vectorMinLen bytes or more to the vector path,
	// takes it too; the offsets count from the first non-ASCII byte in the ASCII fill.
	for _, fill := range [][]byte{bytes.Repeat([]byte("a"), 96), bytes.Repeat([]byte("é"), 48)} {
		for _, at := range []int{0, 12, 13, 14, 15, 16, 17, 30, 31, 32, 33, 47, 48} {
			p := append([]byte{}, fill...)
			for b1 := range 256 {
				for b2 := range 256 {
					p[at], p[at+1] = byte(b1), byte(b2)
					check2(t, p)
				}
			}
		}
		for _, at := range []int{13, 14, 15} {
			p := append([]byte{}, fill...)
			for b1 := 0x80; b1 < 256; b1++ {
				for _, b2 := range classEnds {
					for _, b3 := range classEnds {
						p[at], p[at+1], p[at+2] = byte(b1), b2, b3
						check2(t, p)
					}
				}
			}
		}
	}
}

// TestVectorRandom: random valid text of every character length and of 16 to 300 bytes, with
// stop bytes and one byte changed, on both paths.
func TestVectorRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	classes := [][2]rune{{0x20, 0x7e}, {0x80, 0x7ff}, {0x800, 0xd7ff}, {0xe000, 0xffff}, {0x10000, 0x10ffff}}
	for range 30000 {
		var p []byte
		for n := 5 + r.IntN(100); n > 0; n-- {
			c := classes[r.IntN(len(classes))]
			p = utf8.AppendRune(p, c[0]+r.Int32N(c[1]-c[0]+1))
		}
		checkBothPaths(t, p)
		q := append([]byte{}, p...)
		q[r.IntN(len(q))] = byte(r.Uint32())
		checkBothPaths(t, q)
		q = append([]byte{}, p...)
		q[r.IntN(len(q))] = []byte{'"', '\\', '\n', 0}[r.IntN(4)]
		checkBothPaths(t, q)
	}
}
