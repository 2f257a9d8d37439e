package utf8v

// The vector path: 16 bytes a step with SSSE3 on amd64 (vector_amd64.s), for text that is not
// ASCII. It is the "lookup" method of J. Keiser and D. Lemire, "Validating UTF-8 In Less Than
// One Instruction Per Byte", Software: Practice and Experience 51(5), 2021
// (https://arxiv.org/abs/2010.03090); the tables below are built here from the rules of RFC 3629
// §4, and the code is this package's own.
//
// Why: the automaton's steps (dfa.go, pairs.go) form a chain, each waiting for the state the one
// before it made, and read a 64 KiB table that shares the cache with the decoder's other work. A
// scratch build of the JSON decoder that checked no UTF-8 at all decoded the mixed-script list of
// internal/peers 10 % faster (in turn with sonic, 5 runs each alternating: x-sonic medians 1.054
// against 1.164), far more than the automaton's time on warm text predicts (which of the two
// costs more was not measured). The vector path has no chain from block to block but the
// previous block's bytes, and keeps its tables in registers.
// Measured against the automaton alone (internal/peers, BenchmarkJSONDecodeRatio, 3 runs
// alternating the two builds, 2026-11-27): x-sonic medians mixlist 1.061 -> 1.127, mixprofile
// 1.226 -> 1.312, mixpost 1.134 -> 1.185, stream10k 1.057 -> 1.120, ASCII records within 2 %;
// BenchmarkRatio (utf8.Valid's time over Valid's) mixed scripts 300 B 2.80x -> 4.47x, 64 KiB
// 2.84x -> 6.05x; text shorter than vectorMinLen, which does not take it, within 4 % of before.
//
// How: every error in UTF-8 shows in a window of at most four bytes ending at some byte b2, with
// b1 the byte before it. Most show in the pair (b1, b2) alone, and each such kind of error is a
// product of three sets: a set of high nibbles of b1, a set of low nibbles of b1, a set of high
// nibbles of b2. Giving each kind a bit, three 16-entry tables (one per nibble, looked up with
// PSHUFB) whose bits are ANDed flag every bad pair at once. The eighth bit flags two
// continuation bytes in a row, which is an error unless b2 is the third or fourth byte of a
// sequence, that is unless the byte two before b2 is a lead of three or four bytes (E0..FF) or
// the byte three before is a lead of four (F0..FF); that bit is XORed with the "must be a
// continuation" bit those two tests make, so that a continuation that is needed and missing
// shows too. A sequence cut short by the end of the checked bytes is the caller's to find: the
// scalar code takes up again at the start of the last character (lastCharStart).
//
// The kinds of error, one bit each:
const (
	vTooShort  = 1 << 0 // a lead byte (C0..FF) not followed by a continuation byte
	vTooLong   = 1 << 1 // a continuation byte after an ASCII byte
	vOverlong3 = 1 << 2 // E0 80..9F: a 3-byte form of a character that fits in 2
	vTooLarge  = 1 << 3 // F4 90..BF, or F5..FF with 90..BF: above U+10FFFF
	vSurrogate = 1 << 4 // ED A0..BF: U+D800..U+DFFF
	vOverlong2 = 1 << 5 // C0 or C1 with a continuation: a 2-byte form of ASCII
	vOverlong4 = 1 << 6 // F0 80..8F (a 4-byte form of a character that fits in 3), or F5..FF with 80..8F
	vTwoConts  = 1 << 7 // a continuation byte after a continuation byte
)

// vectorHi1, vectorLo1 and vectorHi2 are the three look-up tables, by the high nibble of b1, its
// low nibble and the high nibble of b2. vector_amd64.s loads them by name.
var vectorHi1, vectorLo1, vectorHi2 [16]byte

func init() {
	// Each kind: the high nibbles of b1, the low nibbles of b1, the high nibbles of b2.
	type nibbles struct{ lo, hi int }
	all := nibbles{0x0, 0xF}
	cont := nibbles{0x8, 0xB}
	kinds := []struct {
		bit      byte
		hi1, lo1 []nibbles
		hi2      []nibbles
	}{
		{vTooShort, []nibbles{{0xC, 0xF}}, []nibbles{all}, []nibbles{{0x0, 0x7}, {0xC, 0xF}}},
		{vTooLong, []nibbles{{0x0, 0x7}}, []nibbles{all}, []nibbles{cont}},
		{vOverlong3, []nibbles{{0xE, 0xE}}, []nibbles{{0x0, 0x0}}, []nibbles{{0x8, 0x9}}},
		{vTooLarge, []nibbles{{0xF, 0xF}}, []nibbles{{0x4, 0xF}}, []nibbles{{0x9, 0xB}}},
		{vSurrogate, []nibbles{{0xE, 0xE}}, []nibbles{{0xD, 0xD}}, []nibbles{{0xA, 0xB}}},
		{vOverlong2, []nibbles{{0xC, 0xC}}, []nibbles{{0x0, 0x1}}, []nibbles{cont}},
		{vOverlong4, []nibbles{{0xF, 0xF}}, []nibbles{{0x0, 0x0}, {0x5, 0xF}}, []nibbles{{0x8, 0x8}}},
		{vTwoConts, []nibbles{cont}, []nibbles{all}, []nibbles{cont}},
	}
	set := func(t *[16]byte, ranges []nibbles, bit byte) {
		for _, r := range ranges {
			for n := r.lo; n <= r.hi; n++ {
				t[n] |= bit
			}
		}
	}
	for _, k := range kinds {
		set(&vectorHi1, k.hi1, k.bit)
		set(&vectorLo1, k.lo1, k.bit)
		set(&vectorHi2, k.hi2, k.bit)
	}
}

// vectorMinLen is the shortest text that valid hands to the vector path: on shorter text, the
// call and the last bytes, which the automaton takes, cost more than the blocks save.
const vectorMinLen = 64

// The results of the vector functions (vector_amd64.go).
const (
	vectorRan  = iota // every whole block checked, no error and no stop byte; n is how far
	vectorStop        // a stop byte at n, the text before it valid
	vectorBad         // invalid UTF-8 (before the first stop byte, for jsonTextVector)
	vectorNone        // not run: no vector unit, or fewer than 16 bytes
)

// lastCharStart returns where the scalar code takes up the checking of p after the vector path
// has checked p[:n] in whole blocks: at the lead byte of the last character that starts in the
// last four bytes of p[:n], which may be cut short by the block's end, or at n when p[n-1] is
// ASCII. Going over a whole character again is harmless.
func lastCharStart(p []byte, n int) int {
	for j := n - 1; j >= 0 && j >= n-4; j-- {
		switch c := p[j]; {
		case c < 0x80:
			return n
		case c >= 0xC0:
			return j
		}
	}
	return n
}
