package peers

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"
	ilex "github.com/bluesky-social/indigo/atproto/lexicon"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/lexicon"
)

// lexiconDir holds the 402 real schema files (app.bsky, com.atproto, chat.bsky, tools.ozone, …),
// copied into the lexicon package's testdata with their licence.
var lexiconDir = filepath.Join(repoRoot, "lexicon", "testdata", "lexicons")

// lexiconRecords are the records of testdata/records that have a real schema (list and deep
// are com.example types).
var lexiconRecords = []string{"post", "like", "follow", "profile"}

var (
	lexOnce     sync.Once
	lexAtcore   *lexicon.Catalog
	lexIndigo   *ilex.BaseCatalog
	lexLoadErrs [2]error
)

// lexiconCatalogs loads the real schemas into both implementations, once.
func lexiconCatalogs(t testing.TB) (*lexicon.Catalog, *ilex.BaseCatalog) {
	t.Helper()
	lexOnce.Do(func() {
		lexAtcore, lexLoadErrs[0] = lexicon.LoadDir(lexiconDir)
		lexIndigo = ilex.NewBaseCatalog()
		lexLoadErrs[1] = lexIndigo.LoadDirectory(lexiconDir)
	})
	for _, err := range lexLoadErrs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return lexAtcore, lexIndigo
}

// BenchmarkLexiconValidate validates each real record against its schema, the value already
// decoded (from JSON, by each implementation's own decoder): the validation alone is timed.
// indigo's ValidateRecord takes the collection as an argument; atcore's reads $type.
func BenchmarkLexiconValidate(b *testing.B) {
	cat, icat := lexiconCatalogs(b)
	for _, r := range loadRecords(b) {
		if !isLexiconRecord(r.name) {
			continue
		}
		ours, err := datamodel.UnmarshalJSON(r.json)
		if err != nil {
			b.Fatal(err)
		}
		theirs, err := atdata.UnmarshalJSON(r.json)
		if err != nil {
			b.Fatal(err)
		}
		typ := ours.(map[string]any)["$type"].(string)
		b.Run("rec="+r.name, func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := cat.ValidateRecord(ours, lexicon.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := ilex.ValidateRecord(icat, theirs, typ, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkLexiconLoad loads and checks the 402 real schema files from disk, and (atcore)
// resolves every reference; indigo resolves references when it validates.
func BenchmarkLexiconLoad(b *testing.B) {
	b.Run("impl=atcore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := lexicon.LoadDir(lexiconDir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=indigo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := ilex.NewBaseCatalog().LoadDirectory(lexiconDir); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func isLexiconRecord(name string) bool {
	for _, n := range lexiconRecords {
		if n == name {
			return true
		}
	}
	return false
}
