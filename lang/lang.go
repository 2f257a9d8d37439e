// Package lang checks the language tags of the AT Protocol's Lexicon "language" format
// (https://atproto.com/specs/lexicon#language): BCP 47 tags (RFC 5646), as in a post's langs.
//
//	tag, err := lang.Parse("pt-BR")
//	tag.Language(), tag.Region() // "pt", "BR"
//
// A tag is accepted when it is well-formed under RFC 5646 §2.1 with these atproto rules, which
// the interop vectors hold:
//
//   - the primary language subtag is an ISO 639 code of 2 or 3 lower-case letters ("ja", "ban";
//     not "JA", not the reserved 4-letter or registered 5-to-8-letter forms such as "jaja");
//   - a variant appears at most once, and so does an extension singleton (RFC 5646 §2.2.5 and
//     §2.2.6 make repeats invalid; both compare without case);
//   - whole private-use tags ("x-whatever", also "X-…") and the irregular grandfathered tags of
//     RFC 5646 ("i-default", "en-GB-oed", …) are accepted.
//
// Every other subtag is case-insensitive, as RFC 5646 says. Tags are at most MaxLen bytes. The
// registry is not consulted: "qq-QQ" is well-formed, and the spec asks clients to ignore tags that
// are well-formed but not valid, which is their choice, not a syntax error.
//
// Parse and IsValid never allocate on valid input; errors are *[Error] values matching
// [ErrInvalid] and one of [ErrLength], [ErrSyntax], [ErrDuplicate]. Everything is safe for
// concurrent use.
package lang

import (
	"strings"

	"github.com/atcore/atcore/internal/ascii"
)

// MaxLen is the longest tag accepted, in bytes: the limit that indigo, the Go reference
// implementation, sets. RFC 5646 §4.4.1 sets none but asks implementations to handle 35
// characters at least; a bound keeps the check for repeated variants small.
const MaxLen = 128

// A Tag is a well-formed language tag, kept exactly as written (tags are compared and matched
// by whoever reads them; the spec asks that the string pass through unchanged). It is a small
// comparable value: == compares the strings, case included.
//
// The zero Tag holds no tag: [Tag.IsValid] reports false (and [Tag.IsZero] true), String
// returns "", and it marshals to empty text.
type Tag struct{ s string }

// Parse checks that s is a language tag (see the package doc) and returns it, without a copy.
// It does not allocate unless it fails; the error is an *[Error].
func Parse(s string) (Tag, error) {
	if _, f := scan(s); f != ok && !isIrregular(s) {
		return Tag{}, invalid(s)
	}
	return Tag{s}, nil
}

// MustParse is like [Parse] but panics if s is not a language tag. It is intended for tests and
// hard-coded strings.
func MustParse(s string) Tag {
	t, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// IsValid reports whether s is a language tag, as [Parse] would accept it. It never allocates.
func IsValid(s string) bool {
	_, f := scan(s)
	return f == ok || isIrregular(s)
}

// Validate returns nil if s is a valid language tag and otherwise the *Error Parse would return.
func Validate(s string) error {
	_, err := Parse(s)
	return err
}

// String returns the tag as written.
func (t Tag) String() string { return t.s }

// IsValid reports whether t holds a tag, that is, is not the zero Tag: the verb every identifier
// type of the module has (netip's), the opposite of [Tag.IsZero].
func (t Tag) IsValid() bool { return t.s != "" }

// IsZero reports whether t is the zero Tag, which holds no tag. It is ![Tag.IsValid], kept
// beside it because it costs a line and encoding/json's omitzero calls it.
func (t Tag) IsZero() bool { return t.s == "" }

// Language returns the primary language subtag, as written: "pt" for "pt-BR", "sgn" for
// "sgn-BE-NL". Whole private-use tags ("x-…") and the "i-" grandfathered tags have none: "".
func (t Tag) Language() string {
	primary, _, _ := strings.Cut(t.s, "-")
	if len(primary) < 2 {
		return ""
	}
	return primary
}

// Script returns the script subtag, as written: "Hant" for "zh-Hant-TW", "" when there is none.
func (t Tag) Script() string {
	script, _ := t.scriptRegion()
	return script
}

// Region returns the region subtag, as written: "BR" for "pt-BR", "419" for "es-419", "" when
// there is none.
func (t Tag) Region() string {
	_, region := t.scriptRegion()
	return region
}

// scriptRegion walks the subtags after the primary language in the order of RFC 5646 §2.1: up
// to three extended language subtags, a script, a region.
func (t Tag) scriptRegion() (script, region string) {
	if t.Language() == "" {
		return "", ""
	}
	_, rest, more := strings.Cut(t.s, "-")
	for extlangs := 0; more; {
		var sub string
		sub, rest, more = strings.Cut(rest, "-")
		switch {
		case script == "" && extlangs < 3 && len(sub) == 3 && isAlpha(sub):
			extlangs++
		case script == "" && len(sub) == 4 && isAlpha(sub):
			script = sub
		case len(sub) == 2 && isAlpha(sub) || len(sub) == 3 && isDigits(sub):
			return script, sub
		default:
			return script, ""
		}
	}
	return script, ""
}

// Compare returns -1, 0 or +1 comparing t and u for sorting: by their lower-case forms, byte by
// byte, as BCP 47 tags are case-insensitive (RFC 5646 §2.1.1: "en-GB" and "en-gb" are the same
// tag); and, for tags equal but for case, by their strings as written. So Compare returns 0 only
// when t == u, and a sorted list keeps the case variants of a tag together. To ask whether two
// tags are the same, use strings.EqualFold(t.String(), u.String()). The zero Tag sorts first.
func (t Tag) Compare(u Tag) int { return ascii.Compare(t.s, u.s) }

// AppendText appends the tag to b. It implements [encoding.TextAppender] and never fails.
func (t Tag) AppendText(b []byte) ([]byte, error) { return append(b, t.s...), nil }

// MarshalText implements [encoding.TextMarshaler]: the tag as written. The zero Tag gives empty
// text.
func (t Tag) MarshalText() ([]byte, error) { return []byte(t.s), nil }

// UnmarshalText implements [encoding.TextUnmarshaler] with [Parse]'s rules. Empty text sets the
// zero Tag, as MarshalText writes it.
func (t *Tag) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*t = Tag{}
		return nil
	}
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
