// Command atcore looks inside AT Protocol identifiers and records: it tells what kind of identifier
// a value is and shows its parts, checks identifiers of a named kind, generates and inspects TIDs,
// checks record keys, converts records between atproto JSON and DAG-CBOR, computes CIDs, validates
// records (also against Lexicon schemas), checks Lexicon schema files and shows CBOR byte by byte.
//
// Usage:
//
//	atcore COMMAND [FLAGS] [ARGS]
//	atcore help [COMMAND]
//
// Run "atcore help" for the list of commands, "atcore help COMMAND" or "atcore COMMAND -h" for one
// command's flags and an example.
//
// Exit status: 0 on success, 1 when an input is invalid (the message on standard error names the
// input, the byte offset and path where it applies, and the rule), 2 for a usage error (unknown
// command or flag, wrong number of arguments): one line saying what, and a hint.
//
// "atcore version" (or "atcore -version") prints the version the binary was built from.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitData  = 1 // an input was invalid
	exitUsage = 2 // the command line was wrong
)

// run executes the command line args (without the program name) and returns the exit status.
// Everything the command does goes through its parameters, so tests drive it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr,
		stdinTerminal: isTerminal(stdin), stdoutTerminal: isTerminal(stdout)}
	if len(args) == 0 {
		e.usageError("no command given")
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return e.help(rest)
	case "-version", "--version":
		name = "version"
	}
	cmd, rest := lookup(name, rest)
	if cmd == nil {
		if subs := subcommands(name); len(subs) > 0 {
			if len(rest) == 0 {
				fmt.Fprintf(e.stderr, "atcore: %q needs a subcommand: %s\n", name, strings.Join(subs, ", "))
			} else {
				fmt.Fprintf(e.stderr, "atcore: unknown command %q\n", name+" "+rest[0])
			}
			fmt.Fprintf(e.stderr, "Run \"atcore help %s\" for its commands.\n", name)
			return exitUsage
		}
		e.usageError("unknown command %q", name)
		return exitUsage
	}
	return e.runCommand(cmd, rest)
}

// isTerminal tells whether f, standard input or output, is a terminal: an *os.File for which
// fileIsTerminal says so (terminal_*.go). A variable, so that tests can stand in for a terminal.
var isTerminal = func(f any) bool {
	file, ok := f.(*os.File)
	return ok && fileIsTerminal(file)
}
