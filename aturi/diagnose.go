package aturi

import (
	"fmt"
	"strings"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
)

func clip(s string) string { return echo.Clip(s) }

// invalid builds the error of an invalid s: it finds the first problem, with offsets in s.
// Kept out of line, and only run on failure, so that Parse stays a straight scan.
//
//go:noinline
func invalid(s string) error {
	e := &Error{Kind: "AT URI", Input: echo.Clip(s), Len: len(s), Offset: -1}
	e.Offset, e.Reason, e.Err, e.part = problem(s)
	return e
}

// partError builds Parse's error for s from the error of the part that failed (atident.ParseAt
// or nsid.ParseAt, whose offsets already count in s): the same error invalid would build, without
// diagnosing the part a second time. A query or fragment is reported first, as problem does (a
// '?' or '#' makes the part it is in fail); then the part's error is discarded, the one case where
// two errors are built.
//
//go:noinline
func partError(s string, err error) error {
	if strings.ContainsAny(s, "?#") {
		return invalid(s)
	}
	e := &Error{Kind: "AT URI", Input: echo.Clip(s), Len: len(s), part: err}
	switch pe := err.(type) {
	case *atident.Error:
		e.Offset, e.Reason, e.Err = pe.Offset, "authority: "+pe.Reason, ErrAuthority
	case *nsid.Error:
		e.Offset, e.Reason, e.Err = pe.Offset, "collection: "+pe.Reason, ErrCollection
	default: // unreachable: the parts return their *Error
		e.Offset, e.Reason, e.Err = -1, err.Error(), ErrInvalid
	}
	return e
}

// problem explains why s is not an AT URI; s must be invalid.
func problem(s string) (offset int, reason string, sentinel, part error) {
	if s == "" {
		return -1, "empty; an AT URI looks like at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g", ErrLength, nil
	}
	if len(s) > MaxLen {
		return MaxLen, fmt.Sprintf("%d bytes long; an AT URI has at most %d", len(s), MaxLen), ErrLength, nil
	}
	for i := 0; i < len(scheme); i++ {
		if i == len(s) || s[i] != scheme[i] {
			return 0, `does not start with "at://" (lower case)`, ErrScheme, nil
		}
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		return i, fmt.Sprintf("%s at offset %d: an at-uri has no query or fragment part", echo.QuoteAt(s, i), i), ErrQuery, nil
	}
	base := len(scheme)
	rest := s[base:]
	authority, rest, more := strings.Cut(rest, "/")
	if err := atident.ValidateAt(authority, base); err != nil {
		ae := err.(*atident.Error)
		return ae.Offset, "authority: " + ae.Reason, ErrAuthority, err
	}
	base += len(authority) + 1
	collection, rest, more2 := strings.Cut(rest, "/")
	switch {
	case !more:
		return -1, "rejected", ErrInvalid, nil // unreachable: the authority alone is valid
	case collection == "" && !more2:
		return base - 1, fmt.Sprintf("trailing '/' at offset %d", base-1), ErrPath, nil
	case collection == "":
		return base, fmt.Sprintf("empty path segment at offset %d", base), ErrPath, nil
	}
	if err := nsid.ValidateAt(collection, base); err != nil {
		ne := err.(*nsid.Error)
		return ne.Offset, "collection: " + ne.Reason, ErrCollection, err
	}
	base += len(collection) + 1
	if !more2 {
		return -1, "rejected", ErrInvalid, nil // unreachable
	}
	key := rest
	if key == "" {
		return base - 1, fmt.Sprintf("trailing '/' at offset %d", base-1), ErrPath, nil
	}
	if i := strings.IndexByte(key, '/'); i >= 0 {
		return base + i, fmt.Sprintf("'/' at offset %d: an at-uri path has at most two segments, collection and record key", base+i), ErrPath, nil
	}
	if err := rkey.ValidateAt(key, base); err != nil {
		re := err.(*rkey.Error)
		return re.Offset, "record key: " + re.Reason, ErrRecordKey, err
	}
	return -1, "rejected", ErrInvalid, nil // unreachable
}
