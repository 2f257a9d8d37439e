package peers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/rkey"
)

// syntaxSeed seeds the random TID and record-key strings, so that a failure reproduces.
const syntaxSeed = 20261122

// rkeyAccepts reports whether each implementation accepts s as a record key.
func rkeyAccepts(s string) (atcore, indigo bool) {
	_, errI := syntax.ParseRecordKey(s)
	return rkey.Validate(s) == nil, errI == nil
}

// syntaxDisagreement is a string on which atcore and indigo are allowed to differ, with the
// DECISIONS rule that says why. Both DECISIONS rule 1/2 (record keys) and rule 4 (TIDs) match
// indigo's regular expressions exactly, so both tables are empty; a case found by the tests below
// must either be fixed or be listed here and in CONFORMANCE.md.
type syntaxDisagreement struct {
	input string
	rule  string
}

var (
	tidDisagreements  = []syntaxDisagreement{}
	rkeyDisagreements = []syntaxDisagreement{}
)

// allowedDisagreement reports whether s is listed in table with the rule that explains it: an
// entry that gives no reason excuses nothing.
func allowedDisagreement(table []syntaxDisagreement, s string) bool {
	for _, d := range table {
		if d.input == s {
			return d.rule != ""
		}
	}
	return false
}

func TestRecordKeyVectorsAgree(t *testing.T) {
	for _, file := range []struct {
		name  string
		valid bool
	}{{"recordkey_syntax_valid.txt", true}, {"recordkey_syntax_invalid.txt", false}} {
		cases := readVectorLines(t, file.name)
		if !file.valid {
			// "#extra" is an invalid case that the comment filter drops (testdata/README.md).
			cases = append(cases, "#extra")
		}
		for _, s := range cases {
			a, i := rkeyAccepts(s)
			if a != file.valid {
				t.Errorf("%s %q: atcore accepts=%v, vector says valid=%v", file.name, s, a, file.valid)
			}
			if a != i && !allowedDisagreement(rkeyDisagreements, s) {
				t.Errorf("%s %q: atcore accepts=%v, indigo accepts=%v", file.name, s, a, i)
			}
		}
	}
}

const (
	tidAlphabet = "234567abcdefghijklmnopqrstuvwxyz"
	// rkeyNoise holds bytes that are near-misses for both syntaxes: the other digits and letters,
	// case changes, punctuation either side of the allowed set, a NUL, a space and multi-byte UTF-8.
	rkeyNoise = "0189ABCXYZ/%#?@!*+,;=[]{}\\ \x00\x7f\xff"
)

// randomRecordKeyCandidate returns a string from the record-key alphabet with occasional noise,
// of a length around the interesting boundaries (1, 2, 512, 513).
func randomRecordKeyCandidate(r *rand.Rand) string {
	const keyAlphabet = "abcxyzABCXYZ0129.-_:~"
	var n int
	switch r.IntN(10) {
	case 0:
		n = 510 + r.IntN(5)
	case 1:
		n = r.IntN(3)
	default:
		n = 1 + r.IntN(40)
	}
	var b strings.Builder
	for range n {
		switch r.IntN(60) {
		case 0:
			b.WriteByte(rkeyNoise[r.IntN(len(rkeyNoise))])
		case 1:
			b.WriteString("ü")
		case 2, 3, 4:
			b.WriteByte('.')
		default:
			b.WriteByte(keyAlphabet[r.IntN(len(keyAlphabet))])
		}
	}
	return b.String()
}

// randomStringsCount is how many random strings each syntax comparison tries per run.
const randomStringsCount = 100_000

func TestRecordKeyRandomStringsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(syntaxSeed, 2))
	var accepted int
	for range randomStringsCount {
		s := randomRecordKeyCandidate(r)
		a, i := rkeyAccepts(s)
		if a {
			accepted++
		}
		if a != i && !allowedDisagreement(rkeyDisagreements, s) {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	}
	if accepted < randomStringsCount/10 || accepted > randomStringsCount*9/10 {
		t.Errorf("generator produced %d valid record keys of %d; want a mix", accepted, randomStringsCount)
	}
}
