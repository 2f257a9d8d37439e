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
		return e.helpWritten(writeOverview(e.stdout))
	}
	cmd, rest := lookup(args[0], args[1:])
	if cmd == nil && len(rest) == 0 && len(subcommands(args[0])) > 0 {
		return e.helpWritten(writeGroupHelp(e.stdout, args[0])) // "help rkey": a group with no command of its own
	}
	if cmd == nil || len(rest) > 0 {
		e.usageError("help: unknown command %q", strings.Join(args, " "))
		return exitUsage
	}
	return e.helpWritten(writeCommandHelp(e.stdout, cmd))
}

// helpWritten returns the exit status of help whose writing ended with err: as for any command's
// output, a write that failed (a full disk, a closed pipe) is reported, with exit status 1.
func (e *env) helpWritten(err error) int {
	if err != nil {
		fmt.Fprintf(e.stderr, "atcore help: writing output: %v\n", err)
		return exitData
	}
	return exitOK
}

// writeGroupHelp lists the commands of a group, such as "rkey", and returns the write's error.
func writeGroupHelp(w io.Writer, group string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: atcore %s COMMAND [FLAGS] [ARGS]\n\ncommands:\n", group)
	writeCommandList(&b, subcommandList(group))
	fmt.Fprintf(&b, "\nRun \"atcore help %s COMMAND\" for a command's flags and an example.\n", group)
	_, err := io.WriteString(w, b.String())
	return err
}

// subcommandList returns the commands of the group ("tid" → "tid inspect", …).
func subcommandList(group string) []*command {
	var list []*command
	for _, c := range commands {
		if strings.HasPrefix(c.name, group+" ") {
			list = append(list, c)
		}
	}
	return list
}

// writeCommandList writes one line per command: its name and summary, in aligned columns.
func writeCommandList(b *strings.Builder, list []*command) {
	width := 0
	for _, c := range list {
		width = max(width, len(c.name))
	}
	for _, c := range list {
		fmt.Fprintf(b, "  %-*s  %s\n", width, c.name, c.summary)
	}
}

// writeOverview writes the list of commands and returns the write's error.
func writeOverview(w io.Writer) error {
	var b strings.Builder
	b.WriteString("atcore looks inside AT Protocol identifiers and records.\n\n")
	b.WriteString("usage:\n  atcore COMMAND [FLAGS] [ARGS]\n  atcore help [COMMAND]\n\ncommands:\n")
	writeCommandList(&b, commands)
	b.WriteString("\nFlags come before arguments. FILE \"-\" or no FILE reads standard input; so does the\n")
	b.WriteString("argument \"-\" of the commands that take identifiers, one a line.\n")
	b.WriteString("Exit status: 0 ok, 1 invalid input (details on standard error), 2 usage error.\n")
	b.WriteString("Run \"atcore help COMMAND\" or \"atcore COMMAND -h\" for a command's flags and an example.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCommandHelp writes one command's usage line, description, flags and example, and returns
// the write's error.
func writeCommandHelp(w io.Writer, c *command) error {
	var b strings.Builder
	b.WriteString(strings.TrimSpace("usage: atcore "+c.name+" "+c.synopsis) + "\n\n")
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
	if subs := subcommandList(c.name); len(subs) > 0 {
		b.WriteString("\nsee also:\n")
		writeCommandList(&b, subs)
	}
	b.WriteString("\nexample:\n")
	for _, line := range strings.Split(strings.TrimSpace(c.example), "\n") {
		b.WriteString("  ")
		b.WriteString(line)
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
