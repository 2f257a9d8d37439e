package handle

import (
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// IsValid allocates on no input, valid or not: it is the check for callers that only branch.
func TestIsValidNoAllocs(t *testing.T) {
	testvec.NoAllocs(t, func(s string) { IsValid(s) }, "handle_syntax_valid.txt", "handle_syntax_invalid.txt")
}
