package lang

import (
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

// Compare is a total order consistent with ==; tags equal but for case (the same tag, RFC 5646
// §2.1.1) sort next to each other, ordered as written.
func TestCompare(t *testing.T) {
	ordered := []string{
		"", // the zero Tag sorts first
		"de",
		"en",
		"en-GB",
		"en-gb",
		"en-US",
		"i-default",
		"pt-BR",
		"X-whatever", // a whole private-use tag, either case
		"x-whatever",
		"zh-Hant-TW",
	}
	parse := func(s string) Tag {
		if s == "" {
			return Tag{}
		}
		return MustParse(s)
	}
	tags := make([]Tag, len(ordered))
	for i, s := range ordered {
		tags[i] = parse(s)
	}
	apitest.CheckOrder(t, tags, Tag.Compare, Tag.String)
	for i, a := range ordered {
		for j, b := range ordered {
			if strings.EqualFold(a, b) && i < j {
				for k := i; k <= j; k++ {
					if !strings.EqualFold(ordered[k], a) {
						t.Errorf("%q sorts between %q and %q, the same tag", ordered[k], a, b)
					}
				}
			}
		}
	}
	a, b := MustParse("en-GB"), MustParse("en-gb")
	if n := testing.AllocsPerRun(100, func() { _ = a.Compare(b) }); n != 0 {
		t.Errorf("Compare allocates %v times", n)
	}
}
