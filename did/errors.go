package did

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain contains ErrInvalid
// and one of the others (ErrInvalid alone when CheckPLC or WebHost is called on the zero DID), so
// callers branch with errors.Is and read details with errors.As.
var (
	// ErrInvalid matches every error that rejects a DID, for its syntax or, from CheckPLC and
	// WebHost, for its method's rules.
	ErrInvalid = errors.New("invalid DID")

	// ErrLength: the DID is empty or longer than MaxLen bytes.
	ErrLength = fmt.Errorf("%w: length out of range", ErrInvalid)

	// ErrPrefix: the DID does not start with lower-case "did:".
	ErrPrefix = fmt.Errorf("%w: no did: prefix", ErrInvalid)

	// ErrMethod: the method is not one or more lower-case letters followed by ':', or (from
	// CheckPLC and WebHost) it is not the method asked for.
	ErrMethod = fmt.Errorf("%w: bad method", ErrInvalid)

	// ErrCharacter: a byte of the method-specific identifier other than A-Za-z0-9 . _ : % -.
	ErrCharacter = fmt.Errorf("%w: character not allowed", ErrInvalid)

	// ErrEnd: the identifier is empty, or ends with ':' or '%'.
	ErrEnd = fmt.Errorf("%w: bad ending", ErrInvalid)

	// ErrPLC: a did:plc whose identifier is not 24 characters of base32 (a-z, 2-7).
	ErrPLC = fmt.Errorf("%w: not a did:plc", ErrInvalid)

	// ErrWeb: a did:web whose identifier is not a usable host name (with a port only for
	// localhost).
	ErrWeb = fmt.Errorf("%w: not a did:web host", ErrInvalid)
)

// Error describes why an input is not a DID. Its message names the input (at most 64
// bytes of it, escaped), where the problem is and what it is, e.g.
//
//	invalid DID "did:METHOD:val": 'M' at offset 4: the method is lower-case letters only, then ':'
type Error struct {
	// Kind names what was being checked: "DID".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset of the first offending byte, or -1 when the DID as a whole is
	// at fault (an empty input, no ':' after the method). Offsets count from the base given to ValidateAt, where an
	// empty input has a place in the longer one: its Offset is base.
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrLength, ErrPrefix, ErrMethod, ErrCharacter,
	// ErrEnd, ErrPLC or ErrWeb; ErrInvalid itself when CheckPLC or WebHost is called on the zero
	// DID, which is no DID at all.
	Err error
}

// Error returns the message: "invalid DID <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }
