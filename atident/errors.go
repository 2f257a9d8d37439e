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
// most 64 bytes of it, escaped) and what is wrong with it as the one it was taken for:
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
	// at fault (an empty input, a single label). Offsets count from the base given to ValidateAt, where an
	// empty input has a place in the longer one: its Offset is base.
	Offset int
	// Reason says what is wrong: "DID: " or "handle: " and that package's reason.
	Reason string
	// Err is ErrInvalid.
	Err error

	part error // the *did.Error or *handle.Error, when one of them found the problem
}

// Error returns the message: "invalid at-identifier <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns ErrInvalid and, when did.Parse or handle.Parse found the problem, that
// package's *Error: errors.Is matches its sentinels and errors.As finds it.
func (e *Error) Unwrap() []error { return []error{e.Err, e.part} }

// fromPart builds Parse's error for s from the error of did.Parse or handle.Parse, which found
// the problem already (at base 0, as Parse's own offsets are): the one error built on the way
// out is wrapped, not diagnosed a second time.
//
//go:noinline
func fromPart(s string, err error) *Error {
	e := &Error{Kind: "at-identifier", Input: echo.Clip(s), Len: len(s), Err: ErrInvalid}
	switch pe := err.(type) {
	case *did.Error:
		e.Offset, e.Reason, e.part = pe.Offset, "DID: "+pe.Reason, pe
	case *handle.Error:
		e.Offset, e.Reason, e.part = pe.Offset, "handle: "+pe.Reason, pe
	default: // unreachable: did and handle return only their *Error
		e.Offset, e.Reason, e.part = -1, err.Error(), err
	}
	return e
}

// invalidAt builds the error for s, which is not an at-identifier, found at offset base of a
// longer input (or on its own, for Parse). An input that starts with "did:" in any case is
// reported as a DID (so that "DID:plc:…" hears about the prefix's case, not about ':' in a
// handle).
//
//go:noinline
func invalidAt(s string, base int) *Error {
	if len(s) >= 4 && strings.EqualFold(s[:4], "did:") {
		return fromPart(s, did.ValidateAt(s, base))
	}
	return fromPart(s, handle.ValidateAt(s, base))
}
