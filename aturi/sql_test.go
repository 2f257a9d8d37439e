package aturi

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestSQL(t *testing.T) {
	apitest.CheckSQL[URI](t, apitest.SQLCase{
		Valid:      []string{"at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g", "at://alice.bsky.social"},
		Invalid:    "at://did:plc:asdf123/",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
