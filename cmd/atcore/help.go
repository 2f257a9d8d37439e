package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// help runs "atcore help [COMMAND]": the overview, or one command's usage, on standard output.
func (e *env) help(args []string) int {
	if len(args) == 0 {
		writeOverview(e.stdout)
		return exitOK
	}
	cmd, rest := lookup(args[0], args[1:])
	if cmd == nil || len(rest) > 0 {
		e.usageError("help: unknown command %q", strings.Join(args, " "))
		return exitUsage
	}
	writeCommandHelp(e.stdout, cmd)
	return exitOK
}

// writeOverview writes the list of commands.
func writeOverview(w io.Writer) {
	var b strings.Builder
	b.WriteString("atcore looks inside AT Protocol identifiers and records.\n\n")
	b.WriteString("usage:\n  atcore COMMAND [FLAGS] [ARGS]\n  atcore help [COMMAND]\n\ncommands:\n")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	b.WriteString("\nFlags come before arguments. FILE \"-\" or no FILE reads standard input.\n")
	b.WriteString("Exit status: 0 ok, 1 invalid input (details on standard error), 2 usage error.\n")
	b.WriteString("Run \"atcore help COMMAND\" or \"atcore COMMAND -h\" for a command's flags and an example.\n")
	io.WriteString(w, b.String())
}

// writeCommandHelp writes one command's usage line, description, flags and example.
func writeCommandHelp(w io.Writer, c *command) {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: atcore %s %s\n\n", c.name, c.synopsis)
	b.WriteString(strings.ToUpper(c.summary[:1]) + c.summary[1:] + ".\n")
	if c.doc != "" {
		b.WriteString("\n")
		b.WriteString(strings.TrimSpace(c.doc))
		b.WriteString("\n")
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.setup(fs)
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		b.WriteString("\nflags:\n")
		fs.SetOutput(&b)
		fs.PrintDefaults()
	}
	b.WriteString("\nexample:\n")
	for _, line := range strings.Split(strings.TrimSpace(c.example), "\n") {
		b.WriteString("  ")
		b.WriteString(line)
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}
