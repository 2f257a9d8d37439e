// Package inline checks, in a package's tests, that the compiler inlines the functions the
// package's doc comments say are inlined: a speed claim stays true only while a test holds it.
package inline

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Check builds the package in the working directory with -gcflags=-m and fails t for each name
// in want (as the compiler prints it: "Parse", "NSID.String", "(*NSID).UnmarshalText") that the
// compiler does not report as inlinable. It runs the go command found in PATH, where `go test`
// puts the toolchain that runs the test first.
func Check(t *testing.T, want []string) {
	t.Helper()
	out, err := exec.Command("go", "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	can := map[string]bool{}
	re := regexp.MustCompile(`: can inline (\S+)`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			can[m[1]] = true
		}
	}
	for _, name := range want {
		if !can[name] {
			t.Errorf("%s is not inlinable any more", name)
		}
	}
}
