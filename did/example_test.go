package did_test

import (
	"fmt"

	"github.com/atcore/atcore/did"
)

func ExampleParse() {
	d, err := did.Parse("did:plc:ewvi7nxzyoun6zhxrhs64oiz")
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Method(), d.Identifier(), d.IsPLC())

	_, err = did.Parse("did:METHOD:val")
	fmt.Println(err)

	host, err := did.MustParse("did:web:localhost%3A2583").WebHost()
	fmt.Println(host, err)
	_, err = did.MustParse("did:web:example.com:u:alice").WebHost()
	fmt.Println(err)
	// Output:
	// plc ewvi7nxzyoun6zhxrhs64oiz true
	// invalid DID "did:METHOD:val": 'M' at offset 4: the method is lower-case letters only, then ':'
	// localhost:2583 <nil>
	// invalid DID "did:web:example.com:u:alice": ':' at offset 19: path-based did:web is not supported in atproto
}
