package main

import (
	"bufio"
	"errors"
	"flag"
	"strings"

	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/rkey"
)

var rkeyCheckCommand = &command{
	name:     "rkey check",
	synopsis: "[-type tid|nsid|any|literal:VALUE] [-json] [KEY|COLLECTION/KEY...]",
	summary:  "check record keys, optionally against a Lexicon key type",
	doc: `
Prints "ok KEY" for each valid record key; for each invalid one, a line on standard error
saying where and why, and the exit status is 1. An argument with a '/' is a repository path,
COLLECTION/KEY: the collection must be an NSID and the key a record key. -type checks the
keys against a Lexicon record key type as well (the "key" field of a record Lexicon). With
-json, one JSON object per input on standard output, valid or not: "input", "ok", and
"collection" and "key", or "error" and "offset". With no KEY, or "-", reads them from
standard input, one per line; keys that start with "-", the key "-" included, go after "--".`,
	example: `
$ atcore rkey check -type tid 3kxnlhr3gxq23 self
ok 3kxnlhr3gxq23
atcore rkey check: invalid record key "self": key type tid: a TID has 13 characters; this has 4`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		keyType := fs.String("type", "any", "Lexicon key type: tid, nsid, any or literal:VALUE")
		asJSON := fs.Bool("json", false, "print one JSON object per input")
		return func(c *call, args []string) int {
			kt, err := rkey.ParseKeyType(*keyType)
			if err != nil {
				return c.usageError("-type: %v", err)
			}
			c.jsonPerItem = *asJSON
			return c.eachItem(args, func(w *bufio.Writer, in string) error {
				collection, key, err := checkKeyOrPath(kt, in)
				switch {
				case *asJSON:
					r := keyResult{Input: in, OK: err == nil, Collection: collection, Key: key}
					var re *rkey.Error
					if errors.As(err, &re) {
						r.Error, r.Offset = re.Error(), &re.Offset
					} else if err != nil {
						r.Error = err.Error()
					}
					if err != nil {
						r.Collection, r.Key = "", ""
					}
					writeJSONLine(w, r)
				case err == nil:
					w.WriteString("ok " + in + "\n")
				}
				return err
			})
		}
	},
}

// keyResult is one line of "rkey check -json".
type keyResult struct {
	Input      string `json:"input"`
	OK         bool   `json:"ok"`
	Collection string `json:"collection,omitempty"` // for a repository path
	Key        string `json:"key,omitempty"`
	Error      string `json:"error,omitempty"`
	Offset     *int   `json:"offset,omitempty"` // byte offset in the input; -1: the input as a whole
}

// checkKeyOrPath checks in, a record key or a repository path COLLECTION/KEY, against kt.
func checkKeyOrPath(kt rkey.KeyType, in string) (collection, key string, err error) {
	if !strings.Contains(in, "/") {
		return "", in, kt.Check(in)
	}
	collection, key, err = rkey.ParsePath(in)
	if err != nil {
		return "", "", err
	}
	if err := kt.Check(key); err != nil {
		// Report it against the whole path, which is what was given, as ParsePath would.
		var re *rkey.Error
		if !errors.As(err, &re) {
			return "", "", err
		}
		off := re.Offset
		if off >= 0 {
			off += len(collection) + 1
		}
		return "", "", &rkey.Error{Kind: "repository path", Input: echo.Clip(in), Len: len(in), Offset: off,
			Reason: "record key: " + re.Reason, Err: re.Err}
	}
	return collection, key, nil
}
