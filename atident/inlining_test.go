package atident

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the package's claim that the accessors cost no call.
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		"ID.IsValid", "ID.IsDID", "ID.IsHandle", "ID.DID", "ID.Handle", "ID.String", "FromDID", "FromHandle",
	})
}
