package apitest_test

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"encoding"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/lang"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/tid"
)

// value is the verb set of an identifier type T's values (netip's, issue 11): a type missing one
// does not compile into the table below.
type value[T any] interface {
	comparable
	fmt.Stringer
	encoding.TextMarshaler
	encoding.TextAppender
	driver.Valuer
	IsValid() bool
	Compare(T) int
}

// pointer is the verb set of *T.
type pointer[T any] interface {
	*T
	encoding.TextUnmarshaler
	sql.Scanner
}

// verbs checks what the interfaces cannot: that the verbs agree on a valid text s.
func verbs[T value[T], P pointer[T]](t *testing.T, parse func(string) (T, error), mustParse func(string) T, s string) {
	t.Helper()
	v, err := parse(s)
	if err != nil || !v.IsValid() || v.String() != s || mustParse(s) != v || v.Compare(v) != 0 {
		t.Errorf("%T: Parse(%q) = %v, %v", v, s, v, err)
	}
	text, err := v.MarshalText()
	appended, err2 := v.AppendText([]byte("x"))
	if err != nil || err2 != nil || string(text) != s || !bytes.Equal(appended, append([]byte("x"), s...)) {
		t.Errorf("%T: MarshalText %q, %v; AppendText %q, %v", v, text, err, appended, err2)
	}
	var u, w T
	if err := P(&u).UnmarshalText(text); err != nil || u != v {
		t.Errorf("%T: UnmarshalText(%q) = %v, %v", v, text, u, err)
	}
	if dv, err := v.Value(); err != nil || P(&w).Scan(dv) != nil || w != v {
		t.Errorf("%T: Scan(Value()) = %v, %v", v, w, err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("%T: MustParse of a bad text does not panic", v)
			}
		}()
		mustParse("\x00 not an identifier")
	}()
}

// The table: one row per identifier package. TestEveryParserListed keeps it whole.
var table = map[string]func(t *testing.T){
	"nsid":    func(t *testing.T) { verbs[nsid.NSID](t, nsid.Parse, nsid.MustParse, "app.bsky.feed.post") },
	"did":     func(t *testing.T) { verbs[did.DID](t, did.Parse, did.MustParse, "did:plc:ewvi7nxzyoun6zhxrhs64oiz") },
	"handle":  func(t *testing.T) { verbs[handle.Handle](t, handle.Parse, handle.MustParse, "alice.bsky.social") },
	"atident": func(t *testing.T) { verbs[atident.ID](t, atident.Parse, atident.MustParse, "alice.bsky.social") },
	"aturi": func(t *testing.T) {
		verbs[aturi.URI](t, aturi.Parse, aturi.MustParse, "at://alice.bsky.social/app.bsky.feed.post/3k5nobkf2w72g")
	},
	"datetime": func(t *testing.T) {
		verbs[datetime.Datetime](t, datetime.Parse, datetime.MustParse, "1985-04-12T23:20:50.123Z")
	},
	"lang": func(t *testing.T) { verbs[lang.Tag](t, lang.Parse, lang.MustParse, "pt-BR") },
	"tid":  func(t *testing.T) { verbs[tid.TID](t, tid.Parse, tid.MustParse, "3kxnlhr3gxq23") },
}

func TestVerbs(t *testing.T) {
	for name, check := range table {
		t.Run(name, check)
	}
}

// Every package of the module with a top-level func Parse is an identifier package and must be
// in the table, so that a new one cannot miss a verb.
func TestEveryParserListed(t *testing.T) {
	root := filepath.Join("..", "..")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	parse := regexp.MustCompile(`(?m)^func Parse\(`)
	var found []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, d.Name(), "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if parse.Match(src) {
				found = append(found, d.Name())
				break
			}
		}
	}
	if len(found) < len(table) {
		t.Fatalf("found %d packages with a func Parse (%v), the table has %d: is the walk broken?", len(found), found, len(table))
	}
	for _, name := range found {
		if table[name] == nil {
			t.Errorf("package %s has a func Parse but no row in the verb table", name)
		}
	}
	for name := range table {
		if !slices.Contains(found, name) {
			t.Errorf("row %s: no package %s with a func Parse", name, name)
		}
	}
}
