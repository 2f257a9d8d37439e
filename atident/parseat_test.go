package atident

import (
	"reflect"
	"testing"
)

// ParseAt is Parse with ValidateAt's error: the same value on success, the same error on failure.
func TestParseAt(t *testing.T) {
	for _, s := range parseAtInputs {
		v, err := ParseAt(s, 9)
		p, perr := Parse(s)
		if v != p || (err == nil) != (perr == nil) {
			t.Errorf("ParseAt(%q, 9) = %v, %v; Parse gives %v, %v", s, v, err, p, perr)
		}
		if want := ValidateAt(s, 9); !reflect.DeepEqual(err, want) {
			t.Errorf("ParseAt(%q, 9) error %v, ValidateAt's %v", s, err, want)
		}
	}
	valid := parseAtInputs[0]
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseAt(valid, 9) }); n != 0 {
		t.Errorf("ParseAt(%q) allocates %v times", valid, n)
	}
}

var parseAtInputs = []string{"alice.bsky.social", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "", "blah", "jo_hn.test", "did:plc:", "DID:plc:abc", "did:METHOD:x"}
