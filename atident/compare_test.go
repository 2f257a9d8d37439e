package atident

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

// Compare: the zero ID, then DIDs byte by byte, then handles by lower-case form (then as
// written); 0 only for ==.
func TestCompare(t *testing.T) {
	ordered := []string{
		"",
		"did:plc:ewvi7nxzyoun6zhxrhs64oiz",
		"did:web:Example.com", // DIDs are case-sensitive: 'E' < 'a'
		"did:web:alice.test",
		"a.test", // handles after every DID, whatever their first letter
		"ALICE.test",
		"alice.test",
		"zed.test",
	}
	parse := func(s string) ID {
		if s == "" {
			return ID{}
		}
		return MustParse(s)
	}
	ids := make([]ID, len(ordered))
	for i, s := range ordered {
		ids[i] = parse(s)
	}
	apitest.CheckOrder(t, ids, ID.Compare, ID.String)
	a, b := MustParse("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), MustParse("alice.test")
	if n := testing.AllocsPerRun(100, func() { _ = a.Compare(b) }); n != 0 {
		t.Errorf("Compare allocates %v times", n)
	}
}
