package datamodel

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the hot paths' reliance on these functions being inlined: a change that
// pushes one over the inliner's budget fails here rather than silently costing a call per value.
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		// JSON decoder: called before every token; most calls find no whitespace.
		"(*jsonDecoder).skipSpace",
		// JSON lexing and the short-key cache: eight bytes of a string or key at a time.
		"jsonSpecial8",
		"(*jsonDecoder).popItems",
		// JSON decoder: the test before every member and item, for a direct call to object.
		"(*jsonDecoder).nested",
		// Decoders: the depth test of every container for room on the stack (stackroom.go).
		"(*jsonDecoder).room",
		"(*cborDecoder).room",
		// CBOR decoder: every decoded string and map key.
		"(*cborDecoder).str",
		// CBOR scanner and decoder: short keys and strings checked and compared as words.
		"cborASCII16",
		"cborShortLess",
		// Both encoders: the limit check of every array and map, and its undo.
		"(*encodeLimits).enter",
		"(*encodeLimits).leave",
		"cborKeyLess",
		"getEncodeBuf",
		// Boxing into the slabs.
		"cborTypeWord",
		// The decoders and encoders: the "$type" of every map that has one.
		"typeString",
	})
}
