package main

import (
	"bufio"
	"errors"
	"flag"
	"slices"
	"strconv"
	"strings"

	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/plural"
	"github.com/atcore/atcore/lexicon"
)

var lexiconCheckCommand = &command{
	name:     "lexicon check",
	synopsis: "DIR...",
	summary:  "load and check Lexicon schema files",
	doc: `
Loads every *.json file under each DIR (recursively) as a Lexicon schema document, checks it
against the Lexicon spec, and resolves every reference between the documents of that DIR.
Prints "ok DIR: N schemas" for each DIR that loads; otherwise one line on standard error per
problem, naming the file, the JSON Pointer inside it and the rule broken, and the exit
status is 1. A reference to a document in another DIR is not resolved: give the schemas that
refer to each other in one DIR.`,
	example: `
$ atcore lexicon check lexicon/testdata/lexicons
ok lexicon/testdata/lexicons: 402 schemas`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		return func(c *call, args []string) int {
			if len(args) == 0 {
				return c.usageError("no DIR given")
			}
			if slices.Contains(args, "") {
				return c.usageError("empty DIR: it names no directory")
			}
			w := bufio.NewWriter(c.stdout)
			status := exitOK
			for _, dir := range args {
				cat, err := lexicon.LoadDir(dir)
				if err != nil {
					w.Flush()
					status = c.failEach(dir, withoutPath(err))
					continue
				}
				n := len(cat.Schemas())
				w.WriteString("ok " + dir + ": " + strconv.Itoa(n) + " schema" + plural.S(n) + "\n")
			}
			return max(status, c.flush(w))
		}
	},
}

// lexiconFlags are validate's -lexicon and -lenient: when -lexicon names a directory, each
// record is also validated against the schema its $type names.
type lexiconFlags struct {
	fs      *flag.FlagSet
	dir     *string
	lenient *bool
	cat     *lexicon.Catalog
}

func addLexiconFlags(fs *flag.FlagSet) *lexiconFlags {
	return &lexiconFlags{
		fs:      fs,
		dir:     fs.String("lexicon", "", "also validate each record against the Lexicon schemas in `DIR` (its $type picks the schema)"),
		lenient: fs.Bool("lenient", false, "with -lexicon, tolerate the legacy blobs, loose datetimes and loose URIs of old records"),
	}
}

// emptyDir tells whether -lexicon was given an empty DIR ("-lexicon "$DIR"" with DIR unset),
// which names no schemas: taken for no -lexicon, it would pass records no schema checked.
func (f *lexiconFlags) emptyDir() bool {
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == "lexicon" })
	return given && *f.dir == ""
}

// load reads the schemas of -lexicon, if given, before the first record: schemas that do not
// load stop the command, each problem on its own line.
func (f *lexiconFlags) load(c *call) int {
	if *f.dir == "" {
		return exitOK
	}
	cat, err := lexicon.LoadDir(*f.dir)
	if err != nil {
		return c.failEach("-lexicon "+*f.dir, withoutPath(err))
	}
	f.cat = cat
	return exitOK
}

// check validates the decoded record v against the schemas, if -lexicon was given, and
// returns every problem (lexicon.Errors, or the one *lexicon.Error).
func (f *lexiconFlags) check(v any) error {
	if f.cat == nil {
		return nil
	}
	var o lexicon.Options
	if *f.lenient {
		o.Mode = lexicon.Lenient
	}
	return f.cat.CheckRecord(v, o).Err()
}

// failEach reports err as fail does, one line per problem when it holds several Lexicon
// problems.
func (c *call) failEach(name string, err error) int {
	var es lexicon.Errors
	if !errors.As(err, &es) {
		return c.fail(name, err)
	}
	for _, e := range es {
		c.fail(name, e)
	}
	return exitData
}

// describeLexicon renders Lexicon problems for describe: a value's problem as the data model's
// are (path, then the rule), a schema's or a missing type's by their own message; several are
// joined with "; ".
func describeLexicon(err error) (string, bool) {
	var es lexicon.Errors
	if errors.As(err, &es) {
		parts := make([]string, len(es))
		for i, e := range es {
			parts[i], _ = describeLexicon(e)
		}
		return strings.Join(parts, "; "), true
	}
	var e *lexicon.Error
	if !errors.As(err, &e) {
		return "", false
	}
	if e.Err != lexicon.ErrValue {
		return e.Error(), true
	}
	return "path " + echo.QuotePath(e.Path) + ": " + e.Rule + ": " + e.Detail, true
}

// lexiconResult fills validate -json's rule, detail and path from the first Lexicon problem.
func lexiconResult(r *inputResult, err error) {
	var e *lexicon.Error
	if errors.As(err, &e) {
		r.Rule, r.Detail, r.Path = e.Rule, e.Detail, &e.Path
	}
}
