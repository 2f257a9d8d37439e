// Package did parses atproto DIDs, the persistent identifiers of accounts, as in a handler that
// takes one:
//
//	d, err := did.Parse(r.URL.Query().Get("did"))
//	if err != nil {
//		http.Error(w, err.Error(), http.StatusBadRequest) // invalid DID "did:plc:": empty method-specific identifier
//		return
//	}
//	fmt.Println(d.Method(), d.Identifier()) // plc ewvi7nxzyoun6zhxrhs64oiz
//
// Parse checks the general DID syntax of https://atproto.com/specs/did, which is what a Lexicon
// "did" field takes, whatever the method:
//
//   - lower-case "did:", then a method of one or more lower-case letters, then ':';
//   - then the method-specific identifier: A-Za-z0-9 and . _ : % - only, not empty, not
//     ending with ':' or '%';
//   - at most 2048 characters in all; case-sensitive (there is no normalization).
//
// Like the spec's regular expression, Parse does not check that each '%' is followed by two hex
// digits: the spec says implementations need not, and that a DID with bad percent-encoding
// fails at registration and resolution instead. Query ('?'), fragment ('#') and path ('/')
// parts are not part of a DID and are rejected.
//
// atproto supports two "blessed" methods, each with its own rules, checked by separate calls on
// a parsed DID: CheckPLC (did:plc with exactly 24 base32 characters) and WebHost (did:web: the
// host name, with a port only for localhost).
//
// Parse, Validate and IsValid never allocate on valid input; errors are *Error values matching
// the package's sentinels. Everything is safe for concurrent use.
package did

import "strings"

// MaxLen is the longest a DID may be in atproto, in bytes.
const MaxLen = 2048

// DID is a syntactically valid DID, or the zero value. It holds the input string (no copy) and
// where its method ends, so it is small, comparable with == and usable as a map key (DIDs are
// case-sensitive: == is the right equality).
//
// The zero DID is not valid: IsValid reports false and String returns "".
type DID struct {
	s   string
	sep uint16 // offset of the ':' after the method; at least 5 in a valid DID
}

// Parse parses s as a DID. The result holds s itself; Parse does not allocate unless s is
// invalid, in which case the error is an *Error matching ErrInvalid.
func Parse(s string) (DID, error) {
	// A did:plc in its exact form, the DID most services see, without a call.
	if len(s) == plcFullLen {
		// One 8-byte compare for the prefix and three words for the identifier, inline.
		_ = s[plcFullLen-1]
		if le64(s[0:8]) == plcPrefixWord &&
			notBase32(le64(s[8:16]))|notBase32(le64(s[16:24]))|notBase32(le64(s[24:32])) == 0 {
			return DID{s: s, sep: 7}, nil
		}
	}
	if sep := check(s); sep > 0 {
		return DID{s: s, sep: uint16(sep)}, nil
	}
	return DID{}, invalid(s)
}

// MustParse is like Parse but panics on error. It is intended for use in tests and with
// hard-coded strings.
func MustParse(s string) DID {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Validate returns nil if s is a valid DID and otherwise the *Error Parse would return.
func Validate(s string) error {
	if check(s) > 0 {
		return nil
	}
	return invalid(s)
}

// IsValid reports whether s is a valid DID: Validate without the error, for callers that only
// branch on the answer. It never allocates.
func IsValid(s string) bool { return check(s) > 0 }

// ValidateAt is Validate for a DID found at byte offset base of a longer input, such as an AT
// URI: the error's Offset and the offsets in its Reason count from the start of that input, so
// that the caller can report them as its own. Input and Len are s's.
func ValidateAt(s string, base int) error {
	if check(s) > 0 {
		return nil
	}
	return invalidAt(s, base)
}

// ParseAt is Parse for a DID found at byte offset base of a longer input, such as the
// authority of an AT URI: on failure, the error is the one ValidateAt(s, base) returns, so that a
// caller that needs the DID and reports offsets in its own input builds one error, not two.
func ParseAt(s string, base int) (DID, error) {
	// Parse's did:plc fast path, repeated: AT URIs are mostly at://did:plc:….
	if len(s) == plcFullLen {
		_ = s[plcFullLen-1]
		if le64(s[0:8]) == plcPrefixWord &&
			notBase32(le64(s[8:16]))|notBase32(le64(s[16:24]))|notBase32(le64(s[24:32])) == 0 {
			return DID{s: s, sep: 7}, nil
		}
	}
	if sep := check(s); sep > 0 {
		return DID{s: s, sep: uint16(sep)}, nil
	}
	return DID{}, invalidAt(s, base)
}

// IsValid reports whether d is a valid DID, that is, not the zero value.
func (d DID) IsValid() bool { return d.sep != 0 }

// String returns the DID, or "" for the zero value.
func (d DID) String() string { return d.s }

// Method returns the method: "plc" for did:plc:ewvi7nxzyoun6zhxrhs64oiz; "" for the zero DID.
func (d DID) Method() string {
	if d.sep == 0 {
		return ""
	}
	return d.s[len("did:"):d.sep]
}

// Identifier returns the method-specific identifier, everything after the method's ':':
// "ewvi7nxzyoun6zhxrhs64oiz" for did:plc:ewvi7nxzyoun6zhxrhs64oiz; "" for the zero DID.
func (d DID) Identifier() string {
	if d.sep == 0 {
		return ""
	}
	return d.s[d.sep+1:]
}

// Compare returns an integer comparing d and e by their strings, byte by byte: -1, 0 or +1.
// The zero DID sorts first.
func (d DID) Compare(e DID) int { return strings.Compare(d.s, e.s) }

// AppendText appends the DID to b (encoding.TextAppender); the zero DID appends nothing.
func (d DID) AppendText(b []byte) ([]byte, error) { return append(b, d.s...), nil }

// MarshalText returns the DID as text, so that a DID is a JSON string.
func (d DID) MarshalText() ([]byte, error) { return []byte(d.s), nil }

// UnmarshalText parses text with Parse. Empty text sets the zero DID, as MarshalText writes it
// (as net/netip's types do), so that a zero value reads back; Parse refuses empty text.
func (d *DID) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*d = DID{}
		return nil
	}
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*d = p
	return nil
}

// plcPrefixWord is "did:plc:" read as a little-endian word (le64).
const plcPrefixWord = uint64('d') | uint64('i')<<8 | uint64('d')<<16 | uint64(':')<<24 |
	uint64('p')<<32 | uint64('l')<<40 | uint64('c')<<48 | uint64(':')<<56
