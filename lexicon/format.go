package lexicon

import (
	"errors"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/lang"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
	"github.com/atcore/atcore/tid"
)

// A format is a string format of https://atproto.com/specs/lexicon#string-formats and the
// function that checks it.
type format struct {
	name    string
	fn      func(string) error
	lenient func(string) error // under AllowLenientDatetime, when not nil
}

func (f *format) check(s string) error { return f.fn(s) }

// checkMode is check with the tolerances of mode.
func (f *format) checkMode(s string, mode Mode) error {
	if f.lenient != nil && mode&AllowLenientDatetime != 0 {
		return f.lenient(s)
	}
	return f.check(s)
}

// The one table of string formats: wiring a new syntax package in is one line here.
// https://atproto.com/specs/lexicon#string-formats
var (
	nsidFormat     = &format{name: "nsid", fn: nsid.Validate}
	languageFormat = &format{name: "language", fn: lang.Validate}

	formats = []*format{
		{name: "at-identifier", fn: atident.Validate},
		{name: "at-uri", fn: aturi.Validate},
		{name: "cid", fn: cidutil.CheckSyntax},
		{name: "datetime", fn: datetime.Validate, lenient: checkDatetimeLenient},
		{name: "did", fn: did.Validate},
		{name: "handle", fn: handle.Validate},
		languageFormat,
		nsidFormat,
		{name: "record-key", fn: rkey.Validate},
		{name: "tid", fn: checkTID},
		{name: "uri", fn: checkURI},
	}
)

func checkDatetimeLenient(s string) error {
	_, err := datetime.ParseLenient(s)
	return err
}

func checkTID(s string) error {
	_, err := tid.Parse(s)
	return err
}

func formatByName(name string) *format {
	for _, f := range formats {
		if f.name == name {
			return f
		}
	}
	return nil
}

// maxURILen is the spec's limit on a uri-format string: "Maximum length in Lexicons is 8
// KBytes" (https://atproto.com/specs/lexicon#uri).
const maxURILen = 8192

var errURI = errors.New(`invalid URI: want scheme ":" and then non-blank printable ASCII, at most 8 KiB`)

// checkURI checks the generic shape of an RFC 3986 URI that the uri format asks for: a scheme
// (a letter, then letters, digits, '+', '-', '.'), a colon, and at least one more character,
// all printable ASCII without spaces; 8 KiB at most.
func checkURI(s string) error {
	if len(s) > maxURILen || len(s) < 3 || !isLetter(s[0]) {
		return errURI
	}
	i := 1
	for ; i < len(s) && s[i] != ':'; i++ {
		c := s[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return errURI
		}
	}
	if i >= len(s)-1 {
		return errURI
	}
	for i++; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return errURI
		}
	}
	return nil
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
