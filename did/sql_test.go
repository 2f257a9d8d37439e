package did

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestSQL(t *testing.T) {
	apitest.CheckSQL[DID](t, apitest.SQLCase{
		Valid:      []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:web:example.com"},
		Invalid:    "did:plc:",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
