package atident

import (
	"errors"
	"testing"

	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
)

// The part's own error is reachable with errors.As, as its sentinels are with errors.Is, here and
// through an AT URI's error.
func TestErrorPartAs(t *testing.T) {
	_, err := Parse("did:plc:")
	var de *did.Error
	if !errors.As(err, &de) || !errors.Is(err, did.ErrInvalid) || !errors.Is(err, ErrInvalid) {
		t.Errorf("%v: *did.Error %+v", err, de)
	}
	_, err = Parse("alice..example.com")
	var he *handle.Error
	if !errors.As(err, &he) || !errors.Is(err, handle.ErrInvalid) || he.Offset != 6 {
		t.Errorf("%v: *handle.Error %+v", err, he)
	}
}
