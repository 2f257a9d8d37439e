package nsid_test

import (
	"errors"
	"fmt"

	"github.com/atcore/atcore/nsid"
)

func ExampleParse() {
	collection, err := nsid.Parse("app.bsky.feed.post")
	if err != nil {
		panic(err)
	}
	fmt.Println(collection.Authority(), collection.Name())

	_, err = nsid.Parse("app.bsky.feed.p@st")
	fmt.Println(err)
	fmt.Println(errors.Is(err, nsid.ErrCharacter))

	// The authority is case-insensitive, the name is not.
	fmt.Println(nsid.MustParse("COM.Example.fooBar").Normalize())
	// Output:
	// app.bsky.feed post
	// invalid NSID "app.bsky.feed.p@st": '@' at offset 15 is not allowed in an NSID
	// true
	// com.example.fooBar
}
