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

// splitMin is the shortest non-ASCII rest that valid cuts in two; below it one stream is as fast.
const splitMin = 32

func valid[T string | []byte](p T) bool {
	p = p[asciiPrefix(p):]
	n := len(p)
	if n < splitMin {
		return run(p, sAccept)&63 == sAccept
	}
	// Two automata, one on each half, keep two independent dependency chains in flight. The cut
	// must fall on a character boundary, which in valid UTF-8 is at most 3 bytes before any
	// byte: back up over continuation bytes (10xxxxxx); a fourth one in a row is invalid anyway.
	mid := n / 2
	for k := 0; k < 3 && p[mid]&0xC0 == 0x80; k++ {
		mid--
	}
	if p[mid]&0xC0 == 0x80 {
		return false
	}
	a, b := p[:mid], p[mid:]
	bb := b[:len(a)]
	var s1, s2 uint64 = sAccept, sAccept
	for i := 0; i < len(a); i++ {
		s1 = rows[a[i]] >> (s1 & 63)
		s2 = rows[bb[i]] >> (s2 & 63)
	}
	s2 = run(b[len(a):], s2)
	return s1&63 == sAccept && s2&63 == sAccept
}

// run steps the automaton from state s over p and returns the state it ends in (only the low 6
// bits mean anything).
func run[T string | []byte](p T, s uint64) uint64 {
	for i := 0; i < len(p); i++ {
		s = rows[p[i]] >> (s & 63)
	}
	return s
}

// asciiPrefix returns the length of p's leading run of ASCII, rounded down to a word: 32 bytes
// a step while it lasts (as utf8.Valid does), then 8.
func asciiPrefix[T string | []byte](p T) int {
	q := p
	for len(q) >= 32 {
		if (load64(q, 0)|load64(q, 8)|load64(q, 16)|load64(q, 24))&hiBits != 0 {
			break
		}
		q = q[32:]
	}
	for len(q) >= 8 && load64(q, 0)&hiBits == 0 {
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
