package plural

import (
	"fmt"
	"testing"
)

func TestS(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1, "1 byte"}, {2, "2 bytes"}, {-1, "-1 bytes"}} {
		if got := fmt.Sprintf("%d byte%s", tc.n, S(tc.n)); got != tc.want {
			t.Errorf("%d: %q, want %q", tc.n, got, tc.want)
		}
	}
	if S(uint64(1)) != "" || S(1) != "" {
		t.Error("S(1) of uint64 or int is not empty")
	}
}
