package rkey

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vectorDir holds the atproto interop vectors copied into the repository (testdata/README.md).
const vectorDir = "../testdata/interop/syntax"

// readVectors returns the cases of a vector file: one per line, never trimmed (some begin or end
// with a space on purpose), skipping blank lines and '#' comment lines.
func readVectors(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vectorDir, name))
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
