package lang_test

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/lang"
)

func ExampleParse() {
	tag, err := lang.Parse("pt-BR")
	if err != nil {
		panic(err)
	}
	fmt.Println(tag, tag.Language(), tag.Region())

	for _, s := range []string{"JA", "de-DE-1901-1901"} {
		_, err := lang.Parse(s)
		fmt.Println(err)
		fmt.Println(errors.Is(err, lang.ErrDuplicate))
	}
	// Output:
	// pt-BR pt BR
	// invalid language tag "JA": "JA" at offset 0: the primary language subtag must be lower case
	// false
	// invalid language tag "de-DE-1901-1901": variant "1901" at offset 11 appears twice (RFC 5646 §2.2.5)
	// true
}
