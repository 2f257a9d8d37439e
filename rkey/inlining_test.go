package rkey

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the claims the docs make: the syntax check and the small accessors cost no
// call, as net/netip's inlining test does for its types.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the compiler's inlining report")
	}
	inline.Check(t, []string{
		"IsValid",
		"MustParseKeyType",
		"KeyType.String",
		"KeyType.LiteralValue",
		"KeyType.AppendText",
		"KeyType.MarshalText",
		"(*KeyType).UnmarshalText",
		"ValidatePath",
	})
}
