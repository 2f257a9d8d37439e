package atident

import "testing"

// Compare: the zero ID, then DIDs byte by byte, then handles by lower-case form (then as
// written); 0 only for ==.
func TestCompare(t *testing.T) {
	ordered := []string{
		"",
		"did:plc:ewvi7nxzyoun6zhxrhs64oiz",
		"did:web:Example.com", // DIDs are case-sensitive: 'E' < 'a'
		"did:web:alice.test",
		"a.test", // handles after every DID, whatever their first letter
		"ALICE.test",
		"alice.test",
		"zed.test",
	}
	parse := func(s string) ID {
		if s == "" {
			return ID{}
		}
		return MustParse(s)
	}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = +1
			}
			ia, ib := parse(a), parse(b)
			if got := ia.Compare(ib); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
			if (ia == ib) != (i == j) {
				t.Errorf("%q == %q is %v", a, b, i != j)
			}
		}
	}
	a, b := MustParse("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), MustParse("alice.test")
	if n := testing.AllocsPerRun(100, func() { _ = a.Compare(b) }); n != 0 {
		t.Errorf("Compare allocates %v times", n)
	}
}
