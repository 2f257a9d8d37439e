package peers

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/lang"
)

// languageAccepts reports whether each implementation accepts s as a language tag.
func languageAccepts(s string) (atcore, indigo bool) {
	_, errA := lang.Parse(s)
	_, errI := syntax.ParseLanguage(s)
	return errA == nil, errI == nil
}

// languageDisagreement names why atcore and indigo may disagree on s, or returns "" for a
// disagreement that no rule explains (a test failure). indigo checks a looser pattern, a primary
// subtag ("i" or 2 or 3 lower-case letters) then any hyphen-separated letters and digits, up to
// 128 bytes; atcore checks RFC 5646's grammar. Each reason is written up in CONFORMANCE.md.
func languageDisagreement(s string, atcore bool) string {
	if atcore {
		switch s[0] {
		case 'x', 'X':
			return langPrivateUse
		case 'I':
			return langUpperI
		}
		return ""
	}
	_, err := lang.Parse(s)
	var e *lang.Error
	if !errors.As(err, &e) {
		return ""
	}
	for _, c := range []struct{ prefix, name string }{
		{"subtag at offset", langLongSubtag},
		{"subtag ", langOutOfPlace},
		{"singleton ", langBareSingleton},
		{"variant ", langDupVariant},
		{"extension singleton ", langDupSingleton},
		{`"i" at offset 0`, langBadI},
	} {
		if strings.HasPrefix(e.Reason, c.prefix) {
			return c.name
		}
	}
	return ""
}

// The kinds of language-tag disagreement found.
const (
	langPrivateUse    = "a whole private-use tag (x-… or X-…)"
	langUpperI        = "a grandfathered \"i-\" tag written \"I-…\""
	langBadI          = "a primary subtag \"i\" outside the grandfathered tags"
	langBareSingleton = "an extension or private-use singleton with no subtag after it"
	langDupSingleton  = "a repeated extension singleton"
	langDupVariant    = "a repeated variant"
	langLongSubtag    = "a subtag longer than 8 characters"
	langOutOfPlace    = "a subtag out of RFC 5646's order (extlang, script, region, variant, extension, private use)"
)

var languageVectorFiles = []struct {
	name  string
	valid bool
}{{"language_syntax_valid.txt", true}, {"language_syntax_invalid.txt", false}, {"language_parse_invalid.txt", false}}

func TestLanguageVectorsAgree(t *testing.T) {
	for _, file := range languageVectorFiles {
		for _, s := range readVectorLines(t, file.name) {
			a, i := languageAccepts(s)
			if a != file.valid {
				t.Errorf("%s %q: atcore accepts=%v, vector says valid=%v", file.name, s, a, file.valid)
			}
			if a != i && languageDisagreement(s, a) == "" {
				t.Errorf("%s %q: atcore accepts=%v, indigo accepts=%v", file.name, s, a, i)
			}
		}
	}
}

// randomLanguageCandidate returns a tag built from RFC 5646's parts in order, each present at
// random (variants and singletons sometimes repeated), then sometimes one character changed.
func randomLanguageCandidate(r *rand.Rand) string {
	pick := func(list ...string) string { return list[r.IntN(len(list))] }
	var parts []string
	switch r.IntN(20) {
	case 0:
		parts = append(parts, pick("x", "X"), pick("fr", "CH", "whatever", "a1"))
	case 1:
		parts = append(parts, pick("i-default", "I-navajo", "i-foo", "en-GB-oed", "sgn-BE-NL", "zh-min-nan"))
	default:
		parts = append(parts, pick("en", "pt", "ban", "zh", "de", "sl", "hy", "qaa", "JA", "j", "jaja", "i"))
		if r.IntN(6) == 0 {
			parts = append(parts, pick("yue", "min", "nan"))
		}
		if r.IntN(4) == 0 {
			parts = append(parts, pick("Latn", "Hant", "hans"))
		}
		if r.IntN(2) == 0 {
			parts = append(parts, pick("BR", "gb", "419", "DE"))
		}
		for range r.IntN(3) {
			parts = append(parts, pick("1901", "rozaj", "biske", "ROZAJ", "arevela", "boont"))
		}
		for range r.IntN(3) {
			parts = append(parts, pick("a", "u", "t", "U", "r", "1"))
			for range r.IntN(3) {
				parts = append(parts, pick("co", "phonebk", "en", "US", "extended"))
			}
		}
		if r.IntN(4) == 0 {
			parts = append(parts, pick("x", "X"), pick("private", "a", "abcdefgh"))
		}
	}
	b := []byte(strings.Join(parts, "-"))
	const noise = "-aZ09 _.\x00é"
	switch r.IntN(8) {
	case 0:
		b[r.IntN(len(b))] = noise[r.IntN(len(noise)-1)]
	case 1:
		i := r.IntN(len(b) + 1)
		b = append(b[:i], append([]byte(pick("-", "ab", "abcdefghi", "é")), b[i:]...)...)
	}
	return string(b)
}

func TestLanguageRandomStringsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(syntaxSeed, 4))
	var accepted int
	for range randomStringsCount {
		s := randomLanguageCandidate(r)
		a, i := languageAccepts(s)
		if a {
			accepted++
		}
		if a != i && languageDisagreement(s, a) == "" {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	}
	if accepted < randomStringsCount/10 || accepted > randomStringsCount*9/10 {
		t.Errorf("generator produced %d valid tags of %d; want a mix", accepted, randomStringsCount)
	}
}
