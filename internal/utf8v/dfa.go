package utf8v

// The validator is a deterministic finite automaton over bytes whose whole transition function
// for one input byte is packed into one uint64 (the "shift-based DFA"): each state is a bit
// offset, a multiple of 6, and the 6 bits at offset s of row[c] hold the state that follows s on
// byte c. One step is next = rows[c] >> (state & 63): one load that does not depend on the
// state and one shift that does (the & 63 is the shift instruction's own masking, so the
// compiler emits no AND), and no data-dependent branch to mispredict on mixed scripts, where
// utf8.Valid's switch on the sequence length does. The bits above the low 6 of a state are
// garbage and are ignored.
//
// The states (https://www.rfc-editor.org/rfc/rfc3629#section-4, the UTF8-octets grammar):
const (
	sError  = 0  // an invalid byte was seen; the rows map it to itself, so it absorbs
	sAccept = 6  // between characters: the start and the only accepting state
	sTail1  = 12 // one continuation byte (80..BF) still needed
	sTail2  = 18 // two still needed
	sTail3  = 24 // three still needed
	sE0     = 30 // after E0: A0..BF (no overlong 3-byte forms), then one more
	sED     = 36 // after ED: 80..9F (no surrogates D800..DFFF), then one more
	sF0     = 42 // after F0: 90..BF (no overlong 4-byte forms), then two more
	sF4     = 48 // after F4: 80..8F (nothing above U+10FFFF), then two more
)

// rows is the transition table: rows[c] packs, for every state s, the state after byte c at bit
// offset s. sError is 0, so a row's low 6 bits are 0 and the error state stays put.
var rows = func() (t [256]uint64) {
	set := func(lo, hi int, from, to uint64) {
		for c := lo; c <= hi; c++ {
			t[c] |= to << from
		}
	}
	// From sAccept: the lead bytes (RFC 3629 §4; C0, C1 and F5..FF never appear).
	set(0x00, 0x7F, sAccept, sAccept)
	set(0xC2, 0xDF, sAccept, sTail1)
	set(0xE0, 0xE0, sAccept, sE0)
	set(0xE1, 0xEC, sAccept, sTail2)
	set(0xED, 0xED, sAccept, sED)
	set(0xEE, 0xEF, sAccept, sTail2)
	set(0xF0, 0xF0, sAccept, sF0)
	set(0xF1, 0xF3, sAccept, sTail3)
	set(0xF4, 0xF4, sAccept, sF4)
	// Continuation bytes.
	set(0x80, 0xBF, sTail1, sAccept)
	set(0x80, 0xBF, sTail2, sTail1)
	set(0x80, 0xBF, sTail3, sTail2)
	set(0xA0, 0xBF, sE0, sTail1)
	set(0x80, 0x9F, sED, sTail1)
	set(0x90, 0xBF, sF0, sTail2)
	set(0x80, 0x8F, sF4, sTail2)
	return t
}()
