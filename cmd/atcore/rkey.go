package main

import (
	"bufio"
	"flag"

	"github.com/atcore/atcore/rkey"
)

var rkeyCheckCommand = &command{
	name:     "rkey check",
	synopsis: "[-type tid|nsid|any|literal:VALUE] [KEY...]",
	summary:  "check record keys, optionally against a Lexicon key type",
	doc: `
Prints "ok KEY" for each valid record key; for each invalid one, a line on standard error
saying where and why, and the exit status is 1. -type checks the keys against a Lexicon
record key type as well (the "key" field of a record Lexicon). Keys that start with "-"
go after "--". With no KEY, reads them from standard input, one per line.`,
	example: `
$ atcore rkey check -type tid 3kxnlhr3gxq23 self
ok 3kxnlhr3gxq23
atcore rkey check: invalid record key "self": key type tid: a TID has 13 characters; this has 4`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		keyType := fs.String("type", "any", "Lexicon key type: tid, nsid, any or literal:VALUE")
		return func(c *call, args []string) int {
			kt, err := rkey.ParseKeyType(*keyType)
			if err != nil {
				return c.usageError("-type: %v", err)
			}
			return c.eachItem(args, func(w *bufio.Writer, key string) error {
				if err := kt.Check(key); err != nil {
					return err
				}
				w.WriteString("ok " + key + "\n")
				return nil
			})
		}
	},
}
