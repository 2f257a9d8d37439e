package nsid

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestSQL(t *testing.T) {
	apitest.CheckSQL[NSID](t, apitest.SQLCase{
		Valid:      []string{"app.bsky.feed.post", "COM.Example.fooBar"},
		Invalid:    "app.bsky",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
