package lang

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain holds ErrInvalid and
// one of the others, so callers branch with errors.Is and read the details with errors.As.
var (
	// ErrInvalid matches every error that rejects a language tag.
	ErrInvalid = errors.New("invalid language tag")

	// ErrLength: the tag is empty or longer than MaxLen bytes.
	ErrLength = fmt.Errorf("%w: length out of range", ErrInvalid)

	// ErrSyntax: the tag is not well-formed under RFC 5646 §2.1 and the atproto rules (a primary
	// language of 2 or 3 lower-case letters): a bad character, an empty or overlong subtag, or a
	// subtag out of place.
	ErrSyntax = fmt.Errorf("%w: not well-formed", ErrInvalid)

	// ErrDuplicate: a variant or an extension singleton appears twice (RFC 5646 §2.2.5, §2.2.6;
	// case-insensitive), which the atproto interop vectors reject.
	ErrDuplicate = fmt.Errorf("%w: repeated subtag", ErrInvalid)
)

// Error describes why an input was rejected. Its message names the input (at most 64 bytes
// of it, escaped), where the problem is and what it is, e.g.
//
//	invalid language tag "JA": "JA" at offset 0: the primary language subtag must be lower case
type Error struct {
	// Kind names what was being read: "language tag".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8
	// boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset in the input of the first offending byte, or -1 when the input
	// as a whole is at fault (for example an empty string).
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrLength, ErrSyntax or ErrDuplicate.
	Err error
}

// Error returns the message: "invalid <Kind> <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }
