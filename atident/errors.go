package atident

import (
	"errors"
	"strings"

	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/internal/echo"
)

// ErrInvalid matches every error that rejects an at-identifier. The error also matches the
// sentinels of the part at fault: did.ErrInvalid and one of its kind (did.ErrMethod, …) for an
// input that starts like a DID, handle.ErrInvalid and one of its kind otherwise.
var ErrInvalid = errors.New("invalid at-identifier")

// Error describes why an input is neither a DID nor a handle. Its message names the input (at
// most echo.Max bytes of it, escaped) and what is wrong with it as the one it was taken for:
//
//	invalid at-identifier "did:plc:": DID: empty method-specific identifier
type Error struct {
	// Kind names what was being checked: "at-identifier".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset of the first offending byte, or -1 when the input as a whole is
	// at fault. Offsets count from the base given to ValidateAt.
	Offset int
	// Reason says what is wrong: "DID: " or "handle: " and that package's reason.
	Reason string
	// Err is ErrInvalid.
	Err error

	part error // the did or handle error's sentinel
}

// Error returns the message: "invalid at-identifier <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns ErrInvalid and the sentinel of the did or handle package, for errors.Is.
func (e *Error) Unwrap() []error { return []error{e.Err, e.part} }

// invalidAt builds the error for s, which is not an at-identifier, found at offset base of a
// longer input. An input that starts with "did:" in any case is reported as a DID (so that
// "DID:plc:…" hears about the prefix's case, not about ':' in a handle).
//
//go:noinline
func invalidAt(s string, base int) *Error {
	e := &Error{Kind: "at-identifier", Input: echo.Clip(s), Len: len(s), Err: ErrInvalid}
	var err error
	if len(s) >= 4 && strings.EqualFold(s[:4], "did:") {
		err = did.ValidateAt(s, base)
		de := err.(*did.Error)
		e.Offset, e.Reason, e.part = de.Offset, "DID: "+de.Reason, de.Err
	} else {
		err = handle.ValidateAt(s, base)
		he := err.(*handle.Error)
		e.Offset, e.Reason, e.part = he.Offset, "handle: "+he.Reason, he.Err
	}
	return e
}
