package lexicon_test

import (
	"fmt"
	"testing/fstest"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/lexicon"
)

// A service embeds its schemas (here an in-memory fs.FS standing for an embed.FS), builds the
// catalog once, and validates each record it receives.
func Example() {
	schemas := fstest.MapFS{"lexicons/com/example/note.json": {Data: []byte(`{
	  "lexicon": 1, "id": "com.example.note",
	  "defs": {"main": {"type": "record", "key": "tid", "record": {
	    "type": "object", "required": ["text"],
	    "properties": {
	      "text": {"type": "string", "maxGraphemes": 10},
	      "stars": {"type": "integer", "minimum": 1, "maximum": 5}
	    }}}}}`)}}
	cat, err := lexicon.LoadFS(schemas, "lexicons")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, body := range []string{
		`{"$type": "com.example.note", "text": "good", "stars": 4}`,
		`{"$type": "com.example.note", "text": "far too long a note", "stars": 9}`,
	} {
		rec, err := datamodel.UnmarshalJSON([]byte(body))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(cat.ValidateRecord(rec, lexicon.Options{RKey: "3kxnlhr3gxq23"}))
		for _, e := range cat.CheckRecord(rec, lexicon.Options{}).Errors {
			fmt.Println(" ", e.Path, e.Rule)
		}
	}
	// Output:
	// <nil>
	// invalid value at "/stars": maximum: 9 is above the maximum 5
	//   /stars maximum
	//   /text maxGraphemes
}
