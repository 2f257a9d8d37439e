package utf8v

import (
	"math/bits"
	"unsafe"
)

// Valid reports whether p is entirely valid UTF-8, exactly as utf8.Valid(p) does.
func Valid(p []byte) bool { return valid(p) }

// ValidString reports whether s is entirely valid UTF-8, exactly as utf8.ValidString(s) does.
//
// It reads s's bytes in place, as a []byte that is never written: the same code instantiated for
// strings ran ASCII 8-15% slower (interleaved batches at 12, 40 and 300 bytes).
func ValidString(s string) bool { return valid(unsafe.Slice(unsafe.StringData(s), len(s))) }

// FirstInvalid returns the offset in p where the first invalid sequence starts, or -1 if p is
// valid UTF-8. Read rune by rune from the start, it is the first offset at which
// utf8.DecodeRune returns (utf8.RuneError, 1): a byte that cannot start a character, or the lead
// byte of a sequence that is bad or cut short. Valid input costs what Valid costs; the offset is
// looked for only once the input is known to be invalid.
func FirstInvalid(p []byte) int {
	if valid(p) {
		return -1
	}
	return firstInvalid(p)
}

// hiBits has the top bit of every byte of a word: a word ANDed with it is zero when all eight
// bytes are ASCII.
const hiBits = 0x8080808080808080

// valid is Valid and ValidString: ASCII a word at a time while it lasts, then the automaton
// (dfa.go) from the first non-ASCII byte, four bytes (one character) and then, unless ASCII
// follows at once, 16 bytes a step, returning to the ASCII loop whenever a character ends just
// before a word of ASCII. The automaton takes two bytes at a time (pairs.go). Where there is a
// vector unit (vector.go), text of vectorMinLen bytes or more that the four bytes do not hand
// back to the ASCII loop goes to the vector path instead of the 16-byte steps.
//
// Measured on a shared 2-core AMD EPYC, best of interleaved batches (BenchmarkRatio), 64 KiB,
// a byte at a time: 16 steps unrolled with the look-ahead ran CJK at 3.0 GB/s; a plain loop of 1
// step 2.2 GB/s; 8 steps with a look-ahead every 8 bytes 2.6-2.9 GB/s on CJK; two automata on
// the two halves of the input (two dependency chains), unrolled, 3.3 GB/s on CJK but 3.3 GB/s on
// the mostly-ASCII text too, a fifth of utf8.Valid there. On English with an emoji every 166
// bytes, going straight into 16 steps after the emoji ran at 0.62-0.84x utf8.Valid; stopping the
// ASCII loop exactly at the emoji, taking it in four bytes and writing the ASCII loop out in
// valid (not called) made it 1.14x. On a 2-core Intel Xeon (2026-11-26, same benchmark, speedup
// over utf8.Valid), two bytes a step against one: CJK 64 KiB 1.59x -> 2.49x, mixed scripts
// 300 B 1.80x -> 2.94x, 40 B 1.93x -> 2.49x, Cyrillic 12 B 1.38x -> 1.57x; ASCII is
// unchanged code (12 B read 1.58-1.72x in both builds, as the code's placement moved).
func valid(p []byte) bool {
	whole := p
	s := uint64(sAccept)
	if len(p) <= 24 && (len(p) <= 8 || load64(p, 0)&hiBits != 0) {
		// Short text that does not start with an ASCII word goes straight to the steps after the
		// loop (cjk-12 in BenchmarkRatio: 1.00x without this test, 1.10-1.17x with it).
		goto tail
	}
outer:
	for {
		// ASCII a word at a time (s is sAccept here), written out rather than called: the call
		// showed on English with an emoji every 166 bytes. 32 bytes a step: a 64-byte loop in
		// front of it made that text 0.98x utf8.Valid, and ASCII no faster (1.08x vs 1.14x at
		// 64 KiB). The loops test > rather than >= (as utf8.Valid does): p[32:] then never
		// points past the end, which spares the compiler's fix-up of the slice pointer.
		for len(p) > 32 && (load64(p, 0)|load64(p, 8)|load64(p, 16)|load64(p, 24))&hiBits == 0 {
			p = p[32:]
		}
		for len(p) > 8 {
			if w := load64(p, 0) & hiBits; w != 0 {
				// Exactly at the first non-ASCII byte, so that the four steps below take the
				// whole character.
				p = p[bits.TrailingZeros64(w)/8:]
				break
			}
			p = p[8:]
		}
		if len(p) <= 24 {
			break
		}
		// p starts at a non-ASCII byte. Four bytes take one character of any length; if the
		// text goes on in ASCII, as English with an emoji does, it goes back to the word loop
		// at once.
		q := p[:24]
		s = pairRows[pairClass[uint16(q[0])|uint16(q[1])<<8]] >> (s & 63)
		s = pairRows[pairClass[uint16(q[2])|uint16(q[3])<<8]] >> (s & 63)
		if load64(q, 4)&hiBits == 0 && s&63 == sAccept {
			p = p[4:]
			continue
		}
		if len(p) >= vectorMinLen {
			// The vector path (vector.go) checks from p, the four bytes again, up to a block
			// of ASCII or the last whole block; the loop goes on from the start of the last
			// character it checked.
			if n, res := validVector(p); res != vectorNone {
				if res == vectorBad {
					return false
				}
				p, s = p[lastCharStart(p, n):], sAccept
				continue
			}
		}
		s = pairRows[pairClass[uint16(q[4])|uint16(q[5])<<8]] >> (s & 63)
		s = pairRows[pairClass[uint16(q[6])|uint16(q[7])<<8]] >> (s & 63)
		p = p[8:]
		for len(p) > 24 {
			q := p[:24]
			// Unrolled, two bytes a step (pairs.go): the loop branch and counter would cost as
			// much as a step.
			s = pairRows[pairClass[uint16(q[0])|uint16(q[1])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[2])|uint16(q[3])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[4])|uint16(q[5])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[6])|uint16(q[7])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[8])|uint16(q[9])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[10])|uint16(q[11])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[12])|uint16(q[13])<<8]] >> (s & 63)
			s = pairRows[pairClass[uint16(q[14])|uint16(q[15])<<8]] >> (s & 63)
			p = p[16:]
			// The word after the 16 bytes is tested here, not before they are stepped over:
			// loaded before, it shares its bytes with the steps and the compiler then loads them
			// one by one for both (measured a third slower).
			if load64(q, 16)&hiBits == 0 && s&63 == sAccept {
				continue outer
			}
		}
		break
	}
tail:
	if n := len(whole); len(p) <= 8 && n >= 8 && s&63 == sAccept && load64(whole, n-8)&hiBits == 0 {
		// The last word, overlapping bytes already checked, is ASCII too. (s is sAccept whenever
		// 8 bytes or fewer are left: the loop leaves more unless the ASCII loop ran, which needs
		// sAccept; the test keeps the shortcut from resting on that.)
		return true
	}
	for len(p) >= 8 {
		q := p[:8]
		s = pairRows[pairClass[uint16(q[0])|uint16(q[1])<<8]] >> (s & 63)
		s = pairRows[pairClass[uint16(q[2])|uint16(q[3])<<8]] >> (s & 63)
		s = pairRows[pairClass[uint16(q[4])|uint16(q[5])<<8]] >> (s & 63)
		s = pairRows[pairClass[uint16(q[6])|uint16(q[7])<<8]] >> (s & 63)
		p = p[8:]
	}
	return run(p, s)&63 == sAccept
}

// run steps the automaton from state s over p and returns the state it ends in (only the low 6
// bits mean anything).
func run(p []byte, s uint64) uint64 {
	for i := 0; i < len(p); i++ {
		s = rows[p[i]] >> (s & 63)
	}
	return s
}

// load64 reads p[i:i+8] as a little-endian word; the compiler merges the eight byte loads into
// one.
func load64(p []byte, i int) uint64 {
	b := p[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// firstInvalid returns where the first invalid sequence of p starts, or -1: the automaton run
// byte by byte, remembering where the current character began.
func firstInvalid(p []byte) int {
	s, start := uint64(sAccept), 0
	for i := 0; i < len(p); i++ {
		if s == sAccept {
			start = i
		}
		if s = rows[p[i]] >> s & 63; s == sError {
			return start
		}
	}
	if s != sAccept {
		return start
	}
	return -1
}
