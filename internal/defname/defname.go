// Package defname holds the one rule for the name of a Lexicon definition, what follows '#' in a
// reference or a "$type" ("app.bsky.richtext.facet#mention"), shared by the lexicon package,
// which reads schemas and checks references, and datamodel's Registry, which takes a $type.
package defname

// Valid reports whether s is a definition's name: 1 to 63 ASCII letters and digits, not
// starting with a digit, as an NSID's name segment (https://atproto.com/specs/lexicon).
func Valid(s string) bool {
	if s == "" || len(s) > 63 || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
