package peers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/nsid"
)

// identKind is one identifier syntax compared with indigo's atproto/syntax: its vector files,
// both parsers, and a generator of near-miss strings.
type identKind struct {
	name           string
	valid, invalid string // vector files
	atcore, indigo func(string) bool
	random         func(*rand.Rand) string
	// disagreements are the inputs on which atcore and indigo may differ, each with the reason
	// and who is right; CONFORMANCE.md lists them. Any other difference fails the tests.
	disagreements []syntaxDisagreement
}

var identKinds = []identKind{
	{
		name: "NSID", valid: "nsid_syntax_valid.txt", invalid: "nsid_syntax_invalid.txt",
		atcore: func(s string) bool { return nsid.Validate(s) == nil },
		indigo: func(s string) bool { _, err := syntax.ParseNSID(s); return err == nil },
		random: randomNSIDCandidate,
	},
	{
		name: "DID", valid: "did_syntax_valid.txt", invalid: "did_syntax_invalid.txt",
		atcore: func(s string) bool { return did.Validate(s) == nil },
		indigo: func(s string) bool { _, err := syntax.ParseDID(s); return err == nil },
		random: randomDIDCandidate,
	},
	{
		name: "handle", valid: "handle_syntax_valid.txt", invalid: "handle_syntax_invalid.txt",
		atcore: func(s string) bool { return handle.Validate(s) == nil },
		indigo: func(s string) bool { _, err := syntax.ParseHandle(s); return err == nil },
		random: randomHandleCandidate,
	},
	{
		name: "at-identifier", valid: "atidentifier_syntax_valid.txt", invalid: "atidentifier_syntax_invalid.txt",
		atcore: func(s string) bool { return atident.Validate(s) == nil },
		indigo: func(s string) bool { _, err := syntax.ParseAtIdentifier(s); return err == nil },
		random: randomAtIdentifierCandidate,
	},
	{
		name: "AT URI", valid: "aturi_syntax_valid.txt", invalid: "aturi_syntax_invalid.txt",
		atcore: func(s string) bool { return aturi.Validate(s) == nil },
		indigo: func(s string) bool { _, err := syntax.ParseATURI(s); return err == nil },
		random: randomATURICandidate,
	},
}

// identEdges are inputs at each spec rule's edge that the vector files lack: lengths exactly
// at and past the limits, white space and NUL at either end, look-alikes, upper case.
func identEdges(k identKind) []string {
	rep := strings.Repeat
	common := []string{"", " ", "\x00", "\n", "a", "A.B.C", "а.b.c"}
	switch k.name {
	case "NSID":
		return append(common, "com."+rep(rep("a", 62)+".", 4)+rep("a", 59)+".b", "com."+rep(rep("a", 62)+".", 4)+rep("a", 60)+".b",
			"com."+rep("a", 63)+".foo", "com."+rep("a", 64)+".foo", "com.example."+rep("a", 63), "com.example."+rep("a", 64),
			"com.example.foo\n", "\x00com.example.foo", "com.example.*", "COM.EXAMPLE.FOO", "com.example.foo.")
	case "handle", "at-identifier":
		return append(common, rep(rep("a", 62)+".", 4)+"a", rep(rep("a", 62)+".", 4)+"aa", "short."+rep("o", 63), "short."+rep("o", 64),
			"john.test\n", " john.test", "john.test\x00", "jоhn.test", "xn--ls8h.test", "name.org.", "127.0.0.1",
			"did:plc:"+rep("a", 2040), "did:plc:"+rep("a", 2041), "did:plc:abc\n", "did:web:localhost%3A1234", "DID:plc:abc")
	case "DID":
		return append(common, "did:plc:"+rep("a", 2040), "did:plc:"+rep("a", 2041), "did:plc:abc\n", "did:plc:abc ", " did:plc:abc",
			"did:рlc:abc", "did:plc:ewvi7nxzyoun6zhxrhs64oi\u00e9", "did:web:localhost%3A1234", "did:m:v%", "did:m:v:")
	case "AT URI":
		return append(common, "at://did:plc:asdf123/com.atproto.feed.post/"+rep("o", 512), "at://did:plc:asdf123/com.atproto.feed.post/"+rep("o", 513),
			"at://did:m:"+rep("a", 2042), "at://did:m:"+rep("a", 2043), "at://"+rep(rep("a", 62)+".", 4)+"a", "at://"+rep(rep("a", 62)+".", 4)+"aa",
			"at://a.test\n", "at://a.test/a.b.c/k\x00", "at://Alice.Test/COM.example.Foo/Self", "at://did:plc:abc?x", "at://a.test/a.b.c/.")
	}
	return common
}

// identVectors returns the vectors of k with whether each is valid.
func identVectors(t testing.TB, k identKind) (cases []string, valid []bool) {
	for _, f := range []struct {
		name  string
		valid bool
	}{{k.valid, true}, {k.invalid, false}} {
		for _, s := range readVectorLines(t, f.name) {
			cases = append(cases, s)
			valid = append(valid, f.valid)
		}
	}
	return cases, valid
}

func TestIdentifierVectorsAgree(t *testing.T) {
	for _, k := range identKinds {
		cases, valid := identVectors(t, k)
		for i, s := range cases {
			a, ind := k.atcore(s), k.indigo(s)
			if a != valid[i] {
				t.Errorf("%s %.80q: atcore accepts=%v, vector says valid=%v", k.name, s, a, valid[i])
			}
			if a != ind && !allowedDisagreement(k.disagreements, s) {
				t.Errorf("%s %.80q: atcore accepts=%v, indigo accepts=%v", k.name, s, a, ind)
			}
		}
	}
}

func TestIdentifierEdgesAgree(t *testing.T) {
	for _, k := range identKinds {
		for _, s := range identEdges(k) {
			if a, ind := k.atcore(s), k.indigo(s); a != ind && !allowedDisagreement(k.disagreements, s) {
				t.Errorf("%s %.80q: atcore accepts=%v, indigo accepts=%v", k.name, s, a, ind)
			}
		}
	}
}

func TestIdentifierRandomStringsAgree(t *testing.T) {
	for i, k := range identKinds {
		r := rand.New(rand.NewPCG(syntaxSeed, uint64(10+i)))
		accepted := 0
		for range randomStringsCount {
			s := k.random(r)
			a, ind := k.atcore(s), k.indigo(s)
			if a {
				accepted++
			}
			if a != ind && !allowedDisagreement(k.disagreements, s) {
				t.Errorf("%s %.80q: atcore accepts=%v, indigo accepts=%v", k.name, s, a, ind)
			}
		}
		if accepted < randomStringsCount/10 || accepted > randomStringsCount*9/10 {
			t.Errorf("%s: generator produced %d valid of %d; want a mix", k.name, accepted, randomStringsCount)
		}
	}
}

// identNoise holds near-miss bytes for every identifier syntax: punctuation either side of the
// allowed sets, the separators of the other syntaxes, a NUL, white space, a byte that is never
// UTF-8, and multi-byte look-alikes (Cyrillic 'а', fullwidth '．', 'é').
var identNoise = []string{"_", "~", ":", "/", "@", "#", "?", "%", "*", "+", " ", "\t", "\x00", "\xff", "а", "．", "é", "..", "-", "--"}

// randomLabels returns count labels joined by sep: letters, digits and '-', lengths around the
// 63-character boundary now and then, with occasional noise.
func randomLabels(r *rand.Rand, count int, alphabet string) string {
	var b strings.Builder
	for i := range count {
		if i > 0 {
			b.WriteByte('.')
		}
		n := 1 + r.IntN(8)
		switch r.IntN(20) {
		case 0:
			n = 62 + r.IntN(3)
		case 1:
			n = 0
		}
		for range n {
			if r.IntN(40) == 0 {
				b.WriteString(identNoise[r.IntN(len(identNoise))])
				continue
			}
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
	}
	return b.String()
}

const labelAlphabet = "abcxyzABCXYZ0129abcdefghijklmnop-"

// randomNSIDCandidate returns a string of 1 to 6 segments, often a valid NSID; now and then
// long enough to cross the 317-byte limit.
func randomNSIDCandidate(r *rand.Rand) string {
	s := randomLabels(r, 1+r.IntN(6), labelAlphabet)
	if r.IntN(30) == 0 {
		s = "com." + strings.Repeat("abcdefghijklmnop.", 15+r.IntN(5)) + "name"
	}
	return s
}

// randomHandleCandidate returns a string of 1 to 5 labels, often a valid handle; now and then
// long enough to cross the 253-byte limit.
func randomHandleCandidate(r *rand.Rand) string {
	s := randomLabels(r, 1+r.IntN(5), labelAlphabet)
	if r.IntN(30) == 0 {
		s = strings.Repeat("abcdefghij.", 22+r.IntN(3)) + "test"
	}
	return s
}

// randomDIDCandidate returns "did:<method>:<identifier>" with near misses in every part, and
// now and then an identifier that crosses the 2048-byte limit.
func randomDIDCandidate(r *rand.Rand) string {
	prefixes := []string{"did:", "did:", "did:", "did:", "DID:", "did", "di:", ""}
	methods := []string{"plc", "web", "m", "key", "method", "METHOD", "m1", "", "pl_c"}
	const idAlphabet = "abcxyzABCXYZ0123456789._:%-"
	var b strings.Builder
	b.WriteString(prefixes[r.IntN(len(prefixes))])
	b.WriteString(methods[r.IntN(len(methods))])
	if r.IntN(20) != 0 {
		b.WriteByte(':')
	}
	n := r.IntN(30)
	if r.IntN(30) == 0 {
		n = 2030 + r.IntN(30)
	}
	for range n {
		if r.IntN(50) == 0 {
			b.WriteString(identNoise[r.IntN(len(identNoise))])
			continue
		}
		b.WriteByte(idAlphabet[r.IntN(len(idAlphabet))])
	}
	return b.String()
}

func randomAtIdentifierCandidate(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return randomDIDCandidate(r)
	}
	return randomHandleCandidate(r)
}

// randomATURICandidate returns an at:// URI built from candidate parts, with near misses in the
// scheme and the slashes, and now and then a query or fragment. Half of them are built from
// valid parts with at most one byte changed, so that about half are valid.
func randomATURICandidate(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		auths := []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:web:example.com", "alice.bsky.social", "XX.LCS.MIT.EDU", "did:m:v"}
		colls := []string{"app.bsky.feed.post", "com.example.fooBar", "a.b.c", "cn.8.lex.stuff"}
		keys := []string{"3k5nobkf2w72g", "self", "...", "lang:", "a", "~"}
		s := "at://" + auths[r.IntN(len(auths))]
		if r.IntN(3) != 0 {
			s += "/" + colls[r.IntN(len(colls))]
			if r.IntN(2) == 0 {
				s += "/" + keys[r.IntN(len(keys))]
			}
		}
		if r.IntN(2) == 0 {
			i := r.IntN(len(s))
			s = s[:i] + identNoise[r.IntN(len(identNoise))] + s[i+1:]
		}
		return s
	}
	schemes := []string{"at://", "at://", "at://", "at://", "at://", "AT://", "at:/", "at:///", "http://", ""}
	var b strings.Builder
	b.WriteString(schemes[r.IntN(len(schemes))])
	b.WriteString(randomAtIdentifierCandidate(r))
	if r.IntN(4) != 0 {
		b.WriteByte('/')
		if r.IntN(10) != 0 {
			b.WriteString(randomNSIDCandidate(r))
		}
		if r.IntN(3) != 0 {
			b.WriteByte('/')
			b.WriteString(randomRecordKeyCandidate(r))
		}
	}
	switch r.IntN(30) {
	case 0:
		b.WriteString("#/frag")
	case 1:
		b.WriteString("?x=1")
	case 2:
		b.WriteString("/")
	}
	return b.String()
}

// identDifferences reruns the comparisons for kind k and returns the inputs on which atcore
// and indigo disagree, and how many inputs were compared.
func identDifferences(t testing.TB, k identKind, seedStream uint64) (found []string, compared int) {
	cases, _ := identVectors(t, k)
	cases = append(cases, identEdges(k)...)
	r := rand.New(rand.NewPCG(syntaxSeed, seedStream))
	for range randomStringsCount {
		cases = append(cases, k.random(r))
	}
	for _, s := range cases {
		if k.atcore(s) != k.indigo(s) {
			found = append(found, s)
		}
	}
	return found, len(cases)
}
