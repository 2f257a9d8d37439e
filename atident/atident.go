// Package atident parses at-identifiers, the Lexicon string format that holds either a DID or a
// handle: what XRPC "repo" and "actor" parameters take. A handler:
//
//	id, err := atident.Parse(r.URL.Query().Get("repo"))
//	if err != nil {
//		http.Error(w, err.Error(), http.StatusBadRequest) // invalid at-identifier "jo_hn.test": handle: '_' at offset 2 is not allowed in a handle
//		return
//	}
//	if d, ok := id.DID(); ok {
//		// look the repository up by DID
//	} else {
//		h, _ := id.Handle() // resolve the handle first
//	}
//
// Which one it is never needs guessing (https://atproto.com/specs/lexicon, "at-identifier"): a
// DID starts with "did:", and a handle cannot hold ':'. The rules of each are those of packages
// did and handle; their checks beyond syntax (did.DID.CheckPLC, handle.Handle.HasDisallowedTLD,
// …) apply to the parts.
//
// Parse never allocates on valid input; errors are *Error values that match ErrInvalid and the
// sentinel of the did or handle package that says why. Everything is safe for concurrent use.
package atident

import (
	"cmp"

	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
)

// ID is a DID or a handle, or the zero value, which is neither. It is small and comparable with
// == (a handle as written: compare Normalize'd values to ignore its case).
//
// The zero ID is not valid: IsValid reports false and String returns "".
type ID struct {
	d did.DID
	h handle.Handle
}

// Parse parses s as a DID if it starts with "did:" and as a handle otherwise. The result holds
// s itself; Parse does not allocate unless s is invalid.
func Parse(s string) (ID, error) {
	if isDID(s) {
		d, err := did.Parse(s)
		if err == nil {
			return ID{d: d}, nil
		}
		return ID{}, fromPart(s, err)
	}
	// A ':' fourth is no handle, and may be a "DID:" in the wrong case, which invalidAt reports
	// as a DID: deciding here keeps a handle error from being built and thrown away.
	if len(s) >= 4 && s[3] == ':' {
		return ID{}, invalidAt(s, 0)
	}
	h, err := handle.Parse(s)
	if err == nil {
		return ID{h: h}, nil
	}
	return ID{}, fromPart(s, err)
}

// MustParse is like Parse but panics on error. It is intended for use in tests and with
// hard-coded strings.
func MustParse(s string) ID {
	id, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return id
}

// Validate returns nil if s is a valid at-identifier and otherwise the *Error Parse would return.
func Validate(s string) error {
	_, err := Parse(s)
	return err
}

// IsValid reports whether s is a valid at-identifier (a DID or a handle): Validate without the
// error, for callers that only branch on the answer. It never allocates.
func IsValid(s string) bool {
	if isDID(s) {
		return did.IsValid(s)
	}
	return handle.IsValid(s)
}

// ValidateAt is Validate for an at-identifier found at byte offset base of a longer input, such
// as the authority of an AT URI: the error's Offset and the offsets in its Reason count from the
// start of that input. Input and Len are s's.
func ValidateAt(s string, base int) error {
	// IsValid, not Parse: on failure Parse would build an error at base 0, thrown away here.
	if IsValid(s) {
		return nil
	}
	return invalidAt(s, base)
}

// ParseAt is Parse for an at-identifier found at byte offset base of a longer input, such as
// the authority of an AT URI: on failure, the error is the one ValidateAt(s, base) returns, built
// once, so that a caller that needs the ID and reports offsets in its own input does not build a
// second error to throw away.
func ParseAt(s string, base int) (ID, error) {
	if isDID(s) {
		d, err := did.ParseAt(s, base)
		if err == nil {
			return ID{d: d}, nil
		}
		return ID{}, fromPart(s, err)
	}
	if len(s) >= 4 && s[3] == ':' { // no handle; maybe "DID:" in the wrong case (see Parse)
		return ID{}, invalidAt(s, base)
	}
	h, err := handle.ParseAt(s, base)
	if err == nil {
		return ID{h: h}, nil
	}
	return ID{}, fromPart(s, err)
}

// FromDID returns the ID of a DID; the zero DID gives the zero ID.
func FromDID(d did.DID) ID { return ID{d: d} }

// FromHandle returns the ID of a handle; the zero Handle gives the zero ID.
func FromHandle(h handle.Handle) ID { return ID{h: h} }

// isDID reports whether s is meant as a DID: it starts with "did:". A handle cannot hold ':'.
func isDID(s string) bool { return len(s) >= 4 && s[:4] == "did:" }

// IsValid reports whether id is a DID or a handle, that is, not the zero value.
func (id ID) IsValid() bool { return id.d.IsValid() || id.h.IsValid() }

// IsDID reports whether id is a DID.
func (id ID) IsDID() bool { return id.d.IsValid() }

// IsHandle reports whether id is a handle.
func (id ID) IsHandle() bool { return id.h.IsValid() }

// DID returns the DID and true if id is one, and the zero DID and false otherwise.
func (id ID) DID() (did.DID, bool) { return id.d, id.d.IsValid() }

// Handle returns the handle and true if id is one, and the zero Handle and false otherwise.
func (id ID) Handle() (handle.Handle, bool) { return id.h, id.h.IsValid() }

// String returns the DID or the handle as parsed, or "" for the zero ID.
func (id ID) String() string {
	if id.d.IsValid() {
		return id.d.String()
	}
	return id.h.String()
}

// Normalize returns id with a handle in lower case; a DID is case-sensitive and is returned as
// it is. It allocates only when a handle has an upper-case letter.
func (id ID) Normalize() ID {
	if id.h.IsValid() {
		return ID{h: id.h.Normalize()}
	}
	return id
}

// Compare returns -1, 0 or +1 comparing id and o for sorting: the zero ID first, then DIDs in
// did.DID.Compare's order (byte by byte: DIDs are case-sensitive), then handles in
// handle.Handle.Compare's (by lower-case form, then as written). The kinds are kept apart, as
// IsDID tells them, rather than mixed by string. Compare returns 0 only when id == o.
func (id ID) Compare(o ID) int {
	switch {
	case id.d.IsValid() && o.d.IsValid():
		return id.d.Compare(o.d)
	case id.h.IsValid() && o.h.IsValid():
		return id.h.Compare(o.h)
	}
	return cmp.Compare(id.rank(), o.rank())
}

// rank orders the kinds of ID for Compare: the zero ID, DIDs, handles.
func (id ID) rank() int {
	switch {
	case id.d.IsValid():
		return 1
	case id.h.IsValid():
		return 2
	}
	return 0
}

// AppendText appends the identifier to b (encoding.TextAppender); the zero ID appends nothing.
func (id ID) AppendText(b []byte) ([]byte, error) { return append(b, id.String()...), nil }

// MarshalText returns the identifier as text, so that an ID is a JSON string.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText parses text with Parse. Empty text sets the zero ID, as MarshalText writes it
// (as net/netip's types do), so that a zero value reads back; Parse refuses empty text.
func (id *ID) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*id = ID{}
		return nil
	}
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*id = p
	return nil
}
