package aturi_test

import (
	"fmt"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/nsid"
)

func ExampleParse() {
	u, err := aturi.Parse("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g")
	if err != nil {
		panic(err)
	}
	repo, _ := u.Authority().DID()
	fmt.Println(repo.Method(), u.Collection().Name(), u.RecordKey())

	_, err = aturi.Parse("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/")
	fmt.Println(err)
	_, err = aturi.Parse("at://did:plc:ewvi7nxzyoun6zhxrhs64oiz#/frag")
	fmt.Println(err)
	// Output:
	// plc post 3k5nobkf2w72g
	// invalid AT URI "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/": trailing '/' at offset 56
	// invalid AT URI "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz#/frag": '#' at offset 37: an at-uri has no query or fragment part
}

func ExampleNew() {
	u, err := aturi.New(atident.MustParse("Alice.Test"), nsid.MustParse("app.bsky.actor.profile"), "self")
	if err != nil {
		panic(err)
	}
	fmt.Println(u)
	fmt.Println(u.Normalize())
	// Output:
	// at://Alice.Test/app.bsky.actor.profile/self
	// at://alice.test/app.bsky.actor.profile/self
}
