package did

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the package's claims that the accessors cost no call, and that Parse reads
// an exact did:plc "inline" (did.go): le64 and notBase32 must inline there, or its fast path
// makes six calls. (Otherwise Parse and Validate are one call each: the table-driven loop, which
// is too big to inline, does the work.)
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		"DID.IsValid", "DID.String", "DID.Method", "DID.Identifier", "DID.Compare",
		"DID.AppendText", "(*Error).Unwrap", "le64", "notBase32",
	})
}
