package lang

import (
	"os"
	"strings"
	"testing"
)

// TestErrorDocExample checks that the message the Error type's doc comment shows as an example is
// the one Validate returns for that input: a reader copies it into a test or a client.
func TestErrorDocExample(t *testing.T) {
	src, err := os.ReadFile("errors.go")
	if err != nil {
		t.Fatal(err)
	}
	const lead = "//\tinvalid language tag "
	var example string
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, lead) {
			example = strings.TrimPrefix(line, "//\t")
			break
		}
	}
	if example == "" {
		t.Fatal("errors.go: no example message in the Error doc comment")
	}
	if got := Validate("JA"); got == nil || got.Error() != example {
		t.Errorf("Error doc example:\n\t%s\nValidate(\"JA\"):\n\t%v", example, got)
	}
}
