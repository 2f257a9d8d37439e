package datetime

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain holds ErrInvalid and
// one of the others, so callers branch with errors.Is and read the details with errors.As.
// ([Datetime.Scan]'s errors for columns of other types are plain errors.)
var (
	// ErrInvalid matches every error that rejects a datetime.
	ErrInvalid = errors.New("invalid datetime")

	// ErrSyntax: the string is not in the layout YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM), e.g.
	// a missing time zone, a lower-case 't' or 'z', a missing or extra digit, or "-00:00".
	ErrSyntax = fmt.Errorf("%w: syntax", ErrInvalid)

	// ErrRange: the layout is right but a value is not: month 00 or 13, day 31 in April, hour 24,
	// second 60, an offset past 23:59, an instant before 0000-01-01T00:00:00Z once the offset is
	// applied, or (for [FromTime]) a year that four digits cannot hold.
	ErrRange = fmt.Errorf("%w: value out of range", ErrInvalid)
)

// Error describes why an input was rejected. Its message names the input (at most 64 bytes
// of it, escaped), where the problem is and what it is, e.g.
//
//	invalid datetime "1985-04-12T23:20:50.123z": 'z' at offset 23: the time zone must be upper-case 'Z'
type Error struct {
	// Kind names what was being read: "datetime".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8
	// boundary). For [FromTime], it is the time in RFC 3339 form.
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset in the input of the first offending byte, or -1 when the input
	// as a whole is at fault (for example an empty string).
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrSyntax or ErrRange.
	Err error
}

// Error returns the message: "invalid <Kind> <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }

// newError builds an *Error, keeping only a bounded copy of input.
func newError(input string, offset int, sentinel error, reason string) *Error {
	return &Error{
		Kind:   "datetime",
		Input:  echo.Clip(input),
		Len:    len(input),
		Offset: offset,
		Reason: reason,
		Err:    sentinel,
	}
}
