package peers

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// verdicts says, for each kind of disagreement that datetimeDisagreement and
// languageDisagreement name, which implementation follows the texts and why.
var verdicts = map[string]string{
	datetimeComma: "atcore. RFC 3339's `time-secfrac` is `\".\" 1*DIGIT`; only ISO 8601 allows a comma, so the " +
		"intersection the spec asks for has none. `datetime.ParseLenient` reads it.",
	datetimeOffsetHours: "atcore. RFC 3339's `time-numoffset` has hours 00 to 23 (and WHATWG's offsets too).",
	langPrivateUse: "atcore. A whole private-use tag is a `Language-Tag` in RFC 5646 §2.1, and the vector " +
		"`X-fr-CH` is in `language_syntax_valid.txt`.",
	langUpperI: "atcore by RFC 5646 §2.1.1 (tags are case-insensitive); the atproto texts are silent.",
	langBadI:   "atcore. RFC 5646 allows a lone `i` only in the grandfathered tags it lists (`i-default`, `i-navajo`, …).",
	langBareSingleton: "atcore. RFC 5646: `extension = singleton 1*(\"-\" (2*8alphanum))`, " +
		"`privateuse = \"x\" 1*(\"-\" (1*8alphanum))`.",
	langDupSingleton: "atcore. `language_parse_invalid.txt` rejects them (RFC 5646 §2.2.6).",
	langDupVariant:   "atcore. `language_parse_invalid.txt` rejects them (RFC 5646 §2.2.5).",
	langLongSubtag:   "atcore. RFC 5646 subtags have 1 to 8 characters.",
	langOutOfPlace: "atcore. RFC 5646 §2.1 fixes the order of subtags; e.g. `de-419-DE`, which the vector " +
		"file keeps commented out as \"technically not valid, but allowing in naive parser\".",
}

// disagreementTally counts the disagreements of one kind and keeps the shortest example.
type disagreementTally struct {
	vectors, random int
	example         string
}

// tallyDisagreements runs accepts on the vector files and on randomStringsCount strings from gen,
// and groups the disagreements by the reason explain gives ("" for an unexplained one).
func tallyDisagreements(t testing.TB, files []string, seed uint64, gen func(*rand.Rand) string,
	accepts func(string) (bool, bool), explain func(string, bool) string) map[string]*disagreementTally {
	out := map[string]*disagreementTally{}
	note := func(s string, vector bool) {
		a, i := accepts(s)
		if a == i {
			return
		}
		why := explain(s, a)
		d := out[why]
		if d == nil {
			d = &disagreementTally{example: s}
			out[why] = d
		}
		if vector {
			d.vectors++
		} else {
			d.random++
		}
		if len(s) < len(d.example) || len(s) == len(d.example) && s < d.example {
			d.example = s
		}
	}
	for _, f := range files {
		for _, s := range readVectorLines(t, f) {
			note(s, true)
		}
	}
	r := rand.New(rand.NewPCG(syntaxSeed, seed))
	for range randomStringsCount {
		note(gen(r), false)
	}
	return out
}

// datetimeLanguageSection is CONFORMANCE.md's section on datetimes and language tags.
func datetimeLanguageSection(t *testing.T) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	names := func(files []struct {
		name  string
		valid bool
	}) (out []string) {
		for _, f := range files {
			out = append(out, f.name)
		}
		return out
	}
	dtFiles, langFiles := names(datetimeVectorFiles), names(languageVectorFiles)
	count := func(files []string) (n int) {
		for _, f := range files {
			n += len(readVectorLines(t, f))
		}
		return n
	}
	p("\n## Datetimes and language tags (indigo `atproto/syntax`)\n\n")
	p("`datetime.Parse` and `syntax.ParseDatetime`, `lang.Parse` and `syntax.ParseLanguage` were run on\n")
	p("the %d datetime and %d language-tag conformance vectors and on %s seeded random strings each\n", count(dtFiles), count(langFiles), "100,000")
	p("(datetimes: every field pushed to its edges, offsets to ±29:69, one character changed or cut;\n")
	p("tags: RFC 5646's parts in order, repeated variants and singletons, one character changed).\n")
	p("Where both accept a datetime they read the same instant. atcore agrees with every vector (its\n")
	p("tests fail otherwise); the \"vectors\" column counts the vectors on which indigo differs.\n\n")
	p("| kind | disagreement | vectors | random | shortest example | who is right |\n|---|---|---|---|---|---|\n")
	for _, kind := range []struct {
		name string
		tl   map[string]*disagreementTally
	}{
		{"datetime", tallyDisagreements(t, dtFiles, 3, randomDatetimeCandidate,
			func(s string) (bool, bool) { return datetimeAccepts(t, s) }, datetimeDisagreement)},
		{"language", tallyDisagreements(t, langFiles, 4, randomLanguageCandidate, languageAccepts, languageDisagreement)},
	} {
		reasons := make([]string, 0, len(kind.tl))
		for why := range kind.tl {
			reasons = append(reasons, why)
		}
		slices.Sort(reasons)
		for _, why := range reasons {
			d := kind.tl[why]
			a, _ := map[string]func(string) (bool, bool){
				"datetime": func(s string) (bool, bool) { return datetimeAccepts(t, s) },
				"language": languageAccepts,
			}[kind.name](d.example)
			who := "atcore accepts, indigo rejects"
			if !a {
				who = "indigo accepts, atcore rejects"
			}
			verdict, known := verdicts[why]
			if why == "" || !known {
				t.Errorf("%s: unexplained disagreement, e.g. %q", kind.name, d.example)
				why, verdict = "unexplained", "to be examined"
			}
			p("| %s | %s: %s | %d | %d | %s | %s |\n", kind.name, who, why, d.vectors, d.random, escapeCell(fmt.Sprintf("`%q`", d.example)), verdict)
		}
	}
	return b.String()
}
