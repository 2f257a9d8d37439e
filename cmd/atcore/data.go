package main

import (
	"bufio"
	"flag"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datamodel"
)

var json2cborCommand = &command{
	name:     "json2cbor",
	synopsis: "[FILE]",
	summary:  "convert atproto JSON to DAG-CBOR",
	doc: `
Reads one value in atproto JSON ({"$link": ...}, {"$bytes": ...}, blobs) and writes its
canonical DAG-CBOR bytes to standard output. The input may hold at most 2 MiB.`,
	example: `
$ echo '{"$type":"app.bsky.feed.post","text":"hi","createdAt":"2024-01-01T00:00:00Z"}' | atcore json2cbor | atcore cid
bafyrei...  -`,
	maxArgs: 1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		return func(c *call, args []string) int {
			name := inputNames(args)[0]
			data, err := c.readRecord(name, datamodel.DefaultMaxJSONSize)
			if err != nil {
				return c.fail(name, err)
			}
			out, err := datamodel.JSONToCBOR(data)
			if err != nil {
				return c.fail(name, err)
			}
			w := bufio.NewWriter(c.stdout)
			w.Write(out)
			return c.flush(w)
		}
	},
}

var cbor2jsonCommand = &command{
	name:     "cbor2json",
	synopsis: "[-compact] [FILE]",
	summary:  "convert DAG-CBOR to atproto JSON",
	doc: `
Reads one strict DAG-CBOR value (at most 1 MiB) and writes it as atproto JSON, keys sorted,
indented by two spaces; -compact writes it on one line.`,
	example: `
$ atcore cbor2json -compact post.cbor
{"$type":"app.bsky.feed.post","createdAt":"2024-01-01T00:00:00Z","text":"hi"}`,
	maxArgs: 1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		compact := fs.Bool("compact", false, "write the JSON on one line")
		return func(c *call, args []string) int {
			name := inputNames(args)[0]
			data, err := c.readRecord(name, datamodel.DefaultMaxCBORSize)
			if err != nil {
				return c.fail(name, err)
			}
			v, err := datamodel.UnmarshalCBOR(data)
			if err != nil {
				return c.fail(name, withJSONHint(err, data, name, "cbor2json"))
			}
			var out []byte
			if *compact {
				out, err = datamodel.MarshalJSON(v)
			} else {
				out, err = datamodel.MarshalJSONIndent(v, "", "  ")
			}
			if err != nil {
				return c.fail(name, err)
			}
			w := bufio.NewWriter(c.stdout)
			w.Write(out)
			w.WriteByte('\n')
			return c.flush(w)
		}
	},
}

// withJSONHint adds a hint to err, the error of a command that reads only CBOR, when the input
// looks like JSON.
func withJSONHint(err error, data []byte, name, cmd string) error {
	if !isJSON(data) {
		return err
	}
	if name == stdinName {
		name = ""
	} else {
		name = " " + name
	}
	return errorf("%s; the input looks like JSON: try \"atcore json2cbor%s | atcore %s\"", describe(err), name, cmd)
}

// decodeRecord decodes a record in either form, telling them apart with isJSON.
func decodeRecord(data []byte) (any, error) {
	if isJSON(data) {
		return datamodel.UnmarshalJSON(data)
	}
	return datamodel.UnmarshalCBOR(data)
}

var validateCommand = &command{
	name:     "validate",
	synopsis: "[FILE...]",
	summary:  "check records in atproto JSON or DAG-CBOR",
	doc: `
Checks that each input is a valid record: an object of the data model, in strict DAG-CBOR
or in atproto JSON, within the limits for untrusted input (1 MiB of CBOR, 2 MiB of JSON,
depth 32). The form is detected from the first byte that is not white space: one that
starts a JSON value ({ [ " - 0-9 t f n) means JSON, any other CBOR. A CBOR record starts
with a map head (0xa0-0xbf), none of those, so records are never mistaken. Prints
"ok NAME" for each valid record; for each invalid one, a line on standard error with the
input's name, the byte offset, the JSON Pointer of the value and the rule broken, and the
exit status is 1.`,
	example: `
$ atcore validate post.json post.cbor
ok post.json
ok post.cbor`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		return func(c *call, args []string) int {
			w := bufio.NewWriter(c.stdout)
			status := exitOK
			for _, name := range inputNames(args) {
				if err := c.validate(name); err != nil {
					w.Flush()
					status = c.fail(name, err)
					continue
				}
				w.WriteString("ok " + name + "\n")
			}
			return max(status, c.flush(w))
		}
	},
}

func (c *call) validate(name string) error {
	data, err := c.readRecord(name, maxRecordSize)
	if err != nil {
		return err
	}
	v, err := decodeRecord(data)
	if err != nil {
		return err
	}
	return datamodel.ValidateRecord(v)
}

var cidCommand = &command{
	name:     "cid",
	synopsis: "[-raw] [FILE...]",
	summary:  "compute the CID of records or blobs",
	doc: `
Prints "CID  NAME" for each input, like sha256sum. Without -raw, each input is a record in
atproto JSON or DAG-CBOR (detected as by validate): JSON is converted to canonical DAG-CBOR
first, CBOR must already be strict DAG-CBOR; the CID is CIDv1, dag-cbor, sha2-256. With
-raw, each input is a blob, hashed as it streams (any size, never held in memory); the
CID is CIDv1, raw, sha2-256, as in a blob's "ref".`,
	example: `
$ atcore cid -raw photo.jpg
bafkrei...  photo.jpg`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		raw := fs.Bool("raw", false, "hash the inputs as blobs (raw bytes), streaming")
		return func(c *call, args []string) int {
			w := bufio.NewWriter(c.stdout)
			status := exitOK
			for _, name := range inputNames(args) {
				sum := c.recordCID
				if *raw {
					sum = c.blobCID
				}
				s, err := sum(name)
				if err != nil {
					w.Flush()
					status = c.fail(name, err)
					continue
				}
				w.WriteString(s + "  " + name + "\n")
			}
			return max(status, c.flush(w))
		}
	},
}

func (c *call) recordCID(name string) (string, error) {
	data, err := c.readRecord(name, maxRecordSize)
	if err != nil {
		return "", err
	}
	if isJSON(data) {
		if data, err = datamodel.JSONToCBOR(data); err != nil {
			return "", err
		}
	} else if _, err := datamodel.UnmarshalCBOR(data); err != nil {
		// Hash the bytes only once they are known to be strict DAG-CBOR: the CID of
		// non-canonical bytes names no record.
		return "", err
	}
	return cidutil.SumCBOR(data).String(), nil
}

func (c *call) blobCID(name string) (string, error) {
	r, err := c.open(name)
	if err != nil {
		return "", err
	}
	defer r.Close()
	sum, _, err := cidutil.SumRawReader(r)
	if err != nil {
		return "", err
	}
	return sum.String(), nil
}
