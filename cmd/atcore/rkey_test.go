package main

import (
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

func TestGoldenRkey(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "rkey-check", rule: "valid keys, including colons (DECISIONS 1), '...' and 'self.' (DECISIONS 2)",
			args: []string{"rkey", "check", "self", "3kxnlhr3gxq23", "literal:self", "pre:fix", "...", "self.", "~1.2-3_"},
			code: exitOK},
		{name: "rkey-check-invalid", rule: "each invalid key named on standard error with the offset; the valid ones still print",
			args: []string{"rkey", "check", "good", "alpha/beta", ".", "..", "any space", "also-good"},
			code: exitData, stderrHas: []string{`"alpha/beta"`, "offset 5", `"."`, `".."`, `"any space"`}},
		{name: "rkey-check-dash", rule: "keys that start with '-' go after --",
			args: []string{"rkey", "check", "--", "-", "-x"}, code: exitOK},
		{name: "rkey-check-type-tid", rule: "-type tid accepts TIDs only",
			args: []string{"rkey", "check", "-type", "tid", "3kxnlhr3gxq23", "self"},
			code: exitData, stderrHas: []string{`"self"`}},
		{name: "rkey-check-type-nsid", rule: "-type nsid accepts NSIDs only",
			args: []string{"rkey", "check", "-type", "nsid", "app.bsky.feed.post", "self"},
			code: exitData, stderrHas: []string{`"self"`}},
		{name: "rkey-check-type-literal", rule: "-type literal:VALUE accepts VALUE only",
			args: []string{"rkey", "check", "-type", "literal:self", "self", "other"},
			code: exitData, stderrHas: []string{`"other"`}},
		{name: "rkey-check-bad-type", rule: "a bad -type is a usage error",
			args: []string{"rkey", "check", "-type", "literal:a/b", "x"},
			code: exitUsage, stderrHas: []string{"atcore rkey check: -type: ", "usage: atcore rkey check"}},
		{name: "rkey-check-stdin", rule: "with no KEY, keys are read from standard input, one per line (CRLF too)",
			args: []string{"rkey", "check"}, stdin: []byte("self\r\na/b\n\n3kxnlhr3gxq23"), code: exitData,
			stderrHas: []string{`"a/b"`, `""`}},
		{name: "rkey-check-long-line", rule: "a line of standard input is bounded",
			args: []string{"rkey", "check"}, stdin: []byte("self\n" + strings.Repeat("a", maxLine+1) + "\n"), code: exitData,
			stderrHas: []string{"atcore rkey check: -: line 2 is longer than 65536 bytes"}},
	})
}

// The conformance vectors through the command: every valid key prints "ok KEY", every invalid
// one fails on its own with exit status 1 and names the key.
func TestRkeyCheckVectors(t *testing.T) {
	valid := testvec.Syntax(t, "recordkey_syntax_valid.txt")
	r := atcore(nil, append([]string{"rkey", "check", "--"}, valid...)...)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("valid vectors: exit %d\n%s", r.code, r.stderr)
	}
	got := lines(r.stdout)
	if len(got) != len(valid) {
		t.Fatalf("valid vectors: %d lines for %d keys", len(got), len(valid))
	}
	for i, key := range valid {
		if got[i] != "ok "+key {
			t.Errorf("line %d: %q, want %q", i, got[i], "ok "+key)
		}
	}
	// "#extra" is an invalid vector that the comment filter drops (testdata/README.md).
	for _, key := range append(testvec.Syntax(t, "recordkey_syntax_invalid.txt"), "#extra") {
		r := atcore(nil, "rkey", "check", "--", key)
		if r.code != exitData || r.stdout != "" || !strings.HasPrefix(r.stderr, "atcore rkey check: ") ||
			!strings.Contains(r.stderr, "invalid record key") {
			t.Errorf("invalid vector %q: exit %d, stdout %q, stderr %q", key, r.code, r.stdout, r.stderr)
		}
	}
}
