package rkey

import (
	"fmt"
	"strings"

	"github.com/atcore/atcore/nsid"
)

// ParsePath splits a repository path, "<collection NSID>/<record key>" as in
// "app.bsky.feed.post/3jui7kd54zh2y", into its two parts. The collection must be a valid,
// normalized NSID (https://atproto.com/specs/repository: its authority in lower case) and the key
// a valid record key (of any type: the collection's Lexicon, which says which, is not known
// here). A key may hold ':', which the repository spec's list of path characters leaves out
// and the record key spec allows (DECISIONS rule 1: the key's own rules win). Errors match ErrPath, and also the key's sentinel when the key is at fault.
// The results are substrings of path; ParsePath does not allocate when path is valid.
func ParsePath(path string) (collection, key string, err error) {
	slash := strings.IndexByte(path, '/')
	if slash < 0 {
		return "", "", newError("repository path", path, -1, ErrPath,
			"no '/' between the collection and the record key")
	}
	collection, key = path[:slash], path[slash+1:]
	// ValidateAt: an empty collection has a place in the path, offset 0.
	if err := nsid.ValidateAt(collection, 0); err != nil {
		ne := err.(*nsid.Error)
		e := newError("repository path", path, ne.Offset, ErrPath, "collection: "+ne.Reason)
		e.part = ne // errors.As reaches it, as through an AT URI's error
		return "", "", e
	}
	if i := upperInAuthority(collection); i >= 0 {
		return "", "", newError("repository path", path, i, ErrPath, fmt.Sprintf(
			"collection: %q at offset %d: the NSID of a repository path is normalized, its authority in lower case",
			collection[i], i))
	}
	if !IsValid(key) {
		if i := strings.IndexByte(key, '/'); i >= 0 {
			off := slash + 1 + i
			e := newError("repository path", path, off, ErrPath,
				fmt.Sprintf("second '/' at offset %d; a path has exactly two segments", off))
			e.part = ErrCharacter
			return "", "", e
		}
		off, reason, sentinel := keyProblem(key, slash+1)
		e := newError("repository path", path, off, ErrPath, "record key: "+reason)
		e.part = sentinel
		return "", "", e
	}
	return collection, key, nil
}

// ValidatePath returns nil if path is a valid repository path (see ParsePath), and otherwise the
// error ParsePath returns.
func ValidatePath(path string) error {
	_, _, err := ParsePath(path)
	return err
}

// upperInAuthority returns the offset of the first upper-case letter in the authority of a valid
// NSID (every segment but the last, which may have them), or -1.
func upperInAuthority(id string) int {
	end := strings.LastIndexByte(id, '.')
	for i := 0; i < end; i++ {
		if c := id[i]; 'A' <= c && c <= 'Z' {
			return i
		}
	}
	return -1
}
