package lexicon

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

var (
	realOnce sync.Once
	realCat  *Catalog
	realErr  error
)

// realCatalog loads the 402 real schemas of testdata/lexicons once per test binary.
func realCatalog(t testing.TB) *Catalog {
	t.Helper()
	realOnce.Do(func() { realCat, realErr = LoadDir(filepath.Join("testdata", "lexicons")) })
	if realErr != nil {
		t.Fatal(realErr)
	}
	return realCat
}

func TestRealSchemasLoad(t *testing.T) {
	c := realCatalog(t)
	if n := len(c.Schemas()); n != 402 {
		t.Errorf("%d schemas loaded, want all 402 files", n)
	}
	for ref, typ := range map[string]string{
		"app.bsky.feed.post":                     "record",
		"app.bsky.feed.getTimeline":              "query",
		"com.atproto.repo.createRecord":          "procedure",
		"com.atproto.sync.subscribeRepos":        "subscription",
		"app.bsky.feed.defs#postView":            "object",
		"app.bsky.feed.post#main":                "record",
		"com.atproto.moderation.defs#reasonSpam": "token",
	} {
		if got := c.Type(ref); got != typ {
			t.Errorf("Type(%q) = %q, want %q", ref, got, typ)
		}
	}
}

// realRecords are the records of the repository's testdata/records whose type has a real
// schema; list and deep are com.example types that no schema describes.
var realRecords = []string{"post", "like", "follow", "profile"}

func loadRecord(t testing.TB, name, ext string) any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "records", name+ext))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if ext == ".json" {
		v, err = datamodel.UnmarshalJSON(data)
	} else {
		v, err = datamodel.UnmarshalCBOR(data)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRealRecords(t *testing.T) {
	c := realCatalog(t)
	for _, name := range realRecords {
		for _, ext := range []string{".json", ".cbor"} {
			rec := loadRecord(t, name, ext)
			if err := c.ValidateRecord(rec, Options{}); err != nil {
				t.Errorf("%s%s: %v", name, ext, err)
			}
			r := c.CheckRecord(rec, Options{})
			if r.Err() != nil || len(r.Warnings) != 0 {
				t.Errorf("%s%s: errors %v, warnings %v", name, ext, r.Errors, r.Warnings)
			}
		}
	}
	for _, name := range []string{"list", "deep"} {
		err := c.ValidateRecord(loadRecord(t, name, ".json"), Options{})
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound (no schema for its com.example type)", name, err)
		}
	}
}

// TestIssueRecord is the record of issue 17: a valid data-model value that is nonsense for
// its collection.
func TestIssueRecord(t *testing.T) {
	c := realCatalog(t)
	rec, err := datamodel.UnmarshalJSON([]byte(`{"$type": "app.bsky.feed.post", "text": 5, "createdAt": "yesterday"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := c.CheckRecord(rec, Options{})
	var got []string
	for _, e := range r.Errors {
		got = append(got, e.Path+" "+e.Rule)
	}
	want := []string{"/createdAt format", "/text type"}
	if !slices.Equal(got, want) {
		t.Errorf("errors %q, want %q", got, want)
	}
}

func TestValidateRecordAllocs(t *testing.T) {
	c := realCatalog(t)
	for _, name := range realRecords {
		for _, ext := range []string{".json", ".cbor"} {
			rec := loadRecord(t, name, ext)
			allocs := testing.AllocsPerRun(100, func() {
				if err := c.ValidateRecord(rec, Options{}); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s%s: %v allocations per valid record, want 0", name, ext, allocs)
			}
		}
	}
}

// BenchmarkValidateRecord validates the real records (decoded from JSON) against their
// schemas; internal/peers compares the same with indigo.
func BenchmarkValidateRecord(b *testing.B) {
	c := realCatalog(b)
	for _, name := range realRecords {
		rec := loadRecord(b, name, ".json")
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.ValidateRecord(rec, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
