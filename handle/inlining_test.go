package handle

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the package's claim that the accessors cost no call. (Parse and Validate
// are one call each: the table-driven loop, which is too big to inline, does all the work.)
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		"Handle.IsValid", "Handle.String", "Handle.TLD", "Handle.Equal", "Handle.IsInvalidHandle",
		"Handle.AppendText", "(*Error).Unwrap",
	})
}
