// Package dns holds the byte classes of DNS-style names, which NSIDs (a reversed domain name and
// a name) and handles (a domain name) are written in: one table for both parsers.
package dns

// Class classifies the bytes of an NSID or a handle: Letter, Digit, Hyphen, Dot, or 0 for a byte
// that may not appear at all (https://atproto.com/specs/nsid, https://atproto.com/specs/handle).
var Class = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = Digit
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = Letter
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = Letter
	}
	t['-'] = Hyphen
	t['.'] = Dot
	return t
}()

// The classes of Class.
const (
	Letter = 1 + iota
	Digit
	Hyphen
	Dot
)
