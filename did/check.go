package did

import (
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// notIDChar[c] is 1 for every byte c that may not appear in a method-specific identifier and 0
// for A-Za-z0-9 . _ : % -. A full 256-entry table is indexed by any byte without a bounds check,
// and its entries OR together without branches.
var notIDChar = func() (t [256]byte) {
	for c := range t {
		t[c] = 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 0
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = 0
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 0
	}
	for _, c := range "._:%-" {
		t[c] = 0
	}
	return t
}()

// check is the cheap check: it returns the offset of the ':' that ends the method if s is a
// valid DID, and 0 otherwise. It does not say why; problem does, and only runs on failure.
func check(s string) int {
	n := len(s)
	// The common case first: a did:plc in its exact form is valid DID syntax.
	if n == plcFullLen && s[:8] == "did:plc:" && isBase32Lower(s[8:]) {
		return 7
	}
	// The shortest DID is "did:m:v".
	if n < 7 || n > MaxLen || s[:4] != "did:" {
		return 0
	}
	i := 4
	for i < n && 'a' <= s[i] && s[i] <= 'z' {
		i++
	}
	if i == 4 || i >= n-1 || s[i] != ':' {
		return 0
	}
	sep := i
	// No early exit: valid DIDs are the common case, and a branch-free OR over the table beats a
	// test per byte.
	var bad byte
	for i = sep + 1; i < n; i++ {
		bad |= notIDChar[s[i]]
	}
	if last := s[n-1]; bad != 0 || last == ':' || last == '%' {
		return 0
	}
	return sep
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
	return newError(s, off, sentinel, reason)
}

func newError(s string, off int, sentinel error, reason string) *Error {
	return &Error{Kind: "DID", Input: echo.Clip(s), Len: len(s), Offset: off, Reason: reason, Err: sentinel}
}

// problem explains why s is not a valid DID; s must be invalid. Offsets in the result and in the
// reason count from base (-1 when the DID as a whole is at fault).
func problem(s string, base int) (offset int, reason string, sentinel error) {
	n := len(s)
	if n == 0 {
		return base, "empty; a DID looks like did:plc:ewvi7nxzyoun6zhxrhs64oiz", ErrLength
	}
	if n > MaxLen {
		return base + MaxLen, fmt.Sprintf("%d bytes long; a DID has at most %d in atproto", n, MaxLen), ErrLength
	}
	const prefix = "did:"
	for i := 0; i < len(prefix); i++ {
		if i == n || s[i] != prefix[i] {
			return base, `does not start with "did:" (lower case)`, ErrPrefix
		}
	}
	i := 4
	for i < n && 'a' <= s[i] && s[i] <= 'z' {
		i++
	}
	switch {
	case i == n && i == 4:
		return base + n, `nothing after "did:"; a method and an identifier must follow`, ErrMethod
	case i == n:
		return -1, "no ':' after the method", ErrMethod
	case s[i] != ':':
		return base + i, fmt.Sprintf("%s at offset %d: the method is lower-case letters only, then ':'", echo.QuoteAt(s, i), base+i), ErrMethod
	case i == 4:
		return base + i, fmt.Sprintf("empty method at offset %d", base+i), ErrMethod
	case i == n-1:
		return base + n, "empty method-specific identifier", ErrEnd
	}
	for j := i + 1; j < n; j++ {
		if notIDChar[s[j]] != 0 {
			hint := ""
			switch s[j] {
			case '/', '?', '#':
				hint = " (a DID has no path, query or fragment)"
			}
			return base + j, fmt.Sprintf("%s at offset %d is not allowed in a DID%s", echo.QuoteAt(s, j), base+j, hint), ErrCharacter
		}
	}
	if last := s[n-1]; last == ':' || last == '%' {
		return base + n - 1, fmt.Sprintf("ends with '%c'", last), ErrEnd
	}
	// Unreachable for an invalid DID; kept so that a wrong caller gets an error, not a panic.
	return -1, "rejected", ErrInvalid
}

// plcFullLen is the length of a did:plc in its exact form.
const plcFullLen = len("did:plc:") + plcLen

// isBase32Lower reports whether id, of plcLen bytes, is all a-z and 2-7, eight bytes at a time:
// a did:plc is the DID most services see, and a byte loop costs as much as indigo's whole parse
// of one (BenchmarkDIDParse in internal/peers). id must be plcLen bytes long.
func isBase32Lower(id string) bool {
	_ = id[plcLen-1]
	return notBase32(le64(id[0:8]))|notBase32(le64(id[8:16]))|notBase32(le64(id[16:24])) == 0
}

// notBase32 returns a word with the top bit set in each byte of x that is not a-z or 2-7. For
// bytes below 0x80, adding 0x80-lo to every byte sets a byte's top bit iff it is >= lo, with no
// carry into the next byte; bytes from 0x80 up are caught by their own top bit.
func notBase32(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	geA, gtZ := x+ones*(0x80-'a'), x+ones*(0x7f-'z')
	ge2, gt7 := x+ones*(0x80-'2'), x+ones*(0x7f-'7')
	return (x | ^(geA&^gtZ | ge2&^gt7)) & high
}

// le64 reads 8 bytes of s as a little-endian word (the compiler makes it one load).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
