package datetime

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

// TestInlining checks that the small accessors stay inlinable, so that reading a Datetime costs
// no call, as netip's inlining_test does for its types.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the compiler's inlining report")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	got := map[string]bool{}
	for _, m := range regexp.MustCompile(`can inline (\S+)`).FindAllSubmatch(out, -1) {
		got[string(m[1])] = true
	}
	for _, fn := range []string{
		"IsValid",
		"MustParse",
		"Datetime.String",
		"Datetime.IsZero",
		"Datetime.Offset",
		"Datetime.AppendText",
		"Datetime.Value",
		"FromTime",
	} {
		if !got[fn] {
			t.Errorf("%s is no longer inlinable", fn)
		}
	}
}
