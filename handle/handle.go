// Package handle parses atproto handles, the human-friendly account names in the form of a DNS
// host name ("alice.bsky.social"), as in a handler that takes one:
//
//	h, err := handle.Parse(r.URL.Query().Get("handle"))
//	if err != nil {
//		http.Error(w, err.Error(), http.StatusBadRequest) // invalid handle "jo_hn.test": '_' at offset 2 is not allowed in a handle
//		return
//	}
//	if h.HasDisallowedTLD() { // syntax-valid, but never resolvable: .local, .onion, …
//		...
//	}
//	key := h.Normalize() // lower case: handles are case-insensitive
//
// The syntax is that of https://atproto.com/specs/handle:
//
//   - ASCII letters, digits, '-' and '.' only; at most 253 characters;
//   - at least two labels separated by '.', each 1 to 63 characters (no leading, trailing or
//     doubled '.': "name.org." is not a handle);
//   - labels neither start nor end with '-';
//   - the last label (the top-level domain) does not start with a digit, which also rules out
//     IPv4 addresses; IPv6 addresses have ':' and are rejected too.
//
// Internationalized names are handles only in their ASCII (punycode) form, "xn--ls8h.test":
// Unicode look-alikes are rejected as non-ASCII, and "xn--" labels are not decoded or checked
// against IDNA (the spec's syntax does not, and neither do the official vectors).
//
// Syntax-valid is not the same as usable. Two checks that the spec keeps apart from syntax
// (a Lexicon's handle field accepts these handles; registration and resolution must not) are
// separate calls: HasDisallowedTLD (.alt, .arpa, .example, .internal, .invalid, .local,
// .localhost, .onion) and IsInvalidHandle (the special value "handle.invalid", which stands for
// an account whose handle did not verify).
//
// Handles are case-insensitive: Parse keeps the input as written, Normalize lowers it, Equal
// compares ignoring case, and Compare sorts by the lower-case form. Parse, Validate and IsValid never allocate on valid input; errors are
// *Error values matching the package's sentinels. Everything is safe for concurrent use.
package handle

import (
	"strings"

	"github.com/atcore/atcore/internal/ascii"
)

// MaxLen is the longest a handle may be, in bytes.
const MaxLen = 253

// Invalid is the special handle "handle.invalid", which atproto services show for an account
// whose handle does not resolve back to its DID (https://atproto.com/specs/handle).
var Invalid = Handle{s: "handle.invalid", tld: uint8(len("handle."))}

// Handle is a syntactically valid handle, or the zero value. It holds the input string (no copy)
// and where its top-level domain starts, so it is small and comparable with == (as written:
// compare Normalize'd values, or use Equal, to ignore case).
//
// The zero Handle is not valid: IsValid reports false and String returns "".
type Handle struct {
	s   string
	tld uint8 // offset of the last label; at least 2 in a valid handle, and MaxLen fits
}

// Parse parses s as a handle. The result holds s itself; Parse does not allocate unless s is
// invalid, in which case the error is an *Error matching ErrInvalid.
func Parse(s string) (Handle, error) {
	if tld := check(s); tld > 0 {
		return Handle{s: s, tld: uint8(tld)}, nil
	}
	return Handle{}, invalid(s)
}

// MustParse is like Parse but panics on error. It is intended for use in tests and with
// hard-coded strings.
func MustParse(s string) Handle {
	h, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return h
}

// Validate returns nil if s is a valid handle and otherwise the *Error Parse would return.
func Validate(s string) error {
	if check(s) > 0 {
		return nil
	}
	return invalid(s)
}

// IsValid reports whether s is a syntactically valid handle: Validate without the error, for
// callers that only branch on the answer. It never allocates.
func IsValid(s string) bool { return check(s) > 0 }

// ValidateAt is Validate for a handle found at byte offset base of a longer input, such as an
// AT URI: the error's Offset and the offsets in its Reason count from the start of that input,
// so that the caller can report them as its own. Input and Len are s's.
func ValidateAt(s string, base int) error {
	if check(s) > 0 {
		return nil
	}
	return invalidAt(s, base)
}

// ParseAt is Parse for a handle found at byte offset base of a longer input, such as the
// authority of an AT URI: on failure, the error is the one ValidateAt(s, base) returns, so that a
// caller that needs the handle and reports offsets in its own input builds one error, not two.
func ParseAt(s string, base int) (Handle, error) {
	if tld := check(s); tld > 0 {
		return Handle{s: s, tld: uint8(tld)}, nil
	}
	return Handle{}, invalidAt(s, base)
}

// IsValid reports whether h is a valid handle, that is, not the zero value.
func (h Handle) IsValid() bool { return h.tld != 0 }

// String returns the handle as it was parsed, or "" for the zero value.
func (h Handle) String() string { return h.s }

// TLD returns the top-level domain, the last label, as written: "social" for alice.bsky.social.
func (h Handle) TLD() string { return h.s[h.tld:] }

// Normalize returns h in lower case, the form to store, compare and use as a key. It allocates
// only when h has an upper-case letter.
func (h Handle) Normalize() Handle {
	for i := 0; i < len(h.s); i++ {
		if c := h.s[i]; 'A' <= c && c <= 'Z' {
			return Handle{s: strings.ToLower(h.s), tld: h.tld}
		}
	}
	return h
}

// Equal reports whether h and o are the same handle, ignoring case.
func (h Handle) Equal(o Handle) bool { return h.tld == o.tld && strings.EqualFold(h.s, o.s) }

// Compare returns -1, 0 or +1 comparing h and o for sorting: by their lower-case forms, byte by
// byte, as handles are case-insensitive; and, for handles that are Equal but differ in case, by
// their strings as written. So Compare returns 0 only when h == o (a total order, usable for
// sorted keys as == is for map keys), a sorted list keeps the case variants of a handle together,
// and for Normalize'd handles it is the byte order of the strings. The zero Handle sorts first.
func (h Handle) Compare(o Handle) int { return ascii.Compare(h.s, o.s) }

// disallowedTLDs are the top-level domains that https://atproto.com/specs/handle lists as never
// usable for handles (reserved by IETF, mDNS's .local, Tor's .onion), in lower case.
var disallowedTLDs = [...]string{"alt", "arpa", "example", "internal", "invalid", "local", "localhost", "onion"}

// HasDisallowedTLD reports whether h's top-level domain is one of those the spec disallows:
// .alt, .arpa, .example, .internal, .invalid, .local, .localhost and .onion (any case). Such a
// handle is valid syntax, and passes Lexicon validation, but must fail registration and
// resolution. (.test is allowed: it is meant for development and testing.)
func (h Handle) HasDisallowedTLD() bool {
	tld := h.TLD()
	for _, d := range disallowedTLDs {
		if len(tld) == len(d) && strings.EqualFold(tld, d) {
			return true
		}
	}
	return false
}

// IsInvalidHandle reports whether h is the special value "handle.invalid" (any case), which a
// service puts in place of a handle that failed verification. It is valid syntax but names no
// account, and should not be accepted as a handle in most contexts. (Its top-level domain is
// also disallowed, so HasDisallowedTLD reports true for it as well.)
func (h Handle) IsInvalidHandle() bool { return h.Equal(Invalid) }

// AppendText appends the handle to b (encoding.TextAppender); the zero Handle appends nothing.
func (h Handle) AppendText(b []byte) ([]byte, error) { return append(b, h.s...), nil }

// MarshalText returns the handle as text, so that a Handle is a JSON string.
func (h Handle) MarshalText() ([]byte, error) { return []byte(h.s), nil }

// UnmarshalText parses text with Parse. Empty text sets the zero Handle, as MarshalText writes it
// (as net/netip's types do), so that a zero value reads back; Parse refuses empty text.
func (h *Handle) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*h = Handle{}
		return nil
	}
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*h = p
	return nil
}
