package handle

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain contains ErrInvalid
// and one of the others, so callers branch with errors.Is and read details with errors.As.
var (
	// ErrInvalid matches every error that rejects a handle.
	ErrInvalid = errors.New("invalid handle")

	// ErrLength: the handle is empty or longer than MaxLen bytes.
	ErrLength = fmt.Errorf("%w: length out of range", ErrInvalid)

	// ErrCharacter: a byte other than ASCII letters, digits, '-' and '.'.
	ErrCharacter = fmt.Errorf("%w: character not allowed", ErrInvalid)

	// ErrLabel: a single label (a bare top-level domain), or a label that is empty (leading,
	// trailing or doubled '.') or longer than 63 characters.
	ErrLabel = fmt.Errorf("%w: bad label", ErrInvalid)

	// ErrPosition: a '-' at either end of a label, or a top-level domain that starts with a
	// digit (which also rules out IPv4 addresses).
	ErrPosition = fmt.Errorf("%w: character not allowed here", ErrInvalid)
)

// Error describes why an input is not a handle. Its message names the input (at most 64
// bytes of it, escaped), where the problem is and what it is, e.g.
//
//	invalid handle "jo_hn.test": '_' at offset 2 is not allowed in a handle
type Error struct {
	// Kind names what was being checked: "handle".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset of the first offending byte, or -1 when the handle as a whole is
	// at fault (an empty input, a single label). Offsets count from the base given to ValidateAt, where an
	// empty input has a place in the longer one: its Offset is base.
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrLength, ErrCharacter, ErrLabel or ErrPosition.
	Err error
}

// Error returns the message: "invalid handle <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }
