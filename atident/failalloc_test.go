package atident

import "testing"

// Parse's failure path builds one error, wrapping the did or handle package's: it allocates no
// more than ValidateAt, which builds exactly that. (It used to build a second one first, from a
// did.Parse or handle.Parse whose error was thrown away.)
func TestParseBuildsOneError(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations of its own")
	}
	for _, s := range []string{"jo_hn.test", "did:plc:", "DID:plc:abc", "did:METHOD:val", "blah", ""} {
		parse := testing.AllocsPerRun(50, func() { _, _ = Parse(s) })
		validateAt := testing.AllocsPerRun(50, func() { _ = ValidateAt(s, 5) })
		t.Logf("%q: Parse %v allocs, ValidateAt %v", s, parse, validateAt)
		if parse > validateAt {
			t.Errorf("Parse(%q) makes %v allocations, ValidateAt %v: an error thrown away?", s, parse, validateAt)
		}
	}
}
