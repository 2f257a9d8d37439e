package aturi

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors. Every error this package returns is an *Error whose chain contains ErrInvalid
// and one of the others; an error about a part (authority, collection, record key) also matches
// the sentinels of that part's package (atident and did or handle, nsid, rkey).
var (
	// ErrInvalid matches every error that rejects an AT URI.
	ErrInvalid = errors.New("invalid AT URI")

	// ErrLength: the URI is empty or longer than MaxLen bytes.
	ErrLength = fmt.Errorf("%w: length out of range", ErrInvalid)

	// ErrScheme: the URI does not start with "at://".
	ErrScheme = fmt.Errorf("%w: not at://", ErrInvalid)

	// ErrQuery: the URI has a query ('?') or a fragment ('#'), which the Lexicon at-uri format
	// does not allow.
	ErrQuery = fmt.Errorf("%w: query or fragment", ErrInvalid)

	// ErrPath: an empty path segment (a trailing or doubled '/'), or more than two segments.
	ErrPath = fmt.Errorf("%w: bad path", ErrInvalid)

	// ErrAuthority: the authority is neither a DID nor a handle.
	ErrAuthority = fmt.Errorf("%w: bad authority", ErrInvalid)

	// ErrCollection: the first path segment is not an NSID.
	ErrCollection = fmt.Errorf("%w: bad collection", ErrInvalid)

	// ErrRecordKey: the second path segment is not a record key.
	ErrRecordKey = fmt.Errorf("%w: bad record key", ErrInvalid)
)

// Error describes why an input is not an AT URI. Its message names the input (at most 64
// bytes of it, escaped), where the problem is and what it is, with offsets in the whole URI:
//
//	invalid AT URI "at://did:plc:asdf123/com.atproto.feed.p@st": collection: '@' at offset 39 is not allowed in an NSID
type Error struct {
	// Kind names what was being checked: "AT URI".
	Kind string
	// Input holds the first 64 bytes of the input at most (a copy, cut at a UTF-8 boundary).
	Input string
	// Len is the length in bytes of the whole input.
	Len int
	// Offset is the byte offset in the URI of the first offending byte, or -1 when the URI or a
	// part as a whole is at fault (an empty input, a collection of one segment). An empty
	// authority has a place in the URI: its Offset is 5, after "at://".
	Offset int
	// Reason says what is wrong, with the offset where there is one.
	Reason string
	// Err is the sentinel the error matches: ErrLength, ErrScheme, ErrQuery, ErrPath,
	// ErrAuthority, ErrCollection or ErrRecordKey.
	Err error

	part error // the error of the part at fault, for its sentinels
}

// Error returns the message: "invalid AT URI <quoted input>: <Reason>".
func (e *Error) Error() string { return echo.Message(e.Kind, e.Input, e.Len, e.Reason) }

// Unwrap returns the sentinel and, for a part at fault, that part's error, for errors.Is.
func (e *Error) Unwrap() []error {
	if e.part != nil {
		return []error{e.Err, e.part}
	}
	return []error{e.Err}
}
