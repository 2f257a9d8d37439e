package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datamodel"
)

var json2cborCommand = &command{
	name:     "json2cbor",
	synopsis: "[-o FILE] [-force] [FILE]",
	summary:  "convert atproto JSON to DAG-CBOR",
	doc: `
Reads one value in atproto JSON ({"$link": ...}, {"$bytes": ...}, blobs) and writes its
canonical DAG-CBOR bytes to standard output, or to FILE with -o. The input may hold at most
2 MiB, and its CBOR at most 1 MiB, as much as a CBOR reader takes; a UTF-8 byte-order mark
at its start is skipped. CBOR is binary: it is not written to
a terminal unless -force is given.`,
	example: `
$ atcore json2cbor testdata/records/like.json | atcore cid
bafyreihp7yga6z7sag5rdvg2dwusrabhddjzvho6ahmrzq6jqrlxp5pmvu  -`,
	maxArgs: 1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		outFile := fs.String("o", "", "write the CBOR to `FILE` instead of standard output (\"-\": standard output)")
		force := fs.Bool("force", false, "write CBOR to standard output even if it is a terminal")
		return func(c *call, args []string) int {
			// "-" names standard output, as it names standard input among the inputs.
			toStdout := *outFile == "" || *outFile == stdinName
			if toStdout && c.stdoutTerminal && !*force {
				return c.usageError("not writing binary CBOR to a terminal; redirect it, or use -o FILE or -force")
			}
			name := inputNames(args)[0]
			data, err := c.readRecord(name, datamodel.DefaultMaxJSONSize)
			if err != nil {
				return c.fail(name, err)
			}
			out, err := jsonToCBOR(data)
			if err != nil {
				if looksLikeCBOR(data) {
					err = fmt.Errorf("%s; the input looks like CBOR, not JSON (atcore cbor2json converts it)", describe(err))
				}
				return c.fail(name, err)
			}
			if !toStdout {
				if err := os.WriteFile(*outFile, out, 0o666); err != nil {
					return c.fail(*outFile, withoutPath(err))
				}
				return exitOK
			}
			return c.write(out)
		}
	},
}

var cbor2jsonCommand = &command{
	name:     "cbor2json",
	synopsis: "[-compact] [-seq] [FILE]",
	summary:  "convert DAG-CBOR to atproto JSON",
	doc: `
Reads one strict DAG-CBOR value (at most 1 MiB) and writes it as atproto JSON, keys sorted,
indented by two spaces; -compact writes it on one line. JSON of more than 2 MiB, which a
JSON reader would refuse, is an error. With -seq, the input is a sequence
of values back to back, such as an event-stream frame (a header, then a body), and each is
written in turn; with -compact, one per line.`,
	example: `
$ atcore cbor2json -compact testdata/records/like.cbor
{"$type":"app.bsky.feed.like","createdAt":"2024-11-08T09:43:02.118Z","subject":{"cid":"bafyreihc3nqam3jekojph32ubr62vdz6ev62lhhuwnbljurrx4g3laa45i","uri":"at://did:plc:qg3dpwh42ldnuy2z42ldce5b/app.bsky.feed.post/3laerg7bgwp25"}}`,
	maxArgs: 1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		compact := fs.Bool("compact", false, "write the JSON on one line")
		seq := fs.Bool("seq", false, "read a sequence of CBOR values, such as an event-stream frame")
		return func(c *call, args []string) int {
			name := inputNames(args)[0]
			limit := datamodel.DefaultMaxCBORSize
			if *seq {
				limit = maxSeqSize
			}
			data, err := c.readRecord(name, limit)
			if err != nil {
				return c.fail(name, err)
			}
			w := bufio.NewWriter(c.stdout)
			err = eachValue(data, *seq, func(_ int, v any, _ []byte) error {
				var out []byte
				var err error
				if *compact {
					out, err = datamodel.MarshalJSON(v)
				} else {
					out, err = datamodel.MarshalJSONIndent(v, "", "  ")
				}
				if err == nil && len(out) > datamodel.DefaultMaxJSONSize {
					// What json2cbor and validate would refuse to read back.
					err = &datamodel.Error{Err: datamodel.ErrTooLarge, Offset: -1, Detail: fmt.Sprintf(
						"the JSON form would be %d bytes, limit %d", len(out), datamodel.DefaultMaxJSONSize)}
				}
				if err == nil {
					w.Write(append(out, '\n'))
				}
				return err
			})
			if err != nil {
				w.Flush()
				return c.fail(name, withJSONHint(err, data, ", not CBOR (atcore validate reads both)"))
			}
			return c.flush(w)
		}
	},
}

// maxSeqSize bounds the input of -seq: several values of up to 1 MiB each.
const maxSeqSize = 16 << 20

// eachValue decodes data as one strict DAG-CBOR value or, with seq, as values back to back, and
// calls fn with each in turn, its index and its bytes. An error's offset counts from the start
// of data.
func eachValue(data []byte, seq bool, fn func(i int, v any, raw []byte) error, opts ...datamodel.Option) error {
	if !seq {
		v, err := datamodel.UnmarshalCBOR(data, opts...)
		if err != nil {
			return err
		}
		return fn(0, v, data)
	}
	if len(data) == 0 {
		_, err := datamodel.UnmarshalCBOR(data) // the error for empty input
		return err
	}
	for i, rest := 0, data; len(rest) > 0; i++ {
		start := len(data) - len(rest)
		v, after, err := datamodel.UnmarshalCBORPrefix(rest, opts...)
		if err != nil {
			return shiftOffset(err, start)
		}
		if err := fn(i, v, rest[:len(rest)-len(after)]); err != nil {
			return err
		}
		rest = after
	}
	return nil
}

// withJSONHint adds hint to err, the error of a command that reads only CBOR, when the input
// looks like JSON.
func withJSONHint(err error, data []byte, hint string) error {
	if !isJSON(data) {
		return err
	}
	return fmt.Errorf("%s; the input looks like JSON%s", describe(err), hint)
}

// decodeRecord decodes a record in either form, telling them apart with isJSON. Input of only
// white space is empty input (isBlank).
func decodeRecord(data []byte, opts ...datamodel.Option) (any, error) {
	switch {
	case isBlank(data):
		return nil, errBlank(data)
	case isJSON(data):
		return unmarshalJSON(data, opts...)
	}
	return datamodel.UnmarshalCBOR(data, opts...)
}

var validateCommand = &command{
	name:     "validate",
	synopsis: "[-json] [-seq] [-safe-ints] [-lexicon DIR [-lenient]] [FILE...]",
	summary:  "check records in atproto JSON or DAG-CBOR, and against Lexicon schemas",
	doc: `
Checks that each input is a valid record: an object of the data model, in strict DAG-CBOR
or in atproto JSON, within the limits for untrusted input (1 MiB of CBOR, 2 MiB of JSON,
depth 32); a JSON record must also be within 1 MiB as CBOR, and a CBOR record within 2 MiB
as JSON, as the conversions write them. The form is detected from the first byte that is
not white space: one that starts a JSON value ({ [ " - 0-9 t f n) means JSON, any other
CBOR. A CBOR record starts with a map head (0xa0-0xbf), none of those, so records are
never mistaken; a UTF-8 byte-order mark before JSON is skipped. Input of only white space
is empty input. Prints "ok NAME" for each valid record; for each invalid one, a line on
standard error with the input's name, the byte offset, the JSON Pointer of the value and
the rule broken, and the exit status is 1. With -json, standard output has one JSON object
per input, valid or not, with "ok" and, for an invalid one, "error", "rule", "detail",
"offset" and "path". With -seq, each input is a sequence of CBOR objects back to back,
such as an event-stream frame (header, then body), and each is checked and named NAME[0],
NAME[1], ...; offsets count from the start of the input. With -lexicon DIR, each record is
also validated against the Lexicon schemas in DIR (all loaded and checked first, as
"atcore lexicon check" does), the schema its $type names: every problem is a line on
standard error with the JSON Pointer of the value and the rule broken; a $type that DIR
does not define is an error. -lenient tolerates the legacy blobs, loose datetimes and
loose URIs of old records. -lexicon does not apply to -seq. With -safe-ints, integers must
also be within ±(2^53−1), the range JavaScript holds exactly and the TypeScript
implementation accepts.`,
	example: `
$ atcore validate testdata/records/post.json testdata/records/post.cbor
ok testdata/records/post.json
ok testdata/records/post.cbor`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per input")
		seq := fs.Bool("seq", false, "read each input as a sequence of CBOR values, such as an event-stream frame")
		lex := addLexiconFlags(fs)
		safeInts := fs.Bool("safe-ints", false, "refuse integers outside ±(2^53−1), which JavaScript cannot hold exactly")
		return func(c *call, args []string) int {
			if lex.emptyDir() {
				return c.usageError("-lexicon needs a DIR; an empty one names no schemas")
			}
			if *seq && *lex.dir != "" {
				return c.usageError("-lexicon checks whole records; it does not apply to -seq")
			}
			if *lex.lenient && *lex.dir == "" {
				return c.usageError("-lenient tolerates what -lexicon checks; give -lexicon DIR with it")
			}
			if status := lex.load(c); status != exitOK {
				return status
			}
			var opts []datamodel.Option
			if *safeInts {
				opts = append(opts, datamodel.WithSafeIntegers())
			}
			w := bufio.NewWriter(c.stdout)
			status := exitOK
			report := func(name string, err error) {
				switch {
				case *asJSON:
					writeJSONLine(w, newInputResult(name, err))
				case err == nil:
					w.WriteString("ok " + name + "\n")
				}
				if err != nil {
					w.Flush() // keep standard output and standard error in input order
					status = c.failEach(name, err)
				}
			}
			for _, name := range inputNames(args) {
				if *seq {
					c.validateSeq(name, report, opts...)
				} else {
					report(name, c.validate(name, lex, opts...))
				}
			}
			return max(status, c.flush(w))
		}
	},
}

func (c *call) validate(name string, lex *lexiconFlags, opts ...datamodel.Option) error {
	data, err := c.readAnyRecord(name)
	if err != nil {
		return err
	}
	v, err := decodeRecord(data, opts...)
	if err != nil {
		return err
	}
	if err := datamodel.ValidateRecord(v, opts...); err != nil {
		return err
	}
	if isJSON(data) {
		// A JSON record within 2 MiB may be more than 1 MiB of CBOR, which json2cbor and cid
		// refuse to write (datamodel.JSONToCBOR) and every CBOR reader refuses to read.
		if _, err := jsonToCBOR(data); err != nil {
			return err
		}
	} else if err := jsonFormTooLarge(data); err != nil {
		return err
	}
	return lex.check(v)
}

// jsonFormTooLarge returns the error for a CBOR record within 1 MiB that is more than 2 MiB as
// JSON (base64, escapes), which cbor2json refuses to write, or nil.
func jsonFormTooLarge(data []byte) error {
	if _, err := datamodel.CBORToJSON(data); errors.Is(err, datamodel.ErrTooLarge) {
		return err
	}
	return nil
}

// validateSeq checks each CBOR value of the input called name, reporting each as name[i]. A
// value that does not decode ends the sequence: where the next one starts is unknown.
func (c *call) validateSeq(name string, report func(string, error), opts ...datamodel.Option) {
	data, err := c.readRecord(name, maxSeqSize)
	if err != nil {
		report(name, err)
		return
	}
	switch {
	case len(data) == 0: // no value [0]: the input is at fault, as for white space alone
		report(name, eachValue(data, true, nil))
		return
	case isBlank(data):
		report(name, errBlank(data))
		return
	case isJSON(data):
		report(name, errors.New("-seq reads CBOR values back to back; the input looks like JSON"))
		return
	}
	n := 0
	err = eachValue(data, true, func(i int, v any, raw []byte) error {
		err := datamodel.ValidateRecord(v, opts...)
		if err == nil {
			err = jsonFormTooLarge(raw) // as validate checks a record on its own
		}
		report(fmt.Sprintf("%s[%d]", name, i), err)
		n = i + 1
		return nil
	}, opts...)
	if err != nil {
		report(fmt.Sprintf("%s[%d]", name, n), err)
	}
}

// inputResult is one line of "validate -json" and "cid -json".
type inputResult struct {
	Name   string  `json:"name"`
	OK     bool    `json:"ok"`
	CID    string  `json:"cid,omitempty"`
	Size   *int64  `json:"size,omitempty"`   // bytes hashed
	Error  string  `json:"error,omitempty"`  // the whole message, as on standard error
	Rule   string  `json:"rule,omitempty"`   // the rule broken, for data-model errors
	Detail string  `json:"detail,omitempty"` // specifics, for data-model errors
	Offset *int    `json:"offset,omitempty"` // byte offset, for data-model errors that have one
	Path   *string `json:"path,omitempty"`   // JSON Pointer, for data-model errors ("" is the top level)
}

func newInputResult(name string, err error) inputResult {
	r := inputResult{Name: name, OK: err == nil}
	if err == nil {
		return r
	}
	r.Error = describe(err)
	lexiconResult(&r, err)
	var de *datamodel.Error
	if errors.As(err, &de) {
		r.Rule, r.Detail, r.Path = de.Err.Error(), de.Detail, &de.Path
		if de.Offset >= 0 {
			r.Offset = &de.Offset
		}
	}
	return r
}

var cidCommand = &command{
	name:     "cid",
	synopsis: "[-raw] [-json] [FILE...]",
	summary:  "compute the CID of records or blobs",
	doc: `
Prints "CID  NAME" for each input, like sha256sum. Without -raw, each input is a record in
atproto JSON or DAG-CBOR (detected as by validate): JSON is converted to canonical DAG-CBOR
first, CBOR must already be strict DAG-CBOR; the CID is CIDv1, dag-cbor, sha2-256. With
-raw, each input is a blob, hashed as it streams (any size, never held in memory); the
CID is CIDv1, raw, sha2-256, as in a blob's "ref". With -json, one JSON object per input
instead, with "cid" and "size" (the bytes hashed: a blob's size, or the length of the
record's DAG-CBOR), or the error as validate -json gives it.`,
	example: `
$ atcore cid -raw -json LICENSE
{"name":"LICENSE","ok":true,"cid":"bafkreidgmdyif2c6tntdjm2rghqg5btbfgiwqwfikoqf5zbbombshmazsy","size":1075}`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		raw := fs.Bool("raw", false, "hash the inputs as blobs (raw bytes), streaming")
		asJSON := fs.Bool("json", false, "print one JSON object per input")
		return func(c *call, args []string) int {
			w := bufio.NewWriter(c.stdout)
			status := exitOK
			for _, name := range inputNames(args) {
				sum := c.recordCID
				if *raw {
					sum = c.blobCID
				}
				id, size, err := sum(name)
				switch {
				case *asJSON:
					r := newInputResult(name, err)
					if err == nil {
						r.CID, r.Size = id, &size
					}
					writeJSONLine(w, r)
				case err == nil:
					w.WriteString(id + "  " + name + "\n")
				}
				if err != nil {
					w.Flush()
					status = c.fail(name, err)
				}
			}
			return max(status, c.flush(w))
		}
	},
}

// recordCID returns the CID of the record called name and the length of its DAG-CBOR.
func (c *call) recordCID(name string) (string, int64, error) {
	data, err := c.readAnyRecord(name)
	if err != nil {
		return "", 0, err
	}
	if isBlank(data) {
		return "", 0, errBlank(data)
	}
	if isJSON(data) {
		if data, err = jsonToCBOR(data); err != nil {
			return "", 0, err
		}
	}
	// Hash the bytes only once they are known to be a record in strict DAG-CBOR: the CID of
	// non-canonical bytes, or of a value that is no record (a blob's map included), names no
	// record; validate's error says which.
	v, err := datamodel.UnmarshalCBOR(data)
	if err == nil {
		err = datamodel.ValidateRecord(v)
	}
	if err != nil {
		return "", 0, err
	}
	return cidutil.SumCBOR(data).String(), int64(len(data)), nil
}

// blobCID returns the CID of the blob called name and its size, reading it as a stream.
func (c *call) blobCID(name string) (string, int64, error) {
	r, err := c.open(name)
	if err != nil {
		return "", 0, err
	}
	defer r.Close()
	sum, size, err := cidutil.SumRawReader(r)
	if err != nil {
		return "", 0, withoutPath(err)
	}
	return sum.String(), size, nil
}
