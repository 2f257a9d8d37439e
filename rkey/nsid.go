package rkey

import (
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// NSID syntax, needed for the nsid key type (DECISIONS rule 3) and for the collection of a
// repository path. The rules are those of the atproto NSID spec, checked against the vectors in
// testdata/interop/syntax/nsid_syntax_*.txt:
//
//   - ASCII letters, digits, '-' and '.' only; at most 317 characters in all;
//   - at least 3 segments separated by '.', each 1 to 63 characters;
//   - the domain authority (every segment but the last) is a reversed domain name: its segments
//     neither start nor end with '-', and the first one (the top-level domain) does not start
//     with a digit; later ones may ("org.4chan", "cn.8", "a.0.c");
//   - the name (the last segment) is letters and digits only and does not start with a digit.
//
// The spec text also caps the domain authority at 253 characters, but the valid vectors hold an
// NSID whose authority is 283 characters long ("com." and 40 "middle." segments), so that cap is
// not applied: only the 317 total is.

const (
	nsidMaxLen      = 317
	nsidMaxSegment  = 63
	nsidMinSegments = 3
)

// nsidChar[c] classifies the bytes of an NSID: 0 not allowed, else one of the classes below.
var nsidChar = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = nsidDigit
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = nsidLetter
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = nsidLetter
	}
	t['-'] = nsidHyphen
	t['.'] = nsidDot
	return t
}()

const (
	nsidLetter = 1 + iota
	nsidDigit
	nsidHyphen
	nsidDot
)

// nsidProblem returns an empty reason if s is a valid NSID, and otherwise what is wrong and the
// offset of the problem (counted from base; -1 when the NSID as a whole is at fault). It does not
// allocate when s is valid.
func nsidProblem(s string, base int) (offset int, reason string) {
	n := len(s)
	if n == 0 {
		return base, "empty; an NSID has at least 3 segments, as in com.example.thing"
	}
	if n > nsidMaxLen {
		return base + nsidMaxLen, fmt.Sprintf("NSID is %d bytes long; at most %d are allowed", n, nsidMaxLen)
	}
	for i := 0; i < n; i++ {
		if nsidChar[s[i]] == 0 {
			return base + i, fmt.Sprintf("%s at offset %d is not allowed in an NSID", echo.QuoteAt(s, i), base+i)
		}
	}
	segments := 0
	for start := 0; start <= n; {
		end := start
		for end < n && s[end] != '.' {
			end++
		}
		seg := s[start:end]
		segments++
		last := end == n
		switch {
		case len(seg) == 0:
			return base + start, fmt.Sprintf("empty segment at offset %d", base+start)
		case len(seg) > nsidMaxSegment:
			return base + start + nsidMaxSegment, fmt.Sprintf("segment at offset %d is %d characters long; at most %d are allowed", base+start, len(seg), nsidMaxSegment)
		case last && segments < nsidMinSegments:
			return -1, fmt.Sprintf("%d segments; an NSID has at least %d, as in com.example.thing", segments, nsidMinSegments)
		case last:
			// The name segment: letters and digits, not starting with a digit.
			if nsidChar[seg[0]] == nsidDigit {
				return base + start, fmt.Sprintf("name segment at offset %d starts with a digit", base+start)
			}
			for i := 0; i < len(seg); i++ {
				if nsidChar[seg[i]] == nsidHyphen {
					return base + start + i, fmt.Sprintf("'-' at offset %d is not allowed in the name segment (the last one)", base+start+i)
				}
			}
		default:
			// A domain authority segment.
			if segments == 1 && nsidChar[seg[0]] == nsidDigit {
				return base, fmt.Sprintf("first segment starts with a digit at offset %d", base)
			}
			if seg[0] == '-' {
				return base + start, fmt.Sprintf("segment at offset %d starts with '-'", base+start)
			}
			if seg[len(seg)-1] == '-' {
				return base + end - 1, fmt.Sprintf("segment at offset %d ends with '-'", base+start)
			}
		}
		start = end + 1
	}
	return -1, ""
}
