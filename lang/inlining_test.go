package lang

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining checks that the small accessors stay inlinable, so that reading a Tag costs no
// call, as netip's inlining_test does for its types.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the compiler's inlining report")
	}
	inline.Check(t, []string{
		"MustParse",
		"Tag.String",
		"Tag.IsZero", "Tag.IsValid",
		"Tag.Script",
		"Tag.Region",
		"Tag.AppendText",
	})
}
