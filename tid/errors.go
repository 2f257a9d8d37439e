package tid

import (
	"errors"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error from parsing, construction, ranges and storage matches one of
// them with [errors.Is]. ([TID.Scan]'s errors for NULL and for unsupported column types match
// none: they are mistakes in the program, not in the data.)
var (
	// ErrSyntax: a string is not a TID (or TID prefix) under the spec regex
	// ^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$ (DECISIONS rule 4), or a binary
	// form ([FromBytes]) is not 8 bytes long.
	ErrSyntax = errors.New("invalid TID syntax")

	// ErrTimeRange: a time or microsecond count outside what a TID holds, 1970-01-01T00:00:00Z
	// to 2255-06-05T23:47:34.740991Z (53 bits of microseconds, DECISIONS rule 5). It is never
	// wrapped around silently.
	ErrTimeRange = errors.New("time outside the TID range 1970-01-01T00:00:00Z to 2255-06-05T23:47:34.740991Z")

	// ErrTopBit: a TID with the top bit set where it has no meaning: such a TID is valid syntax
	// (DECISIONS rule 4) but holds no time, no generator issues one, and as a signed 64-bit
	// integer (a SQL BIGINT) it would be negative.
	ErrTopBit = errors.New("TID has the top bit set")

	// ErrAhead: [Generator.ContinueAfter] was given a TID more than a day ahead of the
	// generator's clock.
	ErrAhead = errors.New("TID too far ahead of the clock")

	// ErrClockID: a clock id above 1023; a TID has 10 bits for it
	// (https://atproto.com/specs/tid, "TID Structure").
	ErrClockID = errors.New("clock id above 1023")
)

// An Error describes a string that is not a TID or a TID prefix: which input, where, and why.
// It matches [ErrSyntax] with [errors.Is] (or [ErrTopBit], for a prefix that names no time).
// Its message reads like every syntax error of the module, "invalid <Kind> "<Input>": <Reason>",
// and is fit to send back in a 400 response, e.g.
//
//	invalid TID "3jzf-cij-pj2z-2a": '-' at offset 4: hyphens (the legacy dashed form) are not allowed
type Error struct {
	// Kind names what was being parsed: "TID" or "TID prefix".
	Kind string
	// Input holds at most the first 64 bytes of the input (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset of the problem in the input: the bad character, or for a wrong
	// length the offset where the input ends early or should have ended; -1 when the input as a
	// whole is at fault (an empty string).
	Offset int
	// Reason says what is wrong, in words, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrSyntax, or ErrTopBit.
	Err error
}

// Error returns the message: "invalid <Kind> <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns e.Err, so that errors.Is(err, ErrSyntax) holds.
func (e *Error) Unwrap() error { return e.Err }

// newError builds an *Error, keeping only a bounded copy of in: the error must not keep a huge
// input alive.
func newError(kind, in string, offset int, reason string, sentinel error) *Error {
	return &Error{Kind: kind, Input: echo.Clip(in), Len: len(in), Offset: offset, Reason: reason, Err: sentinel}
}
