package peers

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// repoRoot is the atcore repository root, seen from this package's directory.
const repoRoot = "../.."

// readVectorLines returns the cases of an interop syntax file: one per line, lines starting with
// '#' and blank lines skipped, never trimmed (testdata/README.md).
func readVectorLines(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "interop", "syntax", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return out
}

// itoa formats n for sub-benchmark names.
func itoa(n int) string { return strconv.Itoa(n) }
