package datamodel

import (
	"os/exec"
	"regexp"
	"testing"
)

// TestInlining checks that the functions the hot paths rely on being inlined are inlined by the
// compiler in use, as net/netip's inlining_test.go does: a change that pushes one over the
// inliner's budget fails here rather than silently costing a call per value.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m; not run with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to check inlining: %v", err)
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", "github.com/atcore/atcore/datamodel").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	got := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m): can inline (\S+)`).FindAllSubmatch(out, -1) {
		got[string(m[1])] = true
	}
	for _, fn := range []string{
		// JSON decoder: called before every token; most calls find no whitespace.
		"(*jsonDecoder).skipSpace",
		// JSON lexing and the short-key cache: eight bytes of a string or key at a time.
		"jsonSpecial8",
		"(*jsonDecoder).popItems",
		// CBOR decoder: every decoded string and map key.
		"(*cborDecoder).str",
		// CBOR scanner and decoder: short keys and strings checked and compared as words.
		"cborASCII16",
		"cborShortLess",
		// Both encoders: the limit check of every array and map, and its undo.
		"(*encodeLimits).enter",
		"(*encodeLimits).leave",
		"cborKeyLess",
		"getEncodeBuf",
		// Boxing into the slabs.
		"cborTypeWord",
	} {
		if !got[fn] {
			t.Errorf("%s is not inlined", fn)
		}
	}
}
