package handle

import (
	"slices"
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

// Compare is a total order consistent with ==, and with Equal in its first key: handles that are
// Equal sort next to each other, ordered as written.
func TestCompare(t *testing.T) {
	ordered := []string{
		"", // the zero Handle sorts first
		"a-b.test",
		"a.test",
		"ALICE.test", // Equal to the next two, upper case first
		"Alice.Test",
		"alice.test",
		"alice.test.x",
		"alice0.test",
		"b.test",
		"Bob.test",
		"bob.test",
	}
	parse := func(s string) Handle {
		if s == "" {
			return Handle{}
		}
		return MustParse(s)
	}
	handles := make([]Handle, len(ordered))
	for i, s := range ordered {
		handles[i] = parse(s)
	}
	apitest.CheckOrder(t, handles, Handle.Compare, Handle.String)
	for i, a := range ordered {
		for j, b := range ordered {
			ha, hb := handles[i], handles[j]
			// Equal handles are adjacent in the order: every handle between them is Equal too.
			if ha.Equal(hb) && i < j {
				for k := i; k <= j; k++ {
					if !parse(ordered[k]).Equal(ha) {
						t.Errorf("%q sorts between the Equal %q and %q", ordered[k], a, b)
					}
				}
			}
			// For normalized handles, Compare is the byte order of the strings.
			na, nb := ha.Normalize(), hb.Normalize()
			if got, want := na.Compare(nb), cmpStrings(na.String(), nb.String()); got != want {
				t.Errorf("Compare(%q, %q) normalized = %d, want %d", a, b, got, want)
			}
		}
	}
	shuffled := []Handle{parse("bob.test"), parse("Alice.Test"), {}, parse("a.test"), parse("ALICE.test")}
	slices.SortFunc(shuffled, Handle.Compare)
	if got := []Handle{{}, parse("a.test"), parse("ALICE.test"), parse("Alice.Test"), parse("bob.test")}; !slices.Equal(shuffled, got) {
		t.Errorf("sorted: %v", shuffled)
	}
	a, b := MustParse("alice.bsky.social"), MustParse("Alice.Bsky.Social")
	if n := testing.AllocsPerRun(100, func() { _ = a.Compare(b) }); n != 0 {
		t.Errorf("Compare allocates %v times", n)
	}
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return +1
	}
	return 0
}
