package main

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden from the current output")

// result is what one run of the command did.
type result struct {
	code           int
	stdout, stderr string
}

// atcore runs the command in-process with args and stdin.
func atcore(stdin []byte, args ...string) result {
	var stdout, stderr bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

// A goldenCase is one command line whose whole output is kept in testdata/golden/NAME.golden.
// The exit status and the key parts of standard error are also asserted here, so that -update
// cannot silently bless a wrong status or a message that lost the input's name or offset.
type goldenCase struct {
	name      string   // file name in testdata/golden, without .golden
	rule      string   // what the case shows
	args      []string // the command line after "atcore"
	stdin     []byte
	code      int      // exit status
	stderrHas []string // substrings standard error must contain
}

func checkGolden(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := atcore(tc.stdin, tc.args...)
			if r.code != tc.code {
				t.Errorf("%s: exit status %d, want %d\nstderr:\n%s", tc.rule, r.code, tc.code, r.stderr)
			}
			if tc.code == exitOK && r.stderr != "" {
				t.Errorf("%s: exit status 0 with standard error:\n%s", tc.rule, r.stderr)
			}
			if tc.code != exitOK && r.stderr == "" {
				t.Errorf("%s: exit status %d with nothing on standard error", tc.rule, r.code)
			}
			for _, s := range tc.stderrHas {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("%s: standard error lacks %q:\n%s", tc.rule, s, r.stderr)
				}
			}
			got := formatGolden(tc, r)
			path := filepath.Join("testdata", "golden", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s: output differs from %s (run with -update to accept, then review the diff)\n--- got:\n%s\n--- want:\n%s",
					tc.rule, path, got, want)
			}
		})
	}
}

// formatGolden writes a case and its result as a readable transcript.
func formatGolden(tc goldenCase, r result) string {
	var b strings.Builder
	b.WriteString("# " + tc.rule + "\n$ atcore")
	for _, a := range tc.args {
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("\n")
	switch {
	case len(tc.stdin) > 1024:
		b.WriteString("-- stdin: " + strconv.Itoa(len(tc.stdin)) + " bytes, not shown --\n")
	case tc.stdin != nil:
		writeBlock(&b, "stdin", string(tc.stdin))
	}
	b.WriteString("exit status " + strconv.Itoa(r.code) + "\n")
	writeBlock(&b, "stdout", r.stdout)
	writeBlock(&b, "stderr", r.stderr)
	return b.String()
}

// writeBlock writes a labelled block, in hex if it is not printable text.
func writeBlock(b *strings.Builder, label, s string) {
	if isText(s) {
		b.WriteString("-- " + label + " --\n" + s)
		if s != "" && !strings.HasSuffix(s, "\n") {
			b.WriteString("\n-- (no newline at end) --\n")
		}
		return
	}
	b.WriteString("-- " + label + " (hex) --\n")
	for i := 0; i < len(s); i += 32 {
		b.WriteString(hex.EncodeToString([]byte(s[i:min(i+32, len(s))])) + "\n")
	}
}

func isText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < ' ' && r != '\n' && r != '\t' {
			return false
		}
	}
	return true
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/=+@,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lines splits output into its lines, without the final newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
