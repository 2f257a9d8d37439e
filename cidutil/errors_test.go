package cidutil

import "testing"

// TestErrorWithoutSentinel: an Error built without its Err still has a message (Error used to
// panic).
func TestErrorWithoutSentinel(t *testing.T) {
	if got, want := (&Error{Reason: "r"}).Error(), "cidutil: r"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
