package nsid

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain contains ErrInvalid
// and one of the others, so callers branch with errors.Is and read details with errors.As.
var (
	// ErrInvalid matches every error that rejects an NSID.
	ErrInvalid = errors.New("invalid NSID")

	// ErrLength: the NSID is empty or longer than MaxLen bytes.
	ErrLength = fmt.Errorf("%w: length out of range", ErrInvalid)

	// ErrCharacter: a byte other than ASCII letters, digits, '-' and '.'.
	ErrCharacter = fmt.Errorf("%w: character not allowed", ErrInvalid)

	// ErrSegment: fewer than 3 segments, or a segment that is empty or longer than 63 characters.
	ErrSegment = fmt.Errorf("%w: bad segment", ErrInvalid)

	// ErrPosition: an allowed character in a place where it is not: a digit first in the top-level
	// domain or in the name, a '-' at either end of a domain segment, a '-' in the name.
	ErrPosition = fmt.Errorf("%w: character not allowed here", ErrInvalid)
)

// Error describes why an input is not an NSID. Its message names the input (at most 64
// bytes of it, escaped), where the problem is and what it is, e.g.
//
//	invalid NSID "com.example.p_st": '_' at offset 13 is not allowed in an NSID
type Error struct {
	// Kind names what was being checked: "NSID".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset of the first offending byte, or -1 when the NSID as a whole is
	// at fault (an empty input, too few segments). Offsets count from the base given to ValidateAt, where an
	// empty input has a place in the longer one: its Offset is base.
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrLength, ErrCharacter, ErrSegment or ErrPosition.
	Err error
}

// Error returns the message: "invalid NSID <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }
