package main

import (
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
			code: exitUsage, stderrHas: []string{"atcore: no command given", "commands:"}},
		{name: "unknown-command", rule: "an unknown command is a usage error: one line, then the usage",
			args: []string{"frobnicate"}, code: exitUsage,
			stderrHas: []string{`atcore: unknown command "frobnicate"`, "commands:"}},
		{name: "group-without-subcommand", rule: "a command group needs its subcommand",
			args: []string{"rkey"}, code: exitUsage, stderrHas: []string{`"rkey" needs a subcommand: rkey check`}},
		{name: "unknown-subcommand", rule: "an unknown subcommand is a usage error",
			args: []string{"rkey", "fix", "x"}, code: exitUsage, stderrHas: []string{`unknown command "rkey fix"`}},
		{name: "help-unknown", rule: "help for an unknown command is a usage error",
			args: []string{"help", "frobnicate"}, code: exitUsage, stderrHas: []string{`unknown command "frobnicate"`}},
		{name: "unknown-flag", rule: "an unknown flag is a usage error: one line, then the command's usage",
			args: []string{"rkey", "check", "-bogus", "x"}, code: exitUsage,
			stderrHas: []string{"atcore rkey check: flag provided but not defined: -bogus", "usage: atcore rkey check"}},
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
			for _, want := range []string{"usage: atcore " + c.name + " ", "example:\n", "  $ ", "atcore " + c.name} {
				if !strings.Contains(help.stdout, want) {
					t.Errorf("help %s lacks %q:\n%s", c.name, want, help.stdout)
				}
			}
			dashH := atcore(nil, append(words, "-h")...)
			if dashH.code != exitOK || dashH.stdout != help.stdout {
				t.Errorf("%s -h: exit %d, output differs from help:\n%s", c.name, dashH.code, dashH.stdout)
			}
			bad := atcore(nil, append(words, "-no-such-flag")...)
			first, _, _ := strings.Cut(bad.stderr, "\n")
			if bad.code != exitUsage || first != "atcore "+c.name+": flag provided but not defined: -no-such-flag" ||
				!strings.Contains(bad.stderr, help.stdout) || bad.stdout != "" {
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
