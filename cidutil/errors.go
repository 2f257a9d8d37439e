package cidutil

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors. Every error the package returns is an *Error that wraps one of them; test with
// errors.Is.
var (
	// ErrInvalid: the input is not a well-formed CIDv1 (binary or string). CIDv0 is never valid
	// (DECISIONS rule 12).
	ErrInvalid = errors.New("invalid CID")

	// ErrNotBlessed: the CID may be well formed but is not in the blessed form of DECISIONS rule 12
	// (CIDv1, dag-cbor or raw, sha2-256 with 32 bytes, canonical base32 "b…" string).
	ErrNotBlessed = errors.New("CID not in the blessed form")

	// ErrMismatch: the data does not hash to the CID it was checked against.
	ErrMismatch = errors.New("data does not match CID")

	// ErrUnsupported: the CID's hash function cannot be recomputed by this package (only sha2-256 is).
	ErrUnsupported = errors.New("unsupported CID hash function")
)

// Error reports what was wrong with a CID and where.
type Error struct {
	Func   string // the function that failed, e.g. "ParseBinary"
	Input  string // the string input, for string parsers; "" for binary input
	Err    error  // the rule broken: one of the Err* sentinels
	Offset int    // byte offset in the input where the problem was found; -1 if none
	Detail string // what exactly was wrong
	Cause  error  // optional underlying error, e.g. the ErrInvalid behind an ErrNotBlessed

	fromString bool // Input is meaningful (string parsers), even when empty
}

// maxQuotedInput bounds how much of an untrusted input an error message repeats.
const maxQuotedInput = 64

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("cidutil.")
	b.WriteString(e.Func)
	if e.fromString {
		in := e.Input
		b.WriteString("(")
		if len(in) > maxQuotedInput {
			b.WriteString(strconv.Quote(in[:maxQuotedInput]))
			b.WriteString("...")
		} else {
			b.WriteString(strconv.Quote(in))
		}
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Offset >= 0 {
		b.WriteString(" (at byte ")
		b.WriteString(strconv.Itoa(e.Offset))
		b.WriteString(")")
	}
	if e.Cause != nil {
		b.WriteString(": ")
		var inner *Error
		if errors.As(e.Cause, &inner) {
			// Repeat only the reason, not the inner function name and input again.
			b.WriteString(inner.reason())
		} else {
			b.WriteString(e.Cause.Error())
		}
	}
	return b.String()
}

// reason is the message without the function name and input.
func (e *Error) reason() string {
	s := e.Err.Error()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Offset >= 0 {
		s += " (at byte " + strconv.Itoa(e.Offset) + ")"
	}
	return s
}

// Unwrap returns the sentinel and, if there is one, the underlying cause, so errors.Is matches both.
func (e *Error) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}
