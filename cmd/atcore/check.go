package main

import (
	"bufio"
	"errors"
	"flag"
	"strings"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/lang"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
	"github.com/atcore/atcore/tid"
)

// A kind is one kind of identifier or Lexicon string format that "check" validates and
// "inspect" recognizes.
type kind struct {
	name    string   // as typed after "check" and printed by "inspect": "tid", "at-uri"
	aliases []string // other names "check" accepts: the Lexicon format name where it differs
	// parse checks s with the package's strict parser and returns the parts "inspect" shows
	// after "name=s", or the package's error.
	parse func(s string) ([]part, error)
	// inspected tells whether "inspect" tries this kind. at-identifier is not tried: a value
	// is one exactly when it is a DID or a handle, which "inspect" shows already.
	inspected bool
}

// A part is one key=value field of an "inspect" line.
type part struct {
	key, value string
	raw        bool // value is a JSON number or boolean, written unquoted by -json
}

// kinds lists every kind, most specific first: the order in which "inspect" prints the kinds a
// value is, and "check" lists them. A value that is a TID is always a record key too, an NSID
// usually a handle too: the first line says the most about it. rkey comes last, since nearly
// every identifier is also a valid record key.
var kinds = []*kind{
	{name: "tid", parse: tidParts, inspected: true},
	{name: "cid", parse: cidParts, inspected: true},
	{name: "datetime", parse: datetimeParts, inspected: true},
	{name: "at-uri", parse: aturiParts, inspected: true},
	{name: "did", parse: didParts, inspected: true},
	{name: "at-identifier", parse: atidentParts},
	{name: "nsid", parse: nsidParts, inspected: true},
	{name: "handle", parse: handleParts, inspected: true},
	{name: "language", aliases: []string{"lang"}, parse: langParts, inspected: true},
	{name: "rkey", aliases: []string{"record-key"}, parse: rkeyParts, inspected: true},
}

// findKind returns the kind called name (or one of its aliases), or nil.
func findKind(name string) *kind {
	for _, k := range kinds {
		if k.name == name {
			return k
		}
		for _, a := range k.aliases {
			if a == name {
				return k
			}
		}
	}
	return nil
}

// kindNames returns the names of the kinds, in order, for messages and help.
func kindNames() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

// errOffset returns the byte offset an identifier package's *Error locates its problem at (-1
// when the input as a whole is at fault), and whether err is such an error.
func errOffset(err error) (int, bool) {
	var (
		te *tid.Error
		ce *cidutil.Error
		de *datetime.Error
		ie *did.Error
		ae *atident.Error
		ne *nsid.Error
		he *handle.Error
		re *rkey.Error
		le *lang.Error
		ue *aturi.Error
	)
	switch {
	case errors.As(err, &ue): // first: its offsets count in the whole URI
		return ue.Offset, true
	case errors.As(err, &te):
		return te.Offset, true
	case errors.As(err, &ce):
		return ce.Offset, true
	case errors.As(err, &de):
		return de.Offset, true
	case errors.As(err, &ie):
		return ie.Offset, true
	case errors.As(err, &ae):
		return ae.Offset, true
	case errors.As(err, &ne):
		return ne.Offset, true
	case errors.As(err, &he):
		return he.Offset, true
	case errors.As(err, &re):
		return re.Offset, true
	case errors.As(err, &le):
		return le.Offset, true
	}
	return -1, false
}

// checkResult is one line of "check -json".
type checkResult struct {
	Input  string `json:"input"`
	OK     bool   `json:"ok"`
	Error  string `json:"error,omitempty"`
	Offset *int   `json:"offset,omitempty"` // byte offset in the input; -1: the input as a whole
}

var checkCommand = &command{
	name:     "check",
	synopsis: "[-json] KIND [VALUE...]",
	summary:  "check identifiers of one kind: did, handle, at-uri, nsid, tid, datetime, cid, …",
	doc: `
Checks each VALUE with the strict rules of KIND (the Lexicon string format of that name) and
prints "ok VALUE" for each valid one; for each invalid one, a line on standard error saying
where and why, and the exit status is 1. With no VALUE, or "-", reads the values from
standard input, one per line; values that start with "-", the value "-" included, go after
"--". With -json, one JSON object per value on standard output,
valid or not: "input", "ok", and "error" and "offset" (-1: the value as a whole).

KIND is one of: tid, cid, datetime, at-uri, did, at-identifier (a DID or a handle), nsid,
handle, language (also lang), rkey (also record-key). "check rkey" and "rkey check" accept the
same keys.`,
	example: `
$ atcore check did did:plc:ewvi7nxzyoun6zhxrhs64oiz did:PLC:x
ok did:plc:ewvi7nxzyoun6zhxrhs64oiz
atcore check: invalid DID "did:PLC:x": 'P' at offset 4: the method is lower-case letters only, then ':'`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per value")
		return func(c *call, args []string) int {
			if len(args) == 0 {
				return c.usageError("no KIND given; want one of %s", kindNames())
			}
			k := findKind(args[0])
			if k == nil {
				return c.usageError("unknown kind %q; want one of %s", args[0], kindNames())
			}
			values := args[1:]
			if len(values) > 0 && values[0] == "--" { // the flag parser stopped at KIND, before it
				values, c.literal = values[1:], true
			}
			c.jsonPerItem = *asJSON
			return c.eachItem(values, func(w *bufio.Writer, value string) error {
				_, err := k.parse(value)
				switch {
				case *asJSON:
					r := checkResult{Input: value, OK: err == nil}
					if err != nil {
						r.Error = err.Error()
						if off, ok := errOffset(err); ok {
							r.Offset = &off
						}
					}
					writeJSONLine(w, r)
				case err == nil:
					w.WriteString("ok " + value + "\n")
				}
				return err
			})
		}
	},
}
