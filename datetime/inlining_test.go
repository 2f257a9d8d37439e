package datetime

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining checks that the small accessors stay inlinable, so that reading a Datetime costs
// no call, as netip's inlining_test does for its types.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the compiler's inlining report")
	}
	inline.Check(t, []string{
		"IsValid",
		"MustParse",
		"Datetime.String",
		"Datetime.IsZero", "Datetime.IsValid",
		"Datetime.Offset",
		"Datetime.AppendText",
		"Datetime.Value",
		"FromTime",
	})
}
