package apitest

import "testing"

// CheckOrder checks that compare orders ordered, a list of distinct values written in the order
// Compare must give them, as a total order consistent with ==: compare(a, b) is -1, 0 or +1 as a
// comes before, is, or comes after b in the list, and a == b only for the same entry. name gives
// each entry's text for the messages.
func CheckOrder[T comparable](t *testing.T, ordered []T, compare func(a, b T) int, name func(T) string) {
	t.Helper()
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = +1
			}
			if got := compare(a, b); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", name(a), name(b), got, want)
			}
			if (a == b) != (i == j) {
				t.Errorf("%q == %q is %v", name(a), name(b), a == b)
			}
		}
	}
}
