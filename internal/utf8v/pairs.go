package utf8v

// Two bytes a step. The automaton's one step per byte is a chain: each shift waits for the state
// the one before it made. On Intel cores a shift by a register count (SHR r, CL, what GOAMD64=v1
// code uses) takes about two cycles, so the chain, not the instructions, sets the pace of text in
// other scripts. A pair step does the work of two: pairClass maps two bytes, read as one
// little-endian uint16, to the pair of their byte classes, and a pair's row packs the composition
// of the two bytes' transitions, so that two bytes cost one load of the pair, one table look-up
// and one shift. Measured with the 16-byte step of JSONText on 64 KiB of CJK text (a scratch
// benchmark): 1.9-2.0 GB/s a byte at a time, 2.4-2.6 GB/s a pair at a time.
//
// The byte classes are the distinct rows of textRows (13 of them: a stop byte, other ASCII, and
// the eleven kinds of byte that UTF-8 tells apart), so every table built on them is exact.
//
// The cost is pairClass, 64 KiB of memory filled at start-up: with GODEBUG=inittrace=1 the
// package's init took 0.14-0.21 ms in five starts of cmd/atcore, 0.12-0.35 ms without the table.
// Text in one script touches a small part of it (a CJK text's pairs are a lead or a
// continuation byte followed by a continuation or a lead byte).

// pairClass holds, at b0 | b1<<8, the class pair of bytes b0 and b1: class(b0) times the number
// of classes, plus class(b1).
var pairClass [1 << 16]uint8

// pairRows is rows two bytes a step, and textPairRows textRows: pairRows[pairClass[b0|b1<<8]]
// packs, for every state s, the state after b0 and then b1.
var pairRows, textPairRows [256]uint64

func init() {
	var class [256]uint8
	var reps []byte // a byte of each class, in order of first appearance
	for c := range 256 {
		k := len(reps)
		for j, r := range reps {
			if textRows[r] == textRows[c] {
				k = j
				break
			}
		}
		if k == len(reps) {
			reps = append(reps, byte(c))
		}
		class[c] = uint8(k)
	}
	n := len(reps)
	if n*n > len(textPairRows) {
		panic("utf8v: too many byte classes for a pair table")
	}
	for i := range pairClass {
		pairClass[i] = class[i&0xFF]*uint8(n) + class[i>>8]
	}
	for a := range n {
		for b := range n {
			pairRows[a*n+b] = compose(rows[reps[a]], rows[reps[b]])
			textPairRows[a*n+b] = compose(textRows[reps[a]], textRows[reps[b]])
		}
	}
}

// compose returns the packed transition of row a followed by row b.
func compose(a, b uint64) uint64 {
	var r uint64
	for s := uint64(0); s < 64; s += 6 {
		r |= (b >> (a >> s & 63) & 63) << s
	}
	return r
}
