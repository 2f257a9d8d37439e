package atident_test

import (
	"fmt"

	"github.com/atcore/atcore/atident"
)

func ExampleParse() {
	for _, repo := range []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "Alice.Bsky.Social", "alice"} {
		id, err := atident.Parse(repo)
		switch {
		case err != nil:
			fmt.Println(err)
		case id.IsDID():
			d, _ := id.DID()
			fmt.Println("DID, method", d.Method())
		default:
			h, _ := id.Handle()
			fmt.Println("handle", h.Normalize())
		}
	}
	// Output:
	// DID, method plc
	// handle alice.bsky.social
	// invalid at-identifier "alice": handle: a single label; a handle has at least two, as in example.com
}
