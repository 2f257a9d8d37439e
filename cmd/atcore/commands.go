package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// A command is one subcommand of atcore: its documentation, its flags and what it does.
type command struct {
	name     string // as typed: "tid", "tid inspect"
	synopsis string // what follows the name in the usage line, e.g. "[-json] TID..."
	summary  string // one line for the command list
	doc      string // what the command does and prints, wrapped to fit 100 columns
	example  string // a short shell session; lines starting with "$ " are the commands
	maxArgs  int    // most positional arguments; -1 for no limit

	// setup defines the command's flags on fs and returns the function that runs the command
	// with the parsed flags and the positional arguments. Help calls setup only to list the
	// flags.
	setup func(fs *flag.FlagSet) func(c *call, args []string) int
}

// commands lists every command, in the order "atcore help" shows them. Filled in init to break
// the initialization cycle through the help command, which reads this list.
var commands []*command

func init() {
	commands = []*command{
		tidCommand,
		tidInspectCommand,
		tidRangeCommand,
		tidAtCommand,
		rkeyCheckCommand,
		inspectCommand,
		checkCommand,
		json2cborCommand,
		cbor2jsonCommand,
		cidCommand,
		validateCommand,
		lexiconCheckCommand,
		diagCommand,
		versionCommand,
	}
}

// lookup finds the command named by the first one or two words of the command line and returns
// it with the arguments that follow its name. Two-word names ("tid inspect") win over one-word
// names ("tid"). It returns nil for an unknown command.
func lookup(name string, rest []string) (*command, []string) {
	if len(rest) > 0 {
		if c := find(name + " " + rest[0]); c != nil {
			return c, rest[1:]
		}
	}
	return find(name), rest
}

func find(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// subcommands returns the names of the commands in the group name ("rkey" → "rkey check").
func subcommands(group string) []string {
	var names []string
	for _, c := range commands {
		if strings.HasPrefix(c.name, group+" ") {
			names = append(names, c.name)
		}
	}
	return names
}

// env is where a run reads and writes.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	stdinTerminal, stdoutTerminal bool // a person types the input, or reads the output
}

// call is one invocation of a command.
type call struct {
	*env
	cmd *command
	// literal: the arguments came after "--", so "-" is an argument like any other, not
	// standard input (a record key may be "-").
	literal bool
	// jsonPerItem: the command writes one JSON object per input (-json), so that eachItem
	// writes one for an input it rejects itself (a line too long to read) too.
	jsonPerItem bool
}

// usageError reports a command-line error that belongs to no command on standard error: one line,
// then where to find the usage. The whole usage would bury the line that matters.
func (e *env) usageError(format string, args ...any) {
	fmt.Fprintf(e.stderr, "atcore: "+format+"\n", args...)
	fmt.Fprintf(e.stderr, "Run \"atcore help\" for the list of commands.\n")
}

// runCommand parses cmd's flags from args and runs it.
func (e *env) runCommand(cmd *command, args []string) int {
	c := &call{env: e, cmd: cmd}
	fs := flag.NewFlagSet("atcore "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed below, in our format
	runFn := cmd.setup(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if err := writeCommandHelp(e.stdout, cmd); err != nil {
				return c.fail("", fmt.Errorf("writing output: %w", err))
			}
			return exitOK
		}
		return c.usageError("%v", err)
	}
	// flag drops a "--" that ends the flags; it is the argument just before the positional ones.
	if i := len(args) - fs.NArg() - 1; i >= 0 && args[i] == "--" {
		c.literal = true
	}
	// The flag parser stops at the first argument: a flag after it would be taken for an
	// identifier or a file ("rkey check self -type tid" would check "-type" and "tid" as keys,
	// and say ok). Values that start with '-' go after "--", as the help says.
	if !c.literal {
		if f := flagAfterArgument(fs); f != "" {
			return c.usageError("flag %s after an argument: flags come before arguments (values that start with '-' go after \"--\")", f)
		}
	}
	if n := fs.NArg(); cmd.maxArgs >= 0 && n > cmd.maxArgs {
		if cmd.maxArgs == 0 {
			return c.usageError("unexpected argument %q", fs.Arg(0))
		}
		return c.usageError("too many arguments: want at most %d, got %d", cmd.maxArgs, n)
	}
	return runFn(c, fs.Args())
}

// flagAfterArgument returns the first positional argument of fs, before any "--" among them,
// that names one of fs's flags (-name, --name, -name=value, or -h and -help), or "".
func flagAfterArgument(fs *flag.FlagSet) string {
	for _, a := range fs.Args() {
		if a == "--" { // check's "--" after KIND
			return ""
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok {
			continue
		}
		name = strings.TrimPrefix(name, "-")
		name, _, _ = strings.Cut(name, "=")
		if name == "h" || name == "help" || name != "" && fs.Lookup(name) != nil {
			return a
		}
	}
	return ""
}

// usageError reports a command-line error on standard error, one line and where to find the
// command's usage, and returns the usage exit status.
func (c *call) usageError(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "atcore %s: "+format+"\n", append([]any{c.cmd.name}, args...)...)
	fmt.Fprintf(c.stderr, "Run \"atcore help %s\" for its usage.\n", c.cmd.name)
	return exitUsage
}

// fail reports that the input named name is invalid, on one line of standard error, and returns
// the data exit status. name is "" when the message names the input itself.
func (c *call) fail(name string, err error) int {
	if name == "" {
		fmt.Fprintf(c.stderr, "atcore %s: %s\n", c.cmd.name, describe(err))
	} else {
		fmt.Fprintf(c.stderr, "atcore %s: %s: %s\n", c.cmd.name, name, describe(err))
	}
	return exitData
}

// write writes b to standard output, reporting a write error as a failure.
func (c *call) write(b []byte) int {
	if _, err := c.stdout.Write(b); err != nil {
		return c.fail("", fmt.Errorf("writing output: %w", err))
	}
	return exitOK
}

// flush flushes w, reporting a write error (a closed pipe, a full disk) as a failure.
func (c *call) flush(w interface{ Flush() error }) int {
	if err := w.Flush(); err != nil {
		return c.fail("", fmt.Errorf("writing output: %w", err))
	}
	return exitOK
}
