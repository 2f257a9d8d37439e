package aturi

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the package's claim that the accessors cost no call.
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		"URI.IsValid", "URI.String", "URI.Authority", "URI.Collection", "URI.RecordKey", "URI.Compare",
		"URI.AppendText",
	})
}
