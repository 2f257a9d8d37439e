package lang

import (
	"math/rand/v2"
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
		if (err == nil) != want || IsValid(s) != want || (Validate(s) == nil) != want {
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

// TestOracleRandom compares Parse with the oracle on seeded random tags built from RFC 5646's
// parts and then mutated: a deterministic complement to FuzzParse that runs with every go test.
func TestOracleRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5646, 1))
	parts := []string{"en", "pt", "ban", "zh", "JA", "i", "x", "X", "jaja", "yue", "min", "Latn", "hant",
		"BR", "419", "gb", "1901", "rozaj", "ROZAJ", "abcdefgh", "a", "u", "U", "t", "1", "co", "phonebk",
		"ca", "abcdefghi", "default", "oed", "GB", "sgn", "BE", "NL", ""}
	const noise = "-aZ09 _\x00"
	var valid int
	for range 50_000 {
		k := 1 + r.IntN(7)
		list := make([]string, k)
		for i := range list {
			list[i] = parts[r.IntN(len(parts))]
		}
		b := []byte(strings.Join(list, "-"))
		if r.IntN(4) == 0 && len(b) > 0 {
			b[r.IntN(len(b))] = noise[r.IntN(len(noise))]
		}
		s := string(b)
		want := oracleValid(s)
		if want {
			valid++
		}
		if _, err := Parse(s); (err == nil) != want || IsValid(s) != want {
			t.Fatalf("Parse(%q) = %v; oracle says valid=%v", s, err, want)
		} else if err != nil {
			checkError(t, err, s)
		}
	}
	if valid < 500 {
		t.Errorf("only %d valid tags generated", valid)
	}
}
