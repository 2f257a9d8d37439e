package peers

import (
	"math/rand/v2"
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/nsid"
)

// normalizeDiff is an input whose normalized form differs between atcore and indigo.
type normalizeDiff struct {
	kind, input, atcore, indigo string
}

// normalizeDifferences compares the normalized forms of every input both accept (the vectors,
// the edge cases and the valid random strings of each kind), and the handle checks beyond syntax.
func normalizeDifferences(t testing.TB) (diffs []normalizeDiff, compared int, tldDiffs []string) {
	for i, k := range identKinds {
		cases, _ := identVectors(t, k)
		cases = append(cases, identEdges(k)...)
		r := rand.New(rand.NewPCG(syntaxSeed, uint64(10+i)))
		for range randomStringsCount {
			cases = append(cases, k.random(r))
		}
		for _, s := range cases {
			if !k.atcore(s) || !k.indigo(s) {
				continue
			}
			var a, ind string
			switch k.name {
			case "NSID":
				a, ind = nsid.MustParse(s).Normalize().String(), syntax.NSID(s).Normalize().String()
			case "DID":
				continue // case-sensitive: neither normalizes
			case "handle":
				h := handle.MustParse(s)
				a, ind = h.Normalize().String(), syntax.Handle(s).Normalize().String()
				if h.HasDisallowedTLD() == syntax.Handle(s).AllowedTLD() || h.IsInvalidHandle() != syntax.Handle(s).IsInvalidHandle() {
					tldDiffs = append(tldDiffs, s)
				}
			case "at-identifier":
				a, ind = atident.MustParse(s).Normalize().String(), syntax.AtIdentifier(s).Normalize().String()
			case "AT URI":
				a, ind = aturi.MustParse(s).Normalize().String(), syntax.ATURI(s).Normalize().String()
			}
			compared++
			if a == ind {
				continue
			}
			// The one known cause: indigo leaves the collection of a URI without a record key
			// as it is. Any other difference fails the test.
			if u := aturi.MustParse(s); k.name != "AT URI" || u.RecordKey() != "" ||
				ind != "at://"+u.Authority().Normalize().String()+"/"+u.Collection().String() {
				t.Errorf("%s %q: atcore normalizes to %q, indigo to %q, for no known reason", k.name, s, a, ind)
			}
			diffs = append(diffs, normalizeDiff{k.name, s, a, ind})
		}
	}
	return diffs, compared, tldDiffs
}

// identifierSection writes CONFORMANCE.md's section on NSIDs, DIDs, handles, at-identifiers and
// AT URIs.
func identifierSection(t *testing.T, p func(string, ...any)) {
	p("\n## NSIDs, DIDs, handles, at-identifiers, AT URIs (indigo `atproto/syntax`)\n\n")
	p("`nsid.Validate`, `did.Validate`, `handle.Validate`, `atident.Validate` and `aturi.Validate` against\n")
	p("`syntax.ParseNSID`, `ParseDID`, `ParseHandle`, `ParseAtIdentifier` and `ParseATURI`, on the\n")
	p("conformance vectors, on edge cases the vectors lack (lengths at and past each limit, white space\n")
	p("and NUL at either end, look-alikes, upper case) and on %s seeded random near-misses per kind\n", "100,000")
	p("(`ident_diff_test.go`). Any difference not listed here fails the tests.\n\n")
	p("| identifier | vectors | edge cases | random strings | disagreements |\n|---|---|---|---|---|\n")
	var all []string
	for i, k := range identKinds {
		cases, _ := identVectors(t, k)
		found, _ := identDifferences(t, k, uint64(10+i))
		all = append(all, found...)
		p("| %s | %d | %d | %d | %d |\n", k.name, len(cases), len(identEdges(k)), randomStringsCount, len(found))
	}
	if len(all) == 0 {
		p("\nNo disagreement on what is valid.\n\n")
	} else {
		p("\nDisagreements on what is valid%s\n\n", listOrNothing(all))
	}
	p("Both follow the spec's regular expressions and length limits (NSID 317, DID 2048, handle 253,\n")
	p("AT URI 8192), so none are expected. Two rules of the texts that neither applies, both following\n")
	p("the vectors: an NSID's authority may pass 253 characters (a valid vector has 283), and a DID's\n")
	p("'%%' need not be followed by two hex digits (\"implementations do not need to validate\").\n\n")

	diffs, compared, tldDiffs := normalizeDifferences(t)
	p("Normalized forms (`Normalize` in both) of the %d inputs both accept, DIDs excepted\n", compared)
	p("(case-sensitive, neither changes them): %d differ, all AT URIs with a collection and no record\n", len(diffs))
	p("key. The spec (https://atproto.com/specs/at-uri-scheme, \"Normalization\") lower-cases the\n")
	p("authority of the NSID in an AT URI's path whether or not a record key follows; indigo's\n")
	p("`ATURI.Normalize` does it only when a record key follows. atcore follows the spec. Examples:\n\n")
	p("| input | atcore | indigo |\n|---|---|---|\n")
	seen := map[string]bool{}
	for _, d := range diffs {
		if len(seen) == 3 || seen[d.input] {
			continue
		}
		seen[d.input] = true
		p("| `%s` | `%s` | `%s` |\n", escapeCell(d.input), escapeCell(d.atcore), escapeCell(d.indigo))
	}
	p("\nHandle checks beyond syntax (`HasDisallowedTLD` against `!AllowedTLD`, `IsInvalidHandle` against\n")
	p("`IsInvalidHandle`) on every handle both accept: %d differ%s\n", len(tldDiffs), listOrNothing(tldDiffs))
}
