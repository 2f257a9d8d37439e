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

// A DID column: Value writes the text, Scan reads it back strictly, and NULL (an account not
// linked yet) is the zero DID.
func ExampleDID_Scan() {
	// As a driver hands rows to database/sql's Rows.Scan: text as []byte, or nil for NULL.
	for _, column := range []any{[]byte("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), nil, []byte("did:plc:")} {
		var d did.DID
		err := d.Scan(column)
		fmt.Printf("%q valid=%v err=%v\n", d, d.IsValid(), err)
	}
	v, _ := did.MustParse("did:web:example.com").Value()
	null, _ := did.DID{}.Value()
	fmt.Printf("%#v %#v\n", v, null)
	// Output:
	// "did:plc:ewvi7nxzyoun6zhxrhs64oiz" valid=true err=<nil>
	// "" valid=false err=<nil>
	// "" valid=false err=invalid DID "did:plc:": empty method-specific identifier
	// "did:web:example.com" <nil>
}
