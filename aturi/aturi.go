// Package aturi parses AT URIs, the at:// references to repositories, collections and records,
// in the strict form that Lexicon "at-uri" fields take (https://atproto.com/specs/at-uri-scheme,
// "Restricted AT URI Syntax"):
//
//	at://AUTHORITY[/COLLECTION[/RKEY]]
//
// where AUTHORITY is a DID or a handle (package atident), COLLECTION an NSID (package nsid) and
// RKEY a record key (package rkey). A handler that takes a strongRef's uri:
//
//	u, err := aturi.Parse(ref.URI)
//	if err != nil {
//		return err // invalid AT URI "at://did:plc:asdf123/": trailing '/' at offset 20
//	}
//	repo, collection, key := u.Authority(), u.Collection(), u.RecordKey()
//
// What the spec's full syntax allows beyond that is rejected: a query ('?') or fragment ('#')
// part, more than two path segments, percent-encoding (except inside a DID, whose syntax allows
// it), a trailing '/', userinfo ('@') and ports.
// The Lexicon form is what records and XRPC parameters hold; the full syntax is reserved for
// future use ("not currently used"), and the official vectors reject fragments and longer paths
// in the at-uri format. A URI that parses here is also valid in the full syntax.
//
// Parse accepts the parts as they are written; Normalize returns the normalized form the spec
// asks records to store (a handle authority and an NSID's authority in lower case; DIDs and
// record keys are case-sensitive). New builds a URI from typed parts.
//
// Parse never allocates on valid input (the URI holds the input and its parts are substrings of
// it); errors are *Error values whose offsets count in the whole URI and that match the
// package's sentinels and the part's. Everything is safe for concurrent use.
package aturi

import (
	"strings"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
)

// MaxLen is the longest an AT URI may be, in bytes: 8 KiB, the limit of the full syntax. With
// the limits of its parts (DID 2048, NSID 317, record key 512), a URI of the strict form is at
// most 2884 bytes; the cap lets Parse refuse a huge input before looking at it.
const MaxLen = 8192

const scheme = "at://"

// URI is a valid AT URI, or the zero value. It holds the input string (no copy) and its parsed
// parts, which are substrings of it; it is comparable with == (as written: compare Normalize'd
// URIs to ignore the case of handles and NSID authorities).
//
// The zero URI is not valid: IsValid reports false and String returns "".
type URI struct {
	s    string
	auth atident.ID
	coll nsid.NSID
	key  uint16 // offset of the record key, 0 if there is none
}

// Parse parses s as an AT URI of the Lexicon at-uri form. The result holds s itself; Parse does
// not allocate unless s is invalid, in which case the error is an *Error matching ErrInvalid.
func Parse(s string) (URI, error) {
	if len(s) > MaxLen || !strings.HasPrefix(s, scheme) {
		return URI{}, invalid(s)
	}
	rest := s[len(scheme):]
	slash := strings.IndexByte(rest, '/')
	authority := rest
	if slash >= 0 {
		authority = rest[:slash]
	}
	// The parts are parsed at their offsets in s, so that a part's error is the one to report,
	// built once (partError), not built and thrown away before invalid diagnoses s again.
	auth, err := atident.ParseAt(authority, len(scheme))
	if err != nil {
		return URI{}, partError(s, err)
	}
	u := URI{s: s, auth: auth}
	if slash < 0 {
		return u, nil
	}
	rest = rest[slash+1:]
	start := len(s) - len(rest)
	slash = strings.IndexByte(rest, '/')
	collection := rest
	if slash >= 0 {
		collection = rest[:slash]
	}
	if collection == "" { // a path error ('/' trailing or doubled), not an NSID's
		return URI{}, invalid(s)
	}
	if u.coll, err = nsid.ParseAt(collection, start); err != nil {
		return URI{}, partError(s, err)
	}
	if slash < 0 {
		return u, nil
	}
	key := rest[slash+1:]
	if !rkey.IsValid(key) {
		return URI{}, invalid(s)
	}
	u.key = uint16(start + slash + 1)
	return u, nil
}

// MustParse is like Parse but panics on error. It is intended for use in tests and with
// hard-coded strings.
func MustParse(s string) URI {
	u, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// Validate returns nil if s is a valid AT URI and otherwise the *Error Parse would return.
func Validate(s string) error {
	_, err := Parse(s)
	return err
}

// IsValid reports whether s is a valid AT URI of the Lexicon at-uri form: Validate without the
// error, for callers that only branch on the answer. It never allocates.
func IsValid(s string) bool {
	if len(s) > MaxLen || !strings.HasPrefix(s, scheme) {
		return false
	}
	authority, rest, more := strings.Cut(s[len(scheme):], "/")
	if !atident.IsValid(authority) {
		return false
	}
	if !more {
		return true
	}
	collection, key, more := strings.Cut(rest, "/")
	return nsid.IsValid(collection) && (!more || rkey.IsValid(key))
}

// New builds the URI at://authority[/collection[/key]] from its parts: a zero collection means
// none, and so does an empty key. The key, if any, must be a valid record key and needs a
// collection. Parts are used as written (see Normalize). New allocates the URI's string.
func New(authority atident.ID, collection nsid.NSID, key string) (URI, error) {
	if !authority.IsValid() {
		return URI{}, &Error{Kind: "AT URI", Offset: -1, Err: ErrAuthority, Reason: "no authority: the DID or handle is the zero value"}
	}
	s := scheme + authority.String()
	if collection.IsValid() {
		s += "/" + collection.String()
	} else if key != "" {
		return URI{}, &Error{Kind: "AT URI", Input: clip(s), Len: len(s), Offset: -1, Err: ErrPath, Reason: "a record key needs a collection"}
	}
	if key != "" {
		s += "/" + key
	}
	return Parse(s)
}

// IsValid reports whether u is a valid AT URI, that is, not the zero value.
func (u URI) IsValid() bool { return u.auth.IsValid() }

// String returns the URI as parsed or built, or "" for the zero URI.
func (u URI) String() string { return u.s }

// Authority returns the authority: a DID or a handle.
func (u URI) Authority() atident.ID { return u.auth }

// Collection returns the collection, or the zero NSID if the URI has no path.
func (u URI) Collection() nsid.NSID { return u.coll }

// RecordKey returns the record key, or "" if the URI has none. It is a valid record key
// (rkey.Validate accepts it); which key type the collection's Lexicon asks for is not known here.
func (u URI) RecordKey() string {
	if u.key == 0 {
		return ""
	}
	return u.s[u.key:]
}

// Normalize returns u in the normalized form that https://atproto.com/specs/at-uri-scheme asks
// records to use: a handle authority in lower case, the collection's authority in lower case,
// the DID and the record key (both case-sensitive) unchanged. It allocates only when something
// changes.
func (u URI) Normalize() URI {
	auth, coll := u.auth.Normalize(), u.coll.Normalize()
	if auth == u.auth && coll == u.coll {
		return u
	}
	n, err := New(auth, coll, u.RecordKey())
	if err != nil {
		panic("aturi: normalizing a valid URI: " + err.Error()) // unreachable: the parts are valid
	}
	return n
}

// Compare returns an integer comparing u and v by their strings, byte by byte: -1, 0 or +1.
// The zero URI sorts first.
func (u URI) Compare(v URI) int { return strings.Compare(u.s, v.s) }

// AppendText appends the URI to b (encoding.TextAppender); the zero URI appends nothing.
func (u URI) AppendText(b []byte) ([]byte, error) { return append(b, u.s...), nil }

// MarshalText returns the URI as text, so that a URI is a JSON string.
func (u URI) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText parses text with Parse. Empty text sets the zero URI, as MarshalText writes it
// (as net/netip's types do), so that a zero value reads back; Parse refuses empty text.
func (u *URI) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*u = URI{}
		return nil
	}
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*u = p
	return nil
}
