package tid

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors. Every error from parsing, construction and ranges matches one of them with
// [errors.Is]. ([TID.Scan]'s errors for NULL and for non-text columns are plain errors.)
var (
	// ErrSyntax: a string is not a TID (or TID prefix) under the spec regex
	// ^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$ (DECISIONS 4).
	ErrSyntax = errors.New("invalid TID syntax")

	// ErrTimeRange: a time or microsecond count outside what a TID holds, 1970-01-01T00:00:00Z
	// to 2255-06-05T23:47:34.740991Z (53 bits of microseconds, DECISIONS 5). It is never wrapped
	// around silently.
	ErrTimeRange = errors.New("time outside the TID range 1970-01-01T00:00:00Z to 2255-06-05T23:47:34.740991Z")

	// ErrClockID: a clock id above 1023; a TID has 10 bits for it (spec/tid.txt, "TID Structure").
	ErrClockID = errors.New("clock id above 1023")
)

// maxEcho bounds how much of a bad input a ParseError keeps and prints, so that a huge input is
// neither retained in memory nor echoed back to whoever sent it.
const maxEcho = 64

// A ParseError describes a string that is not a TID or a TID prefix: which input, where, and why.
// It matches [ErrSyntax] with [errors.Is] (or [ErrTimeRange], for a prefix that names no time).
// Its message is fit to send back in a 400 response, e.g.
//
//	invalid TID "3jzf-cij-pj2z-2a": '-' at offset 4: hyphens (the legacy dashed form) are not allowed
type ParseError struct {
	// Input is the offending input, cut to its first 64 bytes; Truncated reports the cut.
	Input     string
	Truncated bool
	// Offset is the byte offset of the problem in the input: the bad character, or for a wrong
	// length the offset where the input should have ended or continued.
	Offset int
	// Reason says what is wrong, in words.
	Reason string
	// Err is the sentinel the error matches: ErrSyntax, or ErrTimeRange.
	Err error

	what string // "TID" or "TID prefix"
}

// Error implements error.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("invalid ")
	b.WriteString(e.what)
	b.WriteByte(' ')
	b.WriteString(strconv.Quote(e.Input))
	if e.Truncated {
		b.WriteString("...")
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns e.Err, so that errors.Is(err, ErrSyntax) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// newParseError copies at most maxEcho bytes of in: the error must not keep a huge input alive.
func newParseError(what, in string, offset int, reason string, sentinel error) *ParseError {
	e := &ParseError{Offset: offset, Reason: reason, Err: sentinel, what: what}
	if len(in) > maxEcho {
		in, e.Truncated = in[:maxEcho], true
	}
	e.Input = strings.Clone(in)
	return e
}

// quoteByte names the byte c for an error message: 'J' for printable ASCII, else 0xff.
func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	const hex = "0123456789abcdef"
	return "byte 0x" + string([]byte{hex[c>>4], hex[c&15]})
}
