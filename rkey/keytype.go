package rkey

import (
	"errors"
	"fmt"
	"strings"

	"github.com/atcore/atcore/internal/base32sort"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/tid"
)

// KeyType is the record key type a Lexicon record schema names in its "key" field
// (DECISIONS rule 3): tid, nsid, any, or literal:<value>. It is a small comparable value.
//
// The zero KeyType is Any: Check then accepts every valid record key, which is the baseline
// that every key type adds to.
type KeyType struct {
	kind    keyKind
	literal string // the value of a literal:<value> type
}

type keyKind uint8

const (
	kindAny keyKind = iota // zero value
	kindTID
	kindNSID
	kindLiteral
)

// literalPrefix starts the key type of a collection with one well-known key ("literal:self").
const literalPrefix = "literal:"

// The key types that take no value.
var (
	// Any accepts every valid record key (https://atproto.com/specs/record-key, "Record Key Type: any").
	Any = KeyType{kind: kindAny}
	// TID accepts keys that are TIDs: 13 characters matching
	// ^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$ (DECISIONS rule 4).
	TID = KeyType{kind: kindTID}
	// NSID accepts keys that are NSIDs, such as app.bsky.feed.post (DECISIONS rule 3).
	NSID = KeyType{kind: kindNSID}
)

// Literal returns the key type literal:<value>, which accepts only the key value itself.
// value must be a valid record key; the error otherwise matches ErrKeyType.
func Literal(value string) (KeyType, error) {
	if !IsValid(value) {
		// Report the type as a schema would spell it, without copying a huge value.
		e := literalError(literalPrefix+echo.Clip(value), value)
		e.Len = len(literalPrefix) + len(value)
		return KeyType{}, e
	}
	return KeyType{kind: kindLiteral, literal: value}, nil
}

// literalError reports the invalid value of the key type s = "literal:<value>". It matches only
// ErrKeyType: a bad schema is not a bad request, so it must not match ErrInvalid.
func literalError(s, value string) *Error {
	off, reason, _ := keyProblem(value, len(literalPrefix))
	return newError("record key type", s, off, ErrKeyType, "literal value: "+reason)
}

// ParseKeyType parses the value of a Lexicon record's "key" field: "tid", "nsid", "any" or
// "literal:<value>" where <value> is a valid record key. Matching is case-sensitive. Errors
// match ErrKeyType.
func ParseKeyType(s string) (KeyType, error) {
	switch s {
	case "tid":
		return TID, nil
	case "nsid":
		return NSID, nil
	case "any":
		return Any, nil
	}
	if value, ok := strings.CutPrefix(s, literalPrefix); ok {
		if !IsValid(value) {
			return KeyType{}, literalError(s, value)
		}
		return KeyType{kind: kindLiteral, literal: value}, nil
	}
	return KeyType{}, newError("record key type", s, -1, ErrKeyType,
		"want tid, nsid, any or literal:<record key>")
}

// MustParseKeyType is like ParseKeyType but panics on error. It is intended for use in tests
// and with hard-coded strings.
func MustParseKeyType(s string) KeyType {
	t, err := ParseKeyType(s)
	if err != nil {
		panic(err)
	}
	return t
}

// String returns the type as a Lexicon writes it: "tid", "nsid", "any" or "literal:<value>".
func (t KeyType) String() string {
	switch t.kind {
	case kindTID:
		return "tid"
	case kindNSID:
		return "nsid"
	case kindLiteral:
		return literalPrefix + t.literal
	}
	return "any"
}

// LiteralValue returns the value of a literal:<value> type and true, or "" and false for the
// other types.
func (t KeyType) LiteralValue() (string, bool) {
	return t.literal, t.kind == kindLiteral
}

// AppendText appends the String form of t to b (encoding.TextAppender).
func (t KeyType) AppendText(b []byte) ([]byte, error) {
	if t.kind == kindLiteral {
		return append(append(b, literalPrefix...), t.literal...), nil
	}
	return append(b, t.String()...), nil
}

// MarshalText returns the String form of t, so that a KeyType is a JSON string.
func (t KeyType) MarshalText() ([]byte, error) {
	return t.AppendText(nil)
}

// UnmarshalText parses text with ParseKeyType, so that a schema's "key" field can be decoded
// into a KeyType directly.
func (t *KeyType) UnmarshalText(text []byte) error {
	parsed, err := ParseKeyType(string(text))
	if err != nil {
		return err
	}
	*t = parsed
	return nil
}

// Check returns nil if key is a valid record key of type t. Otherwise the error matches
// ErrInvalid and either a syntax sentinel (ErrLength, ErrCharacter, ErrReserved) or
// ErrTypeMismatch. It does not allocate when key is accepted.
func (t KeyType) Check(key string) error {
	if err := Validate(key); err != nil {
		return err
	}
	switch t.kind {
	case kindTID:
		if _, ok := base32sort.Decode13(key); !ok {
			off, reason := tidProblem(key)
			return newError("record key", key, off, ErrTypeMismatch, "key type tid: "+reason)
		}
	case kindNSID:
		if err := nsid.Validate(key); err != nil {
			ne := err.(*nsid.Error)
			e := newError("record key", key, ne.Offset, ErrTypeMismatch, "key type nsid: "+ne.Reason)
			e.part = ne.Err
			return e
		}
	case kindLiteral:
		if key != t.literal {
			return newError("record key", key, -1, ErrTypeMismatch,
				fmt.Sprintf("key type %s accepts only %q", t, t.literal))
		}
	}
	return nil
}

// tidProblem explains why key, a valid record key, is not a TID, in the words of package tid, so
// that the two report the same input the same way (the length first).
func tidProblem(key string) (offset int, reason string) {
	_, err := tid.Parse(key)
	var e *tid.Error
	if !errors.As(err, &e) { // unreachable: Check calls this only when key is no TID
		return -1, "not a TID"
	}
	return e.Offset, e.Reason
}
