package ascii

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	ordered := []string{"", "-", ".", "0", "A", "a", "A.b", "a.B", "a.b", "ab", "AB.c", "b", "Z", "z", "za"}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = +1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
			fold := CompareFold(a, b)
			if (fold == 0) != strings.EqualFold(a, b) {
				t.Errorf("CompareFold(%q, %q) = %d, EqualFold %v", a, b, fold, strings.EqualFold(a, b))
			}
			if lo := strings.Compare(strings.ToLower(a), strings.ToLower(b)); fold != lo {
				t.Errorf("CompareFold(%q, %q) = %d, the lower-case forms compare %d", a, b, fold, lo)
			}
		}
	}
}
