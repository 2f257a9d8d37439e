package main

import (
	"bytes"
	"io"
	"runtime"
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
			args: []string{"rkey", "check", "good", "alpha:beta~", ".", "..", "any space", "also-good"},
			code: exitData, stderrHas: []string{`"."`, `".."`, `"any space": ' ' at offset 3`}},
		{name: "rkey-check-path", rule: "COLLECTION/KEY is a repository path: an NSID, then a key of the -type",
			args: []string{"rkey", "check", "-type", "tid", "app.bsky.feed.post/3jui7kd54zh2y", "app.bsky.feed.post/self", "alpha/3jui7kd54zh2y", "app.bsky.feed.post/a/b"},
			code: exitData, stderrHas: []string{
				`invalid repository path "app.bsky.feed.post/self": record key: key type tid: a TID has 13 characters; this has 4`,
				`invalid repository path "alpha/3jui7kd54zh2y": collection: `,
				`invalid repository path "app.bsky.feed.post/a/b": second '/' at offset 20`}},
		{name: "rkey-check-json", rule: "-json: one object per input, with the offset of what is wrong",
			args: []string{"rkey", "check", "-json", "-type", "tid", "3jui7kd54zh2y", "self", "app.bsky.feed.post/3jui7kd54zh2y", "app.bsky.feed.post/self"},
			code: exitData, stderrHas: []string{`invalid record key "self"`}},
		{name: "rkey-check-stdin-dash", rule: "\"-\" reads standard input in its place; lines are trimmed, blank ones skipped",
			args: []string{"rkey", "check", "first", "-", "last"}, stdin: []byte("  self \n\n\t3kxnlhr3gxq23\r\n   \n"), code: exitOK},
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
			code: exitUsage, stderrHas: []string{"atcore rkey check: -type: ", `Run "atcore help rkey check" for its usage.`}},
		{name: "rkey-check-stdin", rule: "with no KEY, keys are read from standard input, one per line (CRLF too); blank lines are skipped",
			args: []string{"rkey", "check"}, stdin: []byte("self\r\na b\n\n3kxnlhr3gxq23"), code: exitData,
			stderrHas: []string{`"a b"`}},
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
		// A key with a '/' is read as a repository path, which it is not either.
		want := "invalid record key"
		if strings.Contains(key, "/") {
			want = "invalid repository path"
		}
		if r.code != exitData || r.stdout != "" || !strings.HasPrefix(r.stderr, "atcore rkey check: ") ||
			!strings.Contains(r.stderr, want) {
			t.Errorf("invalid vector %q: exit %d, stdout %q, stderr %q", key, r.code, r.stdout, r.stderr)
		}
	}
}

// A line of standard input longer than maxLine is one bad item: it is reported with its line
// number, and the lines after it are still read and checked, as after any bad item.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("a", maxLine+1)
	for _, tc := range []struct {
		rule           string
		stdin          string
		stdout, stderr string
	}{
		{"the review's case: one long line, then a good one",
			strings.Repeat("a", 70000) + "\nabc\n",
			"ok abc\n", "atcore rkey check: -: line 1 is longer than 65536 bytes\n"},
		{"long lines anywhere, CRLF, and a last one without its newline",
			"self\r\n" + long + "\r\nx y\n" + long + long + "\n\npre:fix\n" + long,
			"ok self\nok pre:fix\n",
			"atcore rkey check: -: line 2 is longer than 65536 bytes\n" +
				"atcore rkey check: invalid record key \"x y\": ' ' at offset 1 is not allowed\n" +
				"atcore rkey check: -: line 4 is longer than 65536 bytes\n" +
				"atcore rkey check: -: line 7 is longer than 65536 bytes\n"},
		{"a line of exactly maxLine bytes is read (and is a key too long)",
			strings.Repeat("b", maxLine) + "\r\nself",
			"ok self\n", "atcore rkey check: invalid record key \"" + strings.Repeat("b", 64)},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := atcore([]byte(tc.stdin), "rkey", "check")
			if r.code != exitData || r.stdout != tc.stdout || !strings.HasPrefix(r.stderr, tc.stderr) || strings.Contains(r.stderr, "longer") != strings.Contains(tc.stderr, "longer") {
				t.Errorf("exit %d\nstdout %q, want %q\nstderr %q, want %q", r.code, r.stdout, tc.stdout, r.stderr, tc.stderr)
			}
		})
	}
}

// With -json, a long line is an object as any bad input is, so that the objects stay one per
// input: its text is not kept, so its input is empty and its error names the line.
func TestLongLinesJSON(t *testing.T) {
	stdin := []byte("self\n" + strings.Repeat("a", 70000) + "\nself\n")
	const long = `{"input":"","ok":false,"error":"-: line 2 is longer than 65536 bytes","offset":-1}` + "\n"
	for _, args := range [][]string{
		{"rkey", "check", "-json"},
		{"check", "-json", "rkey"},
		{"inspect", "-json"},
		{"tid", "inspect", "-json"},
	} {
		r := atcore(stdin, args...)
		lines := strings.SplitAfter(r.stdout, "\n")
		if r.code != exitData || len(lines) != 4 || lines[1] != long || lines[3] != "" ||
			!strings.Contains(r.stderr, "-: line 2 is longer than 65536 bytes") {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// A long line is skipped without being held: reading past 64 MiB of one line allocates a small
// fraction of that.
func TestLongLineBounded(t *testing.T) {
	const size = 64 << 20
	in := io.MultiReader(io.LimitReader(repeatReader('a'), size), strings.NewReader("\nself\n"))
	var stdout, stderr bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code := run([]string{"rkey", "check"}, in, &stdout, &stderr)
	runtime.ReadMemStats(&after)
	if code != exitData || stdout.String() != "ok self\n" || stderr.String() != "atcore rkey check: -: line 1 is longer than 65536 bytes\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("skipping a line of %d bytes allocated %d bytes", size, alloc)
	}
}

// repeatReader reads as an endless run of its byte.
type repeatReader byte

func (b repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// "--" with no value after it leaves no value on the command line: the values come from
// standard input, as with no "--". It used to check "-", a value no one gave, and say ok.
func TestDashesWithoutValuesReadStdin(t *testing.T) {
	for _, args := range [][]string{
		{"rkey", "check", "--"},
		{"check", "rkey", "--"},
		{"check", "--", "rkey"},
		{"inspect", "--"},
		{"tid", "inspect", "--"},
		{"tid", "range", "--"},
		{"tid", "at", "--"},
	} {
		r := atcore([]byte("a b\n"), args...)
		if r.code != exitData || r.stdout != "" || !strings.Contains(r.stderr, `"a b"`) {
			t.Errorf("%q with \"a b\" on standard input: exit %d, stdout %q, stderr %q; want \"a b\" read and refused",
				args, r.code, r.stdout, r.stderr)
		}
	}
}
