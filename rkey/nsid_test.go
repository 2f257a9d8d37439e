package rkey

import (
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// isNSID reports whether s is a valid NSID.
func isNSID(s string) bool {
	_, reason := nsidProblem(s, 0)
	return reason == ""
}

func TestNSIDVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "nsid_syntax_valid.txt") {
		if off, reason := nsidProblem(s, 0); reason != "" || !isNSID(s) {
			t.Errorf("nsidProblem(%q) = %d, %q; want valid", s, off, reason)
		}
	}
	for _, s := range testvec.Syntax(t, "nsid_syntax_invalid.txt") {
		if _, reason := nsidProblem(s, 0); reason == "" || isNSID(s) {
			t.Errorf("nsidProblem(%q) accepts it; want invalid", s)
		}
	}
}

func TestNSIDRules(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		nsid   string
		offset int // -2: valid
		reason string
	}{
		{"three segments", "app.bsky.feed", -2, ""},
		{"digit-led inner segment", "org.4chan.lex.getThing", -2, ""},
		{"hyphen inside authority segment", "xn--ls8h.example.foo", -2, ""},
		{"name is case-sensitive letters and digits", "com.example.fooBarV2", -2, ""},
		{"317 characters", "com." + strings.Repeat(strings.Repeat("a", 62)+".", 4) + strings.Repeat("a", 59) + ".b", -2, ""},
		{"318 characters", "com." + strings.Repeat(strings.Repeat("a", 62)+".", 4) + strings.Repeat("a", 60) + ".b", 317, "NSID is 318 bytes long; at most 317 are allowed"},
		{"63-character segment", "com." + strings.Repeat("a", 63) + ".foo", -2, ""},
		{"64-character segment", "com." + strings.Repeat("a", 64) + ".foo", 67, "segment at offset 4 is 64 characters long; at most 63 are allowed"},
		{"64-character name", "com.example." + strings.Repeat("a", 64), 75, "segment at offset 12 is 64 characters long; at most 63 are allowed"},
		{"empty", "", 0, "empty; an NSID has at least 3 segments, as in com.example.thing"},
		{"two segments", "example.com", -1, "2 segments; an NSID has at least 3, as in com.example.thing"},
		{"one segment", "com", -1, "1 segments; an NSID has at least 3, as in com.example.thing"},
		{"empty middle segment", "one.two..three", 8, "empty segment at offset 8"},
		{"leading dot", ".one.two.three", 0, "empty segment at offset 0"},
		{"trailing dot", "a.b.", 4, "empty segment at offset 4"},
		{"character not allowed", "com.atproto.feed.p_st", 18, "'_' at offset 18 is not allowed in an NSID"},
		{"space not allowed", "one.two.three ", 13, "' ' at offset 13 is not allowed in an NSID"},
		{"non-ASCII not allowed", "com.exa💩ple.thing", 7, `'\U0001f4a9' at offset 7 is not allowed in an NSID`},
		{"first segment starts with a digit", "0two.example.foo", 0, "first segment starts with a digit at offset 0"},
		{"authority segment starts with hyphen", "com.-example.foo", 4, "segment at offset 4 starts with '-'"},
		{"authority segment ends with hyphen", "com.example-.foo", 11, "segment at offset 4 ends with '-'"},
		{"name starts with a digit", "com.example.2foo", 12, "name segment at offset 12 starts with a digit"},
		{"name has a hyphen", "a-0.b-1.c-3", 9, "'-' at offset 9 is not allowed in the name segment (the last one)"},
	} {
		off, reason := nsidProblem(tc.nsid, 0)
		if tc.offset == -2 {
			if reason != "" {
				t.Errorf("%s: nsidProblem(%q) = %d, %q; want valid", tc.rule, tc.nsid, off, reason)
			}
			continue
		}
		if off != tc.offset || reason != tc.reason {
			t.Errorf("%s: nsidProblem(%q) = %d, %q; want %d, %q", tc.rule, tc.nsid, off, reason, tc.offset, tc.reason)
		}
	}
}

func TestNSIDNoAllocs(t *testing.T) {
	for _, s := range testvec.Syntax(t, "nsid_syntax_valid.txt") {
		if n := testing.AllocsPerRun(20, func() { isNSID(s) }); n != 0 {
			t.Errorf("isNSID(%q) allocates %v times", s, n)
		}
	}
}
