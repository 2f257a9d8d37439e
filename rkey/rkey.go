// Package rkey validates atproto record keys, the names of records within a collection of a
// repository, for example in an HTTP handler that takes one from a request:
//
//	if err := rkey.Validate(key); err != nil {
//		http.Error(w, err.Error(), http.StatusBadRequest)
//		return
//	}
//
// A record key is 1 to 512 characters from A-Za-z0-9 and . - _ : ~, case-sensitive, and is
// neither "." nor "..". This follows the published spec, https://atproto.com/specs/record-key,
// and the module's DECISIONS.md (rules 1 and 2): older texts of the spec forbade the colon, which
// the live network now uses.
//
// The package also checks keys against a Lexicon record's key type (ParseKeyType, KeyType.Check:
// tid, nsid, any, literal:<value>) and splits repository paths of the form
// <collection NSID>/<record key> (ParsePath).
//
// Validate and IsValid use a 256-entry lookup table and never allocate on valid input; errors
// are *Error values that match the package's sentinels with errors.Is. Every function is safe
// for concurrent use: the package's only state is read-only tables.
package rkey

import (
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// MaxLen is the longest a record key may be, in bytes (= characters: keys are ASCII).
const MaxLen = 512

// notKeyChar[c] is 1 for every byte c that may not appear in a record key and 0 for
// A-Za-z0-9 . - _ : ~ (DECISIONS rule 1). A full 256-entry table is indexed by any byte
// without a bounds check, and its entries OR together without branches.
var notKeyChar = func() (t [256]byte) {
	for c := range t {
		t[c] = 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 0
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = 0
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 0
	}
	for _, c := range ".-_:~" {
		t[c] = 0
	}
	return t
}()

// IsValid reports whether key is a valid record key. It never allocates.
func IsValid(key string) bool {
	n := len(key)
	if n == 0 || n > MaxLen {
		return false
	}
	// "." and ".." are reserved (DECISIONS rule 2); "..." and "self." are fine.
	if key[0] == '.' && (n == 1 || n == 2 && key[1] == '.') {
		return false
	}
	// No early exit: valid keys are the common case, and a branch-free OR over the table beats
	// a test per byte (see BenchmarkValidate).
	var bad byte
	for i := 0; i < n; i++ {
		bad |= notKeyChar[key[i]]
	}
	return bad == 0
}

// Validate returns nil if key is a valid record key, and otherwise an *Error that says where
// and why, matching ErrInvalid and one of ErrLength, ErrCharacter, ErrReserved. It does not
// allocate when key is valid.
func Validate(key string) error {
	if IsValid(key) {
		return nil
	}
	return invalidKey(key)
}

// invalidKey builds Validate's error. Kept out of line so that Validate's success path is
// IsValid's inlined check and a return: nothing of the error's construction is paid for a valid
// key. (Validate itself does not inline: IsValid's body takes most of the inliner's budget;
// IsValid does, see TestInlining.)
//
//go:noinline
func invalidKey(key string) error {
	off, reason, sentinel := keyProblem(key, 0)
	if key == "" {
		off = -1 // on its own, an empty key has no byte to point at (Error.Offset)
	}
	return newError("record key", key, off, sentinel, reason)
}

// keyProblem explains why key is not a valid record key; key must be invalid. Offsets in the
// result and the reason are counted from base, so that a caller can report them within a larger
// input (a repository path).
func keyProblem(key string, base int) (offset int, reason string, sentinel error) {
	n := len(key)
	switch {
	case n == 0:
		// Within a larger input the empty key has a place, base; on its own it is at fault as a
		// whole (invalidKey makes the offset -1).
		return base, "empty; a record key has 1 to 512 characters", ErrLength
	case n > MaxLen:
		return base + MaxLen, fmt.Sprintf("%d bytes long; a record key has at most %d", n, MaxLen), ErrLength
	case key == "." || key == "..":
		return base, fmt.Sprintf("%q is reserved and is never a record key", key), ErrReserved
	}
	for i := 0; i < n; i++ {
		if notKeyChar[key[i]] != 0 {
			return base + i, fmt.Sprintf("%s at offset %d is not allowed", echo.QuoteAt(key, i), base+i), ErrCharacter
		}
	}
	// Unreachable for an invalid key; kept so that a wrong caller gets an error, not a panic.
	return -1, "rejected", ErrInvalid
}

// ValidateAt is Validate for a record key found at byte offset base of a longer input, such as
// an AT URI: the error's Offset and the offsets in its Reason count from the start of that
// input, so that the caller can report them as its own. Input and Len are the key's.
func ValidateAt(key string, base int) error {
	if IsValid(key) {
		return nil
	}
	off, reason, sentinel := keyProblem(key, base)
	return newError("record key", key, off, sentinel, reason)
}
