// Package ascii holds the one case-insensitive order of the module's identifiers whose case does
// not matter (handles, language tags): ASCII letters folded to lower case, byte by byte.
package ascii

import "strings"

// CompareFold returns -1, 0 or +1 comparing a and b with ASCII upper-case letters read as lower
// case, byte by byte (a shorter prefix first): the order of their lower-case forms, without
// building them. It is 0 exactly when strings.EqualFold would hold for ASCII input.
func CompareFold(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := lower(a[i]), lower(b[i])
		if x != y {
			if x < y {
				return -1
			}
			return +1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return +1
	}
	return 0
}

// Compare orders strings whose case does not matter in one total order consistent with ==: by
// CompareFold, then, for strings equal but for case, as written (strings.Compare), so that
// Compare returns 0 only when a == b and a sorted list keeps the case variants of one string
// together, upper case first.
func Compare(a, b string) int {
	if c := CompareFold(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
