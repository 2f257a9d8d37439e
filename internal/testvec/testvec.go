// Package testvec reads the atproto interop vectors copied into the repository's
// testdata/interop (see testdata/README.md), for the tests of every package: one loader, so that
// the files' quirks (lines never trimmed, '#' comments) are handled in one place.
package testvec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir returns the path of testdata/interop, found by walking up from the working directory (a
// package's test runs in its own directory) to the module root that holds it.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "testdata", "interop")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testvec: no testdata/interop above the working directory")
		}
		dir = parent
	}
}

// Syntax returns the cases of testdata/interop/syntax/NAME: one per line, never trimmed (some
// begin or end with a space on purpose), skipping blank lines and '#' comment lines. A file
// with no case fails the test, so that a vector file emptied by mistake is not a silent pass.
func Syntax(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(t), "syntax", name))
	if err != nil {
		t.Fatalf("reading vectors: %v", err)
	}
	var cases []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cases = append(cases, line)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return cases
}

// File returns the bytes of testdata/interop/REL (for example "lexicon/lexicon-valid.json").
func File(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("reading vectors: %v", err)
	}
	return data
}

// NoAllocs fails t for each case of the named syntax files on which fn allocates: the check of
// a cheap predicate such as IsValid, whose promise is to allocate on no input, valid or not.
func NoAllocs(t *testing.T, fn func(string), names ...string) {
	t.Helper()
	for _, name := range names {
		for _, s := range Syntax(t, name) {
			if n := testing.AllocsPerRun(10, func() { fn(s) }); n != 0 {
				t.Errorf("%s %q: %v allocations, want 0", name, s, n)
			}
		}
	}
}
