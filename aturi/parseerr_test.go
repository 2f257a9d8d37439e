package aturi

import (
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/internal/testvec"
)

// sameError reports whether two errors of Parse are alike field by field, the part's included.
func sameError(a, b error) bool {
	var x, y *Error
	if !errors.As(a, &x) || !errors.As(b, &y) {
		return false
	}
	if (x.part == nil) != (y.part == nil) || x.part != nil && x.part.Error() != y.part.Error() {
		return false
	}
	return x.Kind == y.Kind && x.Input == y.Input && x.Len == y.Len && x.Offset == y.Offset &&
		x.Reason == y.Reason && x.Err == y.Err
}

// Parse builds its error from the failing part's (partError) where it can: that error must be
// the one the full diagnosis (invalid) gives, and cost no more allocations than it, except when
// s has a query or fragment: that is reported first, and the part's error (the '?' or '#' made the
// part fail) is thrown away.
func TestParseErrorIsTheDiagnosis(t *testing.T) {
	inputs := append(testvec.Syntax(t, "aturi_syntax_invalid.txt"),
		"at://jo_hn.test/a.b.c", "at://did:plc:/a.b.c", "at://DID:plc:abc", "at://did:plc:abc/a.b",
		"at://did:plc:abc/a.b.p@st/k", "at://did:plc:abc/a.b.c?q", "at://x?y", "at:///a.b.c",
		"at://did:plc:abc//k", "at://did:plc:abc/a.b.c/")
	for _, s := range inputs {
		err := Validate(s)
		if err == nil {
			continue
		}
		if d := invalid(s); !sameError(err, d) {
			t.Errorf("%q: Parse's error\n%v (%+v)\ndiffers from the diagnosis\n%v", s, err, err, d)
		}
		if raceEnabled {
			continue
		}
		parse := testing.AllocsPerRun(20, func() { _, _ = Parse(s) })
		diagnose := testing.AllocsPerRun(20, func() { _ = invalid(s) })
		if parse > diagnose && !strings.ContainsAny(s, "?#") {
			t.Errorf("%q: Parse makes %v allocations, the diagnosis alone %v: an error thrown away?", s, parse, diagnose)
		}
	}
}

// Through an AT URI's error, errors.As finds the error of the part at fault, down to the DID's
// or the handle's own *Error.
func TestParseErrorPartAs(t *testing.T) {
	_, err := Parse("at://did:plc:/app.bsky.feed.post/3jui7kd54zh2y")
	var ae *atident.Error
	var de *did.Error
	if !errors.As(err, &ae) || !errors.As(err, &de) || !errors.Is(err, did.ErrInvalid) {
		t.Errorf("%v: *atident.Error %v, *did.Error %v", err, ae, de)
	}
	_, err = Parse("at://alice..example.com")
	var he *handle.Error
	if !errors.As(err, &he) || !errors.Is(err, handle.ErrInvalid) {
		t.Errorf("%v: *handle.Error %v", err, he)
	}
}
