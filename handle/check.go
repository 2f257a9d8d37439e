package handle

import (
	"fmt"

	"github.com/atcore/atcore/internal/dns"
	"github.com/atcore/atcore/internal/echo"
)

const maxLabel = 63

// The byte classes of an handle are those of every DNS-style name (internal/dns).
const (
	letter = dns.Letter
	digit  = dns.Digit
	hyphen = dns.Hyphen
	dot    = dns.Dot
)

// check is the cheap check: it returns the offset of the top-level domain of s if s is a valid
// handle, and 0 otherwise, in one pass with one table load per byte. It does not say why;
// problem does, and only runs on failure.
func check(s string) int {
	n := len(s)
	if n < 3 || n > MaxLen {
		return 0
	}
	start := 0
	prev := byte(dot) // a label starts as if after a '.'
	for i := 0; i < n; i++ {
		c := dns.Class[s[i]]
		switch c {
		case 0:
			return 0
		case dot:
			// A label ends: 1 to 63 bytes, not ending with '-'.
			if prev == dot || prev == hyphen || i-start > maxLabel {
				return 0
			}
			start = i + 1
		case hyphen:
			if prev == dot {
				return 0
			}
		}
		prev = c
	}
	// The top-level domain: at least the second label, 1 to 63 bytes, starting with a letter,
	// not ending with '-'.
	if start == 0 || prev == dot || prev == hyphen || n-start > maxLabel || dns.Class[s[start]] != letter {
		return 0
	}
	return start
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
	return &Error{Kind: "handle", Input: echo.Clip(s), Len: len(s), Offset: off, Reason: reason, Err: sentinel}
}

// problem explains why s is not a valid handle; s must be invalid. Offsets in the result and in
// the reason count from base (-1 when the handle as a whole is at fault).
func problem(s string, base int) (offset int, reason string, sentinel error) {
	n := len(s)
	if n == 0 {
		return base, "empty; a handle is a host name such as alice.example.com", ErrLength
	}
	if n > MaxLen {
		return base + MaxLen, fmt.Sprintf("%d bytes long; a handle has at most %d", n, MaxLen), ErrLength
	}
	for i := 0; i < n; i++ {
		if dns.Class[s[i]] == 0 {
			return base + i, fmt.Sprintf("%s at offset %d is not allowed in a handle", echo.QuoteAt(s, i), base+i), ErrCharacter
		}
	}
	for start := 0; start <= n; {
		end := start
		for end < n && s[end] != '.' {
			end++
		}
		label := s[start:end]
		last := end == n
		switch {
		case len(label) == 0:
			return base + start, fmt.Sprintf("empty label at offset %d", base+start), ErrLabel
		case len(label) > maxLabel:
			return base + start + maxLabel, fmt.Sprintf("label at offset %d is %d characters long; at most %d are allowed", base+start, len(label), maxLabel), ErrLabel
		case label[0] == '-':
			return base + start, fmt.Sprintf("label at offset %d starts with '-'", base+start), ErrPosition
		case label[len(label)-1] == '-':
			return base + end - 1, fmt.Sprintf("label at offset %d ends with '-'", base+start), ErrPosition
		case last && start == 0:
			return -1, "a single label; a handle has at least two, as in example.com", ErrLabel
		case last && dns.Class[label[0]] == digit:
			return base + start, fmt.Sprintf("top-level domain at offset %d starts with a digit", base+start), ErrPosition
		}
		start = end + 1
	}
	// Unreachable for an invalid handle; kept so that a wrong caller gets an error, not a panic.
	return -1, "rejected", ErrInvalid
}
