package rkey

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain contains one of
// these, so callers branch with errors.Is and read details with errors.As.
var (
	// ErrInvalid matches every error that rejects a record key: bad syntax (ErrLength,
	// ErrCharacter, ErrReserved) or a key of the wrong Lexicon type (ErrTypeMismatch).
	// An HTTP handler can answer 400 to all of them.
	ErrInvalid = errors.New("invalid record key")

	// ErrLength: the key is empty or longer than MaxLen bytes (DECISIONS rule 1).
	ErrLength = fmt.Errorf("%w: length out of range", ErrInvalid)

	// ErrCharacter: the key holds a byte outside A-Za-z0-9 and . - _ : ~ (DECISIONS rule 1).
	ErrCharacter = fmt.Errorf("%w: character not allowed", ErrInvalid)

	// ErrReserved: the key is "." or "..", which are never record keys (DECISIONS rule 2).
	ErrReserved = fmt.Errorf("%w: reserved name", ErrInvalid)

	// ErrTypeMismatch: the key is well-formed but not of the Lexicon key type asked for
	// (not a TID, not an NSID, not the literal value). For the nsid type the error also matches
	// the sentinel of package nsid that says why (nsid.ErrInvalid and e.g. nsid.ErrSegment).
	ErrTypeMismatch = fmt.Errorf("%w: wrong key type", ErrInvalid)

	// ErrKeyType: a Lexicon key type string is none of tid, nsid, any, literal:<valid key>.
	// It is a schema error, not a request error, so it does not match ErrInvalid.
	ErrKeyType = errors.New("invalid record key type")

	// ErrPath: a repository path is not <collection NSID>/<record key>. When the record key
	// part is at fault, the error also matches that key's sentinel (e.g. ErrCharacter); when
	// the collection is, the NSID's (e.g. nsid.ErrCharacter), and errors.As finds the NSID's
	// *nsid.Error, as it does through an AT URI's error.
	ErrPath = errors.New("invalid repository path")
)

// MaxEcho is the most bytes of an input that an *Error keeps and prints, so that an error
// made from a huge hostile input stays small enough to log or send back.
const MaxEcho = echo.Max

// Error describes why an input was rejected. Its message names the input (at most MaxEcho
// bytes of it, escaped), where the problem is and what it is, e.g.
//
//	invalid record key "a/b": '/' at offset 1 is not allowed
//
// and is fit to send back as the body of an HTTP 400 response.
type Error struct {
	// Kind names what was being checked: "record key", "record key type" or "repository path".
	Kind string
	// Input holds the first MaxEcho bytes of the input at most (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset in the input of the first offending byte, or -1 when the input
	// as a whole is at fault (for example an empty key). ValidateAt counts from its base, where
	// an empty key has a place in the longer input: its Offset is base.
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrLength, ErrCharacter, ErrReserved,
	// ErrTypeMismatch, ErrKeyType or ErrPath.
	Err error

	// part is the error of the part at fault: the record key's sentinel, the collection's
	// *nsid.Error, or the sentinel of the NSID that a key of the nsid type is not.
	part error
}

// Error returns the message: "invalid <Kind> <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinels the error matches, for errors.Is.
func (e *Error) Unwrap() []error {
	if e.part != nil {
		return []error{e.Err, e.part}
	}
	return []error{e.Err}
}

// newError builds an *Error, keeping only a bounded copy of input.
func newError(kind, input string, offset int, sentinel error, reason string) *Error {
	return &Error{
		Kind:   kind,
		Input:  echo.Clip(input),
		Len:    len(input),
		Offset: offset,
		Reason: reason,
		Err:    sentinel,
	}
}
