package handle_test

import (
	"fmt"
	"slices"

	"github.com/atcore/atcore/handle"
)

func ExampleParse() {
	h, err := handle.Parse("Alice.Bsky.Social")
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Normalize(), h.TLD())

	_, err = handle.Parse("jo_hn.test")
	fmt.Println(err)

	// Valid syntax, but not usable for an account.
	local := handle.MustParse("laptop.local")
	fmt.Println(local.HasDisallowedTLD(), handle.MustParse("handle.invalid").IsInvalidHandle())
	// Output:
	// alice.bsky.social Social
	// invalid handle "jo_hn.test": '_' at offset 2 is not allowed in a handle
	// true true
}

// Handles sort by their lower-case form; handles equal but for case sit together.
func ExampleHandle_Compare() {
	hs := []handle.Handle{
		handle.MustParse("bob.test"),
		handle.MustParse("Alice.test"),
		handle.MustParse("carol.example.com"),
		handle.MustParse("alice.test"),
	}
	slices.SortFunc(hs, handle.Handle.Compare)
	fmt.Println(hs)
	// Output:
	// [Alice.test alice.test bob.test carol.example.com]
}
