package cidutil

import (
	"errors"
	"strconv"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error the package returns is an *Error that wraps one of them (but for
// the io.Reader's own errors, which SumRawReader and VerifyReader return as they are); test with
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

// Kinds of input an *Error names.
const (
	kindString = "CID"        // a CID string: ParseString, ParseBlessed, CheckSyntax
	kindBinary = "binary CID" // a binary CID: ParseBinary, ParseKeyString, and the CIDs Verify checks
)

// Error reports what was wrong with a CID and where. Its message reads like every syntax error of
// the module, "invalid <Kind> "<Input>": <Reason>", e.g.
//
//	invalid CID "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR": CIDv0 (base58btc "Qm…") is not allowed, want CIDv1 (offset 0)
//
// A binary input is not echoed, only its length ("invalid binary CID of 5 bytes: …"); the errors
// of Verify and VerifyReader, which are about data rather than syntax, read "<sentinel>: <Reason>".
type Error struct {
	// Kind names what was being read: "CID" for a string, "binary CID" for bytes, "" for the
	// data Verify checks.
	Kind string
	// Input holds at most the first 64 bytes of a string input (a copy, cut at a UTF-8 boundary);
	// it is "" for binary input.
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset in the input where the problem was found, -1 if none. (A problem
	// in the bytes a string decodes to has no offset in the string: the reason gives the offset
	// in the decoded bytes.)
	Offset int
	// Reason says what exactly is wrong, with the offset where there is one.
	Reason string
	// Err is the rule broken: one of the Err* sentinels.
	Err error
	// Cause is the underlying error, if any: the ErrInvalid behind an ErrNotBlessed, or go-cid's
	// error for a multibase this package does not decode itself.
	Cause error
}

// Error returns the message: "invalid <Kind> <quoted input>: <Reason>".
func (e *Error) Error() string {
	switch e.Kind {
	case kindString:
		return echo.Message(e.Kind, e.Input, e.Len, e.Reason)
	case kindBinary:
		return "invalid binary CID of " + nBytes(uint64(e.Len)) + ": " + e.Reason
	}
	if e.Err == nil { // an Error built by hand without its sentinel
		return "cidutil: " + e.Reason
	}
	return e.Err.Error() + ": " + e.Reason
}

// Unwrap returns the sentinel and, if there is one, the underlying cause, so errors.Is matches both.
func (e *Error) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// invalid starts an ErrInvalid error for a problem at byte off (-1 for none); done completes it.
func invalid(off int, detail string) *Error {
	return &Error{Err: ErrInvalid, Offset: off, Reason: detail}
}

// done completes e, built deep inside a parser, with what was read: the kind, a bounded copy of a
// string input (binary input is not kept), the input's length; the offset goes into the reason,
// and so does the reason of a Cause that is itself an *Error. It returns e.
func (e *Error) done(kind, input string, n int) *Error {
	e.Kind, e.Input, e.Len = kind, echo.Clip(input), n
	if e.Offset >= 0 {
		e.Reason += " (offset " + strconv.Itoa(e.Offset) + ")"
	}
	var inner *Error
	if errors.As(e.Cause, &inner) {
		if inner.Offset >= 0 {
			inner.Reason += " (offset " + strconv.Itoa(inner.Offset) + ")"
		}
		e.Reason += inner.Reason
		inner.Kind, inner.Input, inner.Len = kind, e.Input, n
	} else if e.Cause != nil {
		e.Reason += ": " + e.Cause.Error()
	}
	return e
}
