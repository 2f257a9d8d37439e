package utf8v

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the claims in valid.go: the entry points inline into their callers (one
// call, not two, per validated string) and the word load and the automaton's step loop inline
// into valid.
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		"Valid",
		"ValidString",
		"load64",
		"run",
	})
}
