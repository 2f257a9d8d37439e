// Package nsid parses atproto Namespaced Identifiers (NSIDs), the names of Lexicon schemas,
// record collections and XRPC methods, as in a handler that takes a collection:
//
//	collection, err := nsid.Parse(r.URL.Query().Get("collection"))
//	if err != nil {
//		http.Error(w, err.Error(), http.StatusBadRequest) // invalid NSID "app.bsky.feed.p@st": '@' at offset 15 is not allowed in an NSID
//		return
//	}
//	fmt.Println(collection.Authority(), collection.Name()) // app.bsky.feed post
//
// An NSID is a reversed domain name, the authority ("app.bsky.feed"), and a name ("post"), as
// https://atproto.com/specs/nsid defines them:
//
//   - ASCII letters, digits, '-' and '.' only; at most 317 characters in all;
//   - at least 3 segments separated by '.', each 1 to 63 characters;
//   - the authority's segments neither start nor end with '-', and the first one (the top-level
//     domain) does not start with a digit; later ones may ("org.4chan", "cn.8");
//   - the name is letters and digits only and does not start with a digit.
//
// The spec text also caps the authority at 253 characters, but the official valid vectors hold
// an NSID whose authority is 283 characters long ("com." and 40 "middle." segments), and the
// spec's own regular expression has no such cap: only the 317 total is applied. The glob form
// ("com.example.*") is a pattern, not an NSID, and is rejected.
//
// The authority is case-insensitive and the name is not: Normalize lowers the authority only,
// and two NSIDs name the same schema when their normalized forms are equal. Parse keeps the
// input as written (the spec asks implementations not to force lower case).
//
// Parse, Validate and IsValid never allocate on valid input (a table-driven loop, no regular
// expression); errors are *Error values matching the package's sentinels. Everything is safe for
// concurrent use.
package nsid

import "strings"

// MaxLen is the longest an NSID may be, in bytes.
const MaxLen = 317

// NSID is a valid NSID, or the zero value. It holds the input string (no copy) and where the
// name starts, so it is small, comparable with == (as written: compare Normalize'd values to
// ignore the authority's case), and usable as a map key.
//
// The zero NSID is not valid: IsValid reports false and String returns "".
type NSID struct {
	s    string
	name uint16 // offset of the name segment, after the last '.'
}

// Parse parses s as an NSID. The result holds s itself; Parse does not allocate unless s is
// invalid, in which case the error is an *Error matching ErrInvalid.
func Parse(s string) (NSID, error) {
	if dot := lastDot(s); dot > 0 {
		return NSID{s: s, name: uint16(dot + 1)}, nil
	}
	return NSID{}, invalid(s)
}

// MustParse is like Parse but panics on error. It is intended for use in tests and with
// hard-coded strings.
func MustParse(s string) NSID {
	n, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return n
}

// Validate returns nil if s is a valid NSID and otherwise the *Error Parse would return.
func Validate(s string) error {
	if lastDot(s) > 0 {
		return nil
	}
	return invalid(s)
}

// IsValid reports whether s is a valid NSID: Validate without the error, for callers that only
// branch on the answer. It never allocates.
func IsValid(s string) bool { return lastDot(s) > 0 }

// ValidateAt is Validate for an NSID found at byte offset base of a longer input, such as a
// repository path or an AT URI: the error's Offset and the offsets in its Reason count from the
// start of that input, so that the caller can report them as its own. Input and Len are s's.
func ValidateAt(s string, base int) error {
	if lastDot(s) > 0 {
		return nil
	}
	return invalidAt(s, base)
}

// ParseAt is Parse for an NSID found at byte offset base of a longer input, such as an AT URI:
// on failure, the error is the one ValidateAt(s, base) returns, so that a caller that needs the
// NSID and reports offsets in its own input builds one error, not two.
func ParseAt(s string, base int) (NSID, error) {
	if dot := lastDot(s); dot > 0 {
		return NSID{s: s, name: uint16(dot + 1)}, nil
	}
	return NSID{}, invalidAt(s, base)
}

// IsValid reports whether n is a valid NSID, that is, not the zero value.
func (n NSID) IsValid() bool { return n.name != 0 }

// String returns the NSID as it was parsed, or "" for the zero value.
func (n NSID) String() string { return n.s }

// Authority returns the domain authority, every segment but the last, as written:
// "app.bsky.feed" for app.bsky.feed.post. It is "" for the zero value.
func (n NSID) Authority() string {
	if n.name == 0 {
		return ""
	}
	return n.s[:n.name-1]
}

// Name returns the name, the last segment, as written: "post" for app.bsky.feed.post.
func (n NSID) Name() string { return n.s[n.name:] }

// Normalize returns n with its authority in lower case and its name unchanged, the form in which
// two NSIDs that name the same schema are equal. It allocates only when the authority has an
// upper-case letter.
func (n NSID) Normalize() NSID {
	auth := n.s[:n.name]
	for i := 0; i < len(auth); i++ {
		if c := auth[i]; 'A' <= c && c <= 'Z' {
			return NSID{s: strings.ToLower(auth) + n.s[n.name:], name: n.name}
		}
	}
	return n
}

// Compare returns an integer comparing n and m by their strings, byte by byte: -1, 0 or +1.
// The zero NSID sorts first.
func (n NSID) Compare(m NSID) int { return strings.Compare(n.s, m.s) }

// AppendText appends the NSID to b (encoding.TextAppender); the zero NSID appends nothing.
func (n NSID) AppendText(b []byte) ([]byte, error) { return append(b, n.s...), nil }

// MarshalText returns the NSID as text, so that an NSID is a JSON string; the zero NSID is "".
func (n NSID) MarshalText() ([]byte, error) { return []byte(n.s), nil }

// UnmarshalText parses text with Parse. Empty text sets the zero NSID, as MarshalText writes it
// (as net/netip's types do), so that a zero value reads back; Parse refuses empty text.
func (n *NSID) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*n = NSID{}
		return nil
	}
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*n = p
	return nil
}
