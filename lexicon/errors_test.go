package lexicon

import (
	"strings"
	"testing"
)

// An error at the end of a long path (a huge key in an unknown object, say) quotes the path by
// its ends, so that the message stays fit for a log line; Path keeps it whole.
func TestErrorPathBounded(t *testing.T) {
	e := &Error{Err: ErrValue, Path: "/" + strings.Repeat("k", 8192) + "/a", Rule: "type", Detail: "expected a string, found an integer"}
	msg := e.Error()
	if len(msg) > 512 || !strings.Contains(msg, "kkk…kkk") || !strings.HasSuffix(msg, `kkk/a" (8195 bytes): type: expected a string, found an integer`) {
		t.Errorf("%d bytes: %.600s", len(msg), msg)
	}
	if short := (&Error{Err: ErrValue, Path: "/text", Rule: "maxLength", Detail: "x"}).Error(); short != `invalid value at "/text": maxLength: x` {
		t.Errorf("short path: %s", short)
	}
}
