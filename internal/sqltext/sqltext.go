// Package sqltext reads the column values that the identifier types' Scan methods
// (database/sql.Scanner) take, in one way for all of them: text as a string or []byte, NULL as
// nil, and one error for any other type.
package sqltext

import "fmt"

// Text returns the text of a column value src: a string as it is; a []byte copied, because
// database/sql may reuse the buffer once Scan returns while the identifier keeps its text; null
// true for NULL (nil). Any other type gives an error that names the package, the type received
// and the identifier type wanted, e.g.
//
//	nsid: cannot scan a column value of type int64 into an NSID (want text)
//
// It is a mistake in the program (the column's type), not in the data, so it matches none of the
// package's sentinels; database/sql adds the column's index and name to it.
func Text(src any, pkg, into string) (s string, null bool, err error) {
	switch v := src.(type) {
	case string:
		return v, false, nil
	case []byte:
		return string(v), false, nil
	case nil:
		return "", true, nil
	}
	return "", false, TypeError(src, pkg, into, "text")
}

// TypeError is Text's error for a column value src of a type that is not wanted.
func TypeError(src any, pkg, into, want string) error {
	return fmt.Errorf("%s: cannot scan a column value of type %T into %s (want %s)", pkg, src, into, want)
}

// Scan is the Scan method of an identifier type T read from a text column: the text of src
// (Text) parsed with parse into *dst, the zero T for NULL (which no text gives, so Value writes
// it back as NULL), and *dst left unchanged on any error.
func Scan[T any](dst *T, src any, pkg, into string, parse func(string) (T, error)) error {
	s, null, err := Text(src, pkg, into)
	if err != nil {
		return err
	}
	if null {
		var zero T
		*dst = zero
		return nil
	}
	v, err := parse(s)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}
