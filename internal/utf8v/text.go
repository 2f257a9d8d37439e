package utf8v

import "math/bits"

// JSONText scans the text of a JSON string: it returns n, the length of the longest prefix of p
// that is valid UTF-8 and holds no byte a JSON string must stop at ('"', '\\' or a control
// character 00..1F), and ok when that prefix ends cleanly: at the end of p or just before such a
// byte, between characters. When ok is false the text before the next stop byte is not valid
// UTF-8 (a bad or cut-short sequence), and the caller finds where the long way (FirstInvalid):
// errors are rare, and n is then meaningless.
//
// Why: a JSON decoder reading text in other scripts otherwise makes two passes over it, one to
// find the end of the run (the next quote or escape) and one to validate it. This is one pass:
// the vector path where there is one (vector.go: each block's stop bytes are found with its
// errors, and errors past the first stop byte do not count), and otherwise the automaton of
// Valid (dfa.go) with one more state, sStop: a stop byte between characters leads to it, and it
// absorbs, as sError does. On the automaton's path, runs of ASCII go a word at a time as in
// valid; the automaton takes 16 bytes a step, two bytes at a time (pairs.go), and looks at the
// state after each step. A step that ends in sStop holds a stop byte between characters, found by a word test
// of its 16 bytes; one that ends in sError holds an error, which the caller finds.
//
// Measured against the version that took one byte at a time and went back over a step byte by
// byte to find the stop byte (cachegrind, instructions per call, BenchmarkJSONText's texts):
// CJK 300 B 2167 -> 1678, mixed scripts 300 B 2105 -> 1717, 40 B 398 -> 356, mostly ASCII
// 300 B 1269 -> 1237. (These calls allocate nothing, so the counts compare; whole decodes'
// counts, which move by several percent between runs, are not quoted.)
func JSONText(p []byte) (n int, ok bool) {
	switch m, res := jsonTextVector(p); res {
	case vectorStop:
		return m, true
	case vectorBad:
		return 0, false
	case vectorRan:
		return textStep(p, lastCharStart(p, m), sAccept) // the last few bytes of p
	}
	i, s := 0, uint64(sAccept)
	for {
		// ASCII with no stop byte, a word at a time; s is sAccept here.
		for i+8 <= len(p) {
			if m := jsonSpecial(load64(p, i)); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i+8 > len(p) {
			break // the last few bytes, one at a time (textStep)
		}
		if p[i] < 0x80 {
			return i, true // a stop byte, between characters
		}
		// p[i] starts a character that is not ASCII: the automaton, 16 bytes a step, a pair of
		// bytes at a time (pairs.go).
		for i+16 <= len(p) {
			q := p[i : i+16]
			// Written out rather than called: the call is not inlined (too large) and, in a
			// function of its own, the compiler moved each row through one more register.
			s = textPairRows[pairClass[uint16(q[0])|uint16(q[1])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[2])|uint16(q[3])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[4])|uint16(q[5])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[6])|uint16(q[7])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[8])|uint16(q[9])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[10])|uint16(q[11])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[12])|uint16(q[13])<<8]] >> (s & 63)
			s = textPairRows[pairClass[uint16(q[14])|uint16(q[15])<<8]] >> (s & 63)
			if st := s & 63; st == sStop || st == sError {
				if st == sError {
					return 0, false
				}
				// sStop: the first stop byte of the 16 came between characters (in the middle
				// of one it leads to sError), and sStop absorbs what follows it.
				return i + stopIndex16(q), true
			}
			i += 16
			if s&63 == sAccept && i+8 <= len(p) && load64(p, i)&hiBits == 0 {
				break // back to the word loop
			}
		}
		if i+16 > len(p) {
			break
		}
	}
	return textStep(p, i, s)
}

// textStep runs the automaton byte by byte from state s at offset i of p, up to a stop byte, an
// error or the end of p, and returns what JSONText returns: for the last few bytes of p.
func textStep(p []byte, i int, s uint64) (int, bool) {
	for ; i < len(p); i++ {
		switch s = textRows[p[i]] >> (s & 63); s & 63 {
		case sStop:
			return i, true
		case sError:
			return 0, false
		}
	}
	return len(p), s&63 == sAccept
}

// sStop is the state after a stop byte read between characters (dfa.go lists the others).
const sStop = 54

// textRows is rows with the stop bytes of a JSON string leading from sAccept to sStop instead of
// back to sAccept, and sStop absorbing.
var textRows = func() (t [256]uint64) {
	t = rows
	for c := range t {
		if c < 0x20 || c == '"' || c == '\\' {
			t[c] &^= 63 << sAccept
			t[c] |= sStop << sAccept
		}
		t[c] |= sStop << sStop
	}
	return t
}()

// stopIndex16 returns the offset of the first stop byte among the 16 bytes of q, which hold one.
func stopIndex16(q []byte) int {
	q = q[:16]
	if m := jsonStop(load64(q, 0)); m != 0 {
		return bits.TrailingZeros64(m) / 8
	}
	return 8 + bits.TrailingZeros64(jsonStop(load64(q, 8)))/8
}

// jsonStop has the high bit set in the lowest byte of x that is a stop byte of a JSON string
// (bytes above it may be flagged falsely, by borrows); bytes that are not ASCII are let through.
func jsonStop(x uint64) uint64 {
	const ones = 0x0101010101010101
	// x ^ 0x02 sends control characters and '"' (and nothing else) below 0x21: one test for both
	// (as datamodel's jsonCtlQuote8).
	return (((x ^ 0x02*ones) - 0x21*ones) | ((x ^ '\\'*ones) - ones)) &^ x & hiBits
}

// jsonSpecial has the high bit set in the lowest byte of x that is a stop byte of a JSON string
// or not ASCII (bytes above it may be flagged falsely, by borrows).
func jsonSpecial(x uint64) uint64 {
	const ones = 0x0101010101010101
	return (((x ^ 0x02*ones) - 0x21*ones) | ((x ^ '\\'*ones) - ones) | x) & hiBits // see jsonStop
}
