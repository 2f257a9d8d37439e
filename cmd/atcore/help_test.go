package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/tid"
)

func TestGoldenUsage(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "help", rule: "help lists every command", args: []string{"help"}, code: exitOK},
		{name: "help-rkey-check", rule: "help CMD prints the command's usage, flags and example",
			args: []string{"help", "rkey", "check"}, code: exitOK},
		{name: "no-command", rule: "no command is a usage error", args: []string{},
			code: exitUsage, stderrHas: []string{"atcore: no command given\nRun \"atcore help\" for the list of commands.\n"}},
		{name: "unknown-command", rule: "an unknown command is a usage error: one line, then a hint",
			args: []string{"frobnicate"}, code: exitUsage,
			stderrHas: []string{`atcore: unknown command "frobnicate"` + "\nRun \"atcore help\" for the list of commands.\n"}},
		{name: "group-without-subcommand", rule: "a command group needs its subcommand",
			args: []string{"rkey"}, code: exitUsage, stderrHas: []string{`"rkey" needs a subcommand: rkey check`, `Run "atcore help rkey"`}},
		{name: "help-group", rule: "help GROUP lists the group's commands",
			args: []string{"help", "rkey"}, code: exitOK},
		{name: "help-tid", rule: "help for a command that heads a group lists the group too",
			args: []string{"help", "tid"}, code: exitOK},
		{name: "version", rule: "version: what the build recorded (a fixed build info in the tests)",
			args: []string{"version"}, code: exitOK},
		{name: "version-flag", rule: "-version is version",
			args: []string{"-version"}, code: exitOK},
		{name: "unknown-subcommand", rule: "an unknown subcommand is a usage error",
			args: []string{"rkey", "fix", "x"}, code: exitUsage, stderrHas: []string{`unknown command "rkey fix"`}},
		{name: "help-unknown", rule: "help for an unknown command is a usage error",
			args: []string{"help", "frobnicate"}, code: exitUsage, stderrHas: []string{`unknown command "frobnicate"`}},
		{name: "unknown-flag", rule: "an unknown flag is a usage error: one line, then where the usage is",
			args: []string{"rkey", "check", "-bogus", "x"}, code: exitUsage,
			stderrHas: []string{"atcore rkey check: flag provided but not defined: -bogus\nRun \"atcore help rkey check\" for its usage.\n"}},
	})
}

// Every command has help that names it, lists an example invoking it, and is the same whether
// asked for with "help CMD" or "CMD -h"; a bad flag gives one line and that usage, exit 2.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			words := strings.Fields(c.name)
			help := atcore(nil, append([]string{"help"}, words...)...)
			if help.code != exitOK || help.stderr != "" {
				t.Fatalf("help %s: exit %d, stderr %q", c.name, help.code, help.stderr)
			}
			if !strings.HasPrefix(help.stdout, "usage: atcore "+c.name+" ") && !strings.HasPrefix(help.stdout, "usage: atcore "+c.name+"\n") {
				t.Errorf("help %s does not start with its usage line:\n%s", c.name, help.stdout)
			}
			for _, want := range []string{"example:\n", "  $ ", "atcore " + c.name} {
				if !strings.Contains(help.stdout, want) {
					t.Errorf("help %s lacks %q:\n%s", c.name, want, help.stdout)
				}
			}
			dashH := atcore(nil, append(words, "-h")...)
			if dashH.code != exitOK || dashH.stdout != help.stdout {
				t.Errorf("%s -h: exit %d, output differs from help:\n%s", c.name, dashH.code, dashH.stdout)
			}
			bad := atcore(nil, append(words, "-no-such-flag")...)
			want := "atcore " + c.name + ": flag provided but not defined: -no-such-flag\n" +
				"Run \"atcore help " + c.name + "\" for its usage.\n"
			if bad.code != exitUsage || bad.stderr != want || bad.stdout != "" {
				t.Errorf("%s -no-such-flag: exit %d, stdout %q, stderr:\n%s", c.name, bad.code, bad.stdout, bad.stderr)
			}
		})
	}
	overview := atcore(nil, "help").stdout
	for _, c := range commands {
		if !strings.Contains(overview, "  "+c.name+" ") {
			t.Errorf("help does not list %q", c.name)
		}
	}
}

// The examples in the help are real: run from the repository's root, each prints what the
// help shows (standard output, then standard error). Generated TIDs vary: the example of "tid"
// is checked by property.
func TestExamplesAreReal(t *testing.T) {
	t.Chdir("../..")
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			var cmdline string
			var want []string
			for _, line := range lines(strings.TrimSpace(c.example)) {
				if s, ok := strings.CutPrefix(line, "$ "); ok {
					if cmdline != "" {
						t.Fatal("one command per example, please")
					}
					cmdline = s
					continue
				}
				want = append(want, line)
			}
			got := runPipeline(t, cmdline)
			if c.name == "tid" {
				if len(got) != len(want) {
					t.Errorf("example of tid prints %d lines, its help shows %d", len(got), len(want))
				}
				for _, l := range got {
					if id, err := tid.Parse(l); err != nil || id.ClockID() != 7 {
						t.Errorf("example of tid prints %q (%v), want a TID with clock id 7", l, err)
					}
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("example of %s prints\n%s\nbut its help says\n%s", c.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errFull }

var errFull = errors.New("no space left on device")

// Help that cannot be written is reported as any command's output is: one line on standard
// error, exit status 1, not a silent success.
func TestHelpWriteError(t *testing.T) {
	for _, tc := range []struct {
		rule string
		args []string
		want string // standard error
	}{
		{"the overview", []string{"help"}, "atcore help: writing output: no space left on device\n"},
		{"the overview, as -h", []string{"-h"}, "atcore help: writing output: no space left on device\n"},
		{"help COMMAND", []string{"help", "tid", "inspect"}, "atcore help: writing output: no space left on device\n"},
		{"help GROUP", []string{"help", "rkey"}, "atcore help: writing output: no space left on device\n"},
		{"COMMAND -h", []string{"tid", "-h"}, "atcore tid: writing output: no space left on device\n"},
		{"COMMAND -help", []string{"rkey", "check", "-help"}, "atcore rkey check: writing output: no space left on device\n"},
		{"as any other command", []string{"version"}, "atcore version: writing output: no space left on device\n"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := run(tc.args, bytes.NewReader(nil), fullWriter{}, &stderr); code != exitData || stderr.String() != tc.want {
				t.Errorf("%v to a full disk: exit %d, stderr %q; want exit 1, %q", tc.args, code, stderr.String(), tc.want)
			}
		})
	}
}

// A flag after an argument is not a value: the flag parser stops at the first argument, and
// "rkey check self -type tid" used to check "-type" and "tid" as record keys and say ok, exit
// status 0, while "rkey check -type tid self" says self is no TID. It is a usage error; after
// "--" such words are values, as the help says.
func TestFlagAfterArgument(t *testing.T) {
	for _, args := range [][]string{
		{"rkey", "check", "self", "-type", "tid"},
		{"rkey", "check", "self", "-type=tid"},
		{"rkey", "check", "self", "--json"},
		{"check", "rkey", "self", "-json"},
		{"check", "did", "-json", "did:plc:x"},
		{"inspect", "self", "-json"},
		{"tid", "inspect", "3kxnlhr3gxq23", "-json"},
		{"validate", "testdata/post.json", "-safe-ints"},
		{"cid", "testdata/post.json", "-raw"},
		{"json2cbor", "testdata/post.json", "-force"},
		{"tid", "range", "3kxn", "-h"},
	} {
		r := atcore(nil, args...)
		if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "after an argument: flags come before arguments") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, r.code, r.stdout, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"rkey", "check", "--", "self", "-type", "tid"},
		{"check", "rkey", "--", "self", "-json"},
		{"check", "--", "rkey", "self", "-json"},
		{"inspect", "--", "self", "-json"},
		{"rkey", "check", "self", "-x", "-"}, // "-x" names no flag: a key, as before
	} {
		if r := atcore(nil, args...); r.code != exitOK {
			t.Errorf("%q: exit %d, stderr %q; want the words after -- checked as values", args, r.code, r.stderr)
		}
	}
}
