package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/atcore/atcore/tid"
)

// The tour of the command in the repository's README is real: each command, run from the
// repository's root, prints what the README shows (standard output, then standard error).
// Generated TIDs vary: for "atcore tid" the lines are checked by property instead.
func TestReadmeTour(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```console\n")
	if !ok {
		t.Fatal("README.md has no ```console block")
	}
	block, _, _ = strings.Cut(block, "```")
	t.Chdir("../..")

	type step struct {
		cmdline string
		want    []string
	}
	var steps []step
	for _, line := range lines(block) {
		if cmdline, ok := strings.CutPrefix(line, "$ "); ok {
			steps = append(steps, step{cmdline: cmdline})
			continue
		}
		if len(steps) == 0 {
			t.Fatalf("output before the first command: %q", line)
		}
		steps[len(steps)-1].want = append(steps[len(steps)-1].want, line)
	}
	if len(steps) < 8 {
		t.Fatalf("only %d commands in the tour", len(steps))
	}
	for _, s := range steps {
		got := runPipeline(t, s.cmdline)
		if strings.HasPrefix(s.cmdline, "atcore tid -n ") || s.cmdline == "atcore tid" {
			if len(got) != len(s.want) {
				t.Errorf("%s: %d lines, the README shows %d", s.cmdline, len(got), len(s.want))
			}
			for _, l := range got {
				if _, err := tid.Parse(l); err != nil {
					t.Errorf("%s: %v", s.cmdline, err)
				}
			}
			continue
		}
		if strings.Join(got, "\n") != strings.Join(s.want, "\n") {
			t.Errorf("$ %s\nprints\n%s\nbut the README shows\n%s", s.cmdline, strings.Join(got, "\n"), strings.Join(s.want, "\n"))
		}
	}
}

// runPipeline runs "atcore A | atcore B …" in-process and returns the lines a terminal shows:
// the standard error of the commands before the last, then the last command's standard output
// and standard error as it writes them, in one stream (the commands flush their output before
// each error line, so that the two stay in input order).
func runPipeline(t *testing.T, cmdline string) []string {
	t.Helper()
	var stdin []byte
	var earlier, stdout bytes.Buffer
	segments := strings.Split(cmdline, " | ")
	for i, segment := range segments {
		args := strings.Fields(segment)
		if len(args) == 0 || args[0] != "atcore" {
			t.Fatalf("%q: only atcore pipelines, without quotes, are supported", cmdline)
		}
		stdout.Reset()
		if i == len(segments)-1 {
			run(args[1:], bytes.NewReader(stdin), &stdout, &stdout)
			break
		}
		run(args[1:], bytes.NewReader(stdin), &stdout, &earlier)
		stdin = bytes.Clone(stdout.Bytes())
	}
	return lines(earlier.String() + stdout.String())
}
