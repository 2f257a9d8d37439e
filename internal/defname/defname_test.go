package defname

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, s := range []string{"main", "mention", "replyRef", "a", "x1", strings.Repeat("a", 63)} {
		if !Valid(s) {
			t.Errorf("%q: invalid, want valid", s)
		}
	}
	for _, s := range []string{"", "1a", "a-b", "a_b", "a.b", "é", "a b", strings.Repeat("a", 64)} {
		if Valid(s) {
			t.Errorf("%q: valid, want invalid", s)
		}
	}
}
