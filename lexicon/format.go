package lexicon

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/internal/echo"
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
	lenient func(string) error // under the mode bit allow, when not nil
	allow   Mode
}

func (f *format) check(s string) error { return f.fn(s) }

// checkMode is check with the tolerances of mode.
func (f *format) checkMode(s string, mode Mode) error {
	if f.lenient != nil && mode&f.allow != 0 {
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
		{name: "datetime", fn: datetime.Validate, lenient: checkDatetimeLenient, allow: AllowLenientDatetime},
		{name: "did", fn: did.Validate},
		{name: "handle", fn: handle.Validate},
		languageFormat,
		nsidFormat,
		{name: "record-key", fn: rkey.Validate},
		{name: "tid", fn: checkTID},
		{name: "uri", fn: checkURI, lenient: checkURILoose, allow: AllowLooseURI},
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

// uriError is the error of a refused uri-format string: what is wrong and where, in the form
// of the syntax packages' errors. It is built only on failure: a valid uri costs no allocation.
func uriError(s, format string, args ...any) error {
	return errors.New(echo.Message("URI", echo.Clip(s), len(s), fmt.Sprintf(format, args...)))
}

// checkURI checks the generic syntax of an RFC 3986 URI that the uri format asks for ("following
// the generic RFC-3986 on URIs"): a scheme (a letter, then letters, digits, '+', '-', '.'), a
// colon, and at least one more character, each unreserved, reserved or a '%' and two hex
// digits (RFC 3986 §2), with at most one '#', which starts the fragment (§3.5); 8 KiB at most.
// The parts between (authority, path, query) are not parsed: their characters are these.
func checkURI(s string) error {
	i, err := uriScheme(s)
	if err != nil {
		return err
	}
	fragment := -1
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case uriChar[c]:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return uriError(s, "'%%' at offset %d is not followed by two hex digits (RFC 3986 §2.1)", i)
			}
			i += 2
		case c == '#' && fragment < 0:
			fragment = i
		case c == '#':
			return uriError(s, "a second '#' at offset %d: the fragment, after the '#' at offset %d, holds none (RFC 3986 §3.5)", i, fragment)
		default:
			return uriError(s, "%s at offset %d is not allowed: RFC 3986 takes letters, digits, %s and '%%' escapes",
				echo.QuoteAt(s, i), i, "-._~:/?#[]@!$&'()*+,;=")
		}
	}
	return nil
}

// checkURILoose is checkURI under AllowLooseURI: after the scheme, any printable ASCII but
// space.
func checkURILoose(s string) error {
	i, err := uriScheme(s)
	if err != nil {
		return err
	}
	for ; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return uriError(s, "%s at offset %d is not allowed: after the scheme, printable ASCII but space", echo.QuoteAt(s, i), i)
		}
	}
	return nil
}

// uriScheme checks the length of s and its scheme, and returns the offset after the scheme's
// colon, before which at least one more character must follow.
func uriScheme(s string) (int, error) {
	switch {
	case len(s) > maxURILen:
		return 0, uriError(s, "%d bytes; a uri has at most %d", len(s), maxURILen)
	case s == "":
		return 0, uriError(s, "empty")
	case !isLetter(s[0]):
		return 0, uriError(s, "%s at offset 0: a URI starts with a scheme, whose first character is a letter", echo.QuoteAt(s, 0))
	}
	i := 1
	for ; i < len(s) && s[i] != ':'; i++ {
		c := s[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return 0, uriError(s, "%s at offset %d is not allowed in a scheme (letters, digits, '+', '-', '.')", echo.QuoteAt(s, i), i)
		}
	}
	switch {
	case i == len(s):
		return 0, uriError(s, "no ':' after the scheme")
	case i == len(s)-1:
		return 0, uriError(s, "nothing after the scheme's ':'")
	}
	return i + 1, nil
}

// uriChar holds the characters RFC 3986 allows in a URI as they are (§2.2, §2.3): unreserved
// (letters, digits, "-._~") and reserved (":/?#[]@" and "!$&'()*+,;="), '#' aside (checkURI
// counts it) and '%' aside (it must start an escape).
var uriChar = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-._~:/?[]@!$&'()*+,;=" {
		t[c] = true
	}
	return t
}()

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
