package lang

import (
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestSQL(t *testing.T) {
	apitest.CheckSQL[Tag](t, apitest.SQLCase{
		Valid:      []string{"pt-BR", "en-gb", "i-default"},
		Invalid:    "jaja",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
