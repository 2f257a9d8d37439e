package tid

import (
	"testing"

	"github.com/atcore/atcore/internal/inline"
)

// TestInlining holds the claims of the package's comments: the package-level Next costs one call
// (to Generator.Next, whose clock read monoMicro inlines), and the accessors and encoders of a
// TID cost none. (Parse is one call: the decoding table loop does all the work.)
func TestInlining(t *testing.T) {
	inline.Check(t, []string{
		"Next", "monoMicro", "IsValid", "MustParse",
		"TID.String", "TID.AppendText", "TID.Compare", "TID.IsValid", "TID.UnixMicro", "TID.ClockID", "TID.ClockClass",
		"TID.Bytes", "TID.AppendBytes", "(*Error).Unwrap",
	})
}
