package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// recordNames are the realistic records in testdata/records, each as .cbor and .json: a post
// with facets, a reply and an image blob; a like; a follow; a profile with blobs; a long list;
// a record with deep but legal nesting.
var recordNames = []string{"post", "like", "follow", "profile", "list", "deep"}

// A record is one of the shared inputs, in both forms.
type record struct {
	name string
	cbor []byte
	json []byte
}

// loadRecords reads every record in recordNames; a missing one is a failure, not a skip.
func loadRecords(t testing.TB) []record {
	t.Helper()
	var out []record
	for _, name := range recordNames {
		r := record{name: name}
		var err error
		dir := filepath.Join(repoRoot, "testdata", "records")
		if r.cbor, err = os.ReadFile(filepath.Join(dir, name+".cbor")); err != nil {
			t.Fatal(err)
		}
		if r.json, err = os.ReadFile(filepath.Join(dir, name+".json")); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}
