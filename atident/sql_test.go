package atident

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestSQL(t *testing.T) {
	apitest.CheckSQL[ID](t, apitest.SQLCase{
		Valid:      []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "alice.bsky.social"},
		Invalid:    "did:plc:",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
