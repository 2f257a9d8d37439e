package lang

import (
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// oracle is RFC 5646 §2.1's ABNF for well-formed tags as one regular expression (case-insensitive
// where the RFC is), narrowed by the atproto rules of the package doc: the primary language is 2
// or 3 lower-case letters. Repeated variants and singletons, which a regular expression cannot
// count, are checked by repeats.
var oracle = regexp.MustCompile(`^(?:` +
	`([a-z]{2,3})((?:-[A-Za-z]{3}){0,3})(-[A-Za-z]{4})?(-(?:[A-Za-z]{2}|[0-9]{3}))?` +
	`((?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*)` +
	`((?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*)` +
	`(-[xX](?:-[A-Za-z0-9]{1,8})+)?` +
	`|[xX](?:-[A-Za-z0-9]{1,8})+` +
	`|(?i:i-ami|i-bnn|i-default|i-enochian|i-hak|i-klingon|i-lux|i-mingo|i-navajo|i-pwn|i-tao|i-tay|i-tsu)` +
	`|en-(?i:gb-oed)|sgn-(?i:be-fr|be-nl|ch-de)` +
	`)$`)

// oracleValid applies the regular expression, the length cap and the no-repeat rules.
func oracleValid(s string) bool {
	m := oracle.FindStringSubmatch(s)
	if m == nil || len(s) > MaxLen {
		return false
	}
	if m[1] == "" {
		return true // private use or grandfathered
	}
	return !repeats(strings.Split(strings.ToLower(m[5]), "-")[1:]) && !repeats(singletons(strings.ToLower(m[6])))
}

func repeats(list []string) bool {
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			return true
		}
		seen[s] = true
	}
	return false
}

// singletons lists the one-character subtags of an extensions section.
func singletons(ext string) []string {
	var out []string
	for _, sub := range strings.Split(ext, "-") {
		if len(sub) == 1 {
			out = append(out, sub)
		}
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"language_syntax_valid.txt", "language_syntax_invalid.txt", "language_parse_invalid.txt"} {
		for _, s := range testvec.Syntax(f, name) {
			f.Add(s)
		}
	}
	for _, s := range []string{"zh-min-nan-hak", "en-GB-oed", "I-DEFAULT", "en-a-x-cd", "de-419-DE", "es-4190", "x-a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := oracleValid(s)
		tag, err := Parse(s)
		if (err == nil) != want || IsValid(s) != want {
			t.Fatalf("Parse(%q) = %v, IsValid = %v; oracle says valid=%v", s, err, IsValid(s), want)
		}
		if err != nil {
			checkError(t, err, s)
			return
		}
		if tag.String() != s || MustParse(tag.String()) != tag {
			t.Fatalf("Parse(%q) does not round-trip: %q", s, tag)
		}
		if l := tag.Language(); l != "" && !strings.HasPrefix(s, l+"-") && s != l {
			t.Fatalf("Language(%q) = %q", s, l)
		}
	})
}
