package nsid

import (
	"fmt"

	"github.com/atcore/atcore/internal/dns"
	"github.com/atcore/atcore/internal/echo"
)

const (
	maxSegment  = 63
	minSegments = 3
)

// The byte classes of an NSID are those of every DNS-style name (internal/dns).
const (
	letter = dns.Letter
	digit  = dns.Digit
	hyphen = dns.Hyphen
	dot    = dns.Dot
)

// lastDot is the cheap check: it returns the offset of the last '.' of s if s is a valid NSID,
// and -1 otherwise, in one pass with one table load per byte. It does not say why; problem does,
// and only runs on failure.
func lastDot(s string) int {
	n := len(s)
	// The shortest NSID is "a.b.c"; the first byte must be a letter (top-level domain).
	if n < 5 || n > MaxLen || dns.Class[s[0]] != letter {
		return -1
	}
	start, last, dots, hyph := 0, -1, 0, -1
	prev := byte(dot) // a segment starts as if after a '.'
	for i := 0; i < n; i++ {
		c := dns.Class[s[i]]
		switch c {
		case 0:
			return -1
		case dot:
			// An authority segment: 1 to 63 bytes, not ending with '-' (nor starting with one,
			// checked at the '-').
			if prev == dot || prev == hyphen || i-start > maxSegment {
				return -1
			}
			start, last = i+1, i
			dots++
		case hyphen:
			if prev == dot {
				return -1
			}
			hyph = i
		}
		prev = c
	}
	// The name: 1 to 63 letters and digits, starting with a letter.
	if dots < minSegments-1 || last == n-1 || n-start > maxSegment || hyph > last || dns.Class[s[start]] != letter {
		return -1
	}
	return last
}

// invalid builds the error of an invalid s. Kept out of line so that the callers stay small.
//
//go:noinline
func invalid(s string) error {
	e := invalidAt(s, 0)
	if s == "" {
		e.Offset = -1 // on its own, an empty input has no byte to point at (Error.Offset)
	}
	return e
}

// invalidAt builds the error of an invalid s found at offset base of a longer input.
func invalidAt(s string, base int) *Error {
	off, reason, sentinel := problem(s, base)
	return &Error{Kind: "NSID", Input: echo.Clip(s), Len: len(s), Offset: off, Reason: reason, Err: sentinel}
}

// problem explains why s is not a valid NSID; s must be invalid. Offsets in the result and in
// the reason count from base (-1 when the NSID as a whole is at fault).
func problem(s string, base int) (offset int, reason string, sentinel error) {
	n := len(s)
	if n == 0 {
		return base, "empty; an NSID has at least 3 segments, as in com.example.thing", ErrLength
	}
	if n > MaxLen {
		return base + MaxLen, fmt.Sprintf("NSID is %d bytes long; at most %d are allowed", n, MaxLen), ErrLength
	}
	for i := 0; i < n; i++ {
		if dns.Class[s[i]] == 0 {
			return base + i, fmt.Sprintf("%s at offset %d is not allowed in an NSID", echo.QuoteAt(s, i), base+i), ErrCharacter
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
			return base + start, fmt.Sprintf("empty segment at offset %d", base+start), ErrSegment
		case len(seg) > maxSegment:
			return base + start + maxSegment, fmt.Sprintf("segment at offset %d is %d characters long; at most %d are allowed", base+start, len(seg), maxSegment), ErrSegment
		case last && segments < minSegments:
			what := "one segment"
			if segments > 1 {
				what = fmt.Sprintf("%d segments", segments)
			}
			return -1, what + fmt.Sprintf("; an NSID has at least %d, as in com.example.thing", minSegments), ErrSegment
		case last:
			// The name segment: letters and digits, not starting with a digit.
			if dns.Class[seg[0]] == digit {
				return base + start, fmt.Sprintf("name segment at offset %d starts with a digit", base+start), ErrPosition
			}
			for i := 0; i < len(seg); i++ {
				if dns.Class[seg[i]] == hyphen {
					return base + start + i, fmt.Sprintf("'-' at offset %d is not allowed in the name segment (the last one)", base+start+i), ErrPosition
				}
			}
		default:
			// A domain authority segment.
			if segments == 1 && dns.Class[seg[0]] == digit {
				return base, fmt.Sprintf("first segment starts with a digit at offset %d", base), ErrPosition
			}
			if seg[0] == '-' {
				return base + start, fmt.Sprintf("segment at offset %d starts with '-'", base+start), ErrPosition
			}
			if seg[len(seg)-1] == '-' {
				return base + end - 1, fmt.Sprintf("segment at offset %d ends with '-'", base+start), ErrPosition
			}
		}
		start = end + 1
	}
	// Unreachable for an invalid NSID; kept so that a wrong caller gets an error, not a panic.
	return -1, "rejected", ErrInvalid
}
