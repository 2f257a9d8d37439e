package handle

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestSQL(t *testing.T) {
	apitest.CheckSQL[Handle](t, apitest.SQLCase{
		Valid:      []string{"alice.bsky.social", "Alice.Test"},
		Invalid:    "jo_hn.test",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
