package utf8v

// Valid reports whether p is entirely valid UTF-8, exactly as utf8.Valid(p) does.
func Valid(p []byte) bool { return valid(p) }

// ValidString reports whether s is entirely valid UTF-8, exactly as utf8.ValidString(s) does.
func ValidString(s string) bool { return valid(s) }

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
// (dfa.go) 16 bytes a step, returning to the ASCII loop whenever a character ends just before a
// word of ASCII.
//
// Measured on a shared 2-core AMD EPYC, best of interleaved batches (BenchmarkRatio), 64 KiB:
// 16 steps unrolled with the look-ahead ran CJK at 3.0 GB/s and English with an emoji every 160
// bytes at 11.9 GB/s; a plain loop of 1 step 2.2 GB/s; 8 steps with a look-ahead every 8 bytes
// 2.6-2.9 GB/s on CJK; two automata on the two halves of the input (two dependency chains),
// unrolled, 3.3 GB/s on CJK but 3.3 GB/s on the mostly-ASCII text too, a fifth of utf8.Valid
// there. The chain is not the limit (one shift per byte); the instructions per byte are.
func valid[T string | []byte](p T) bool {
	whole := p
	// The first word tested here, asciiPrefix called only for more: short strings skip the call.
	if len(p) > 8 && load64(p, 0)&hiBits == 0 {
		if p = p[8:]; len(p) > 8 {
			p = p[asciiPrefix(p):]
		}
	}
	s := uint64(sAccept)
	for len(p) > 24 {
		q := p[:24]
		// Unrolled: the loop branch and counter would cost as much as a step.
		s = rows[q[0]] >> (s & 63)
		s = rows[q[1]] >> (s & 63)
		s = rows[q[2]] >> (s & 63)
		s = rows[q[3]] >> (s & 63)
		s = rows[q[4]] >> (s & 63)
		s = rows[q[5]] >> (s & 63)
		s = rows[q[6]] >> (s & 63)
		s = rows[q[7]] >> (s & 63)
		s = rows[q[8]] >> (s & 63)
		s = rows[q[9]] >> (s & 63)
		s = rows[q[10]] >> (s & 63)
		s = rows[q[11]] >> (s & 63)
		s = rows[q[12]] >> (s & 63)
		s = rows[q[13]] >> (s & 63)
		s = rows[q[14]] >> (s & 63)
		s = rows[q[15]] >> (s & 63)
		p = p[16:]
		// The word after the 16 bytes is tested here, not before they are stepped over: loaded
		// before, it shares its bytes with the steps and the compiler then loads them one by
		// one for both (measured a third slower).
		if load64(q, 16)&hiBits == 0 && s&63 == sAccept {
			p = p[asciiPrefix(p):]
		}
	}
	if n := len(whole); len(p) <= 8 && n >= 8 && s&63 == sAccept && load64(whole, n-8)&hiBits == 0 {
		// The last word, overlapping bytes already checked, is ASCII too. (s is sAccept whenever
		// 8 bytes or fewer are left: the loop leaves more unless asciiPrefix ran, which needs
		// sAccept; the test keeps the shortcut from resting on that.)
		return true
	}
	for len(p) >= 8 {
		q := p[:8]
		s = rows[q[0]] >> (s & 63)
		s = rows[q[1]] >> (s & 63)
		s = rows[q[2]] >> (s & 63)
		s = rows[q[3]] >> (s & 63)
		s = rows[q[4]] >> (s & 63)
		s = rows[q[5]] >> (s & 63)
		s = rows[q[6]] >> (s & 63)
		s = rows[q[7]] >> (s & 63)
		p = p[8:]
	}
	return run(p, s)&63 == sAccept
}

// run steps the automaton from state s over p and returns the state it ends in (only the low 6
// bits mean anything).
func run[T string | []byte](p T, s uint64) uint64 {
	for i := 0; i < len(p); i++ {
		s = rows[p[i]] >> (s & 63)
	}
	return s
}

// asciiPrefix returns the length of p's leading run of ASCII, rounded down to a word: 64 bytes
// a step while it lasts, then 32, then 8. With 32-byte steps only (as utf8.Valid takes) 64 KiB
// of ASCII ran at 0.60x utf8.Valid in BenchmarkRatio; with the 64-byte loop, 1.15x.
func asciiPrefix[T string | []byte](p T) int {
	// The loops test > rather than >= (as utf8.Valid does): q[32:] then never points past the
	// end, which spares the compiler's fix-up of the slice pointer on every step.
	q := p
	for len(q) > 64 {
		if (load64(q, 0)|load64(q, 8)|load64(q, 16)|load64(q, 24)|
			load64(q, 32)|load64(q, 40)|load64(q, 48)|load64(q, 56))&hiBits != 0 {
			break
		}
		q = q[64:]
	}
	for len(q) > 32 {
		if (load64(q, 0)|load64(q, 8)|load64(q, 16)|load64(q, 24))&hiBits != 0 {
			break
		}
		q = q[32:]
	}
	for len(q) > 8 && load64(q, 0)&hiBits == 0 {
		q = q[8:]
	}
	return len(p) - len(q)
}

// load64 reads p[i:i+8] as a little-endian word; the compiler merges the eight byte loads into
// one, for strings as for byte slices.
func load64[T string | []byte](p T, i int) uint64 {
	b := p[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// firstInvalid returns where the first invalid sequence of p starts, or -1: the automaton run
// byte by byte, remembering where the current character began.
func firstInvalid[T string | []byte](p T) int {
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
