package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/atcore/atcore/datamodel"
)

// stdinName is how standard input is named, in arguments and in output, as coreutils do.
const stdinName = "-"

// inputNames returns the files named on the command line, or standard input when there are none.
func inputNames(args []string) []string {
	if len(args) == 0 {
		return []string{stdinName}
	}
	return args
}

// open opens the input called name: standard input for "-", else the file. The caller closes it.
func (c *call) open(name string) (io.ReadCloser, error) {
	if name == stdinName {
		return io.NopCloser(c.stdin), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, withoutPath(err)
	}
	return f, nil
}

// withoutPath strips the *os.PathError around err: it repeats the file name, which the caller
// prints already ("atcore cid: photo.jpg: is a directory").
func withoutPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readRecord reads a whole record from the input called name, refusing more than limit bytes. It
// reads at most limit+1 bytes, so a huge input costs no more than a record at the limit.
func (c *call) readRecord(name string, limit int) ([]byte, error) {
	r, err := c.open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, withoutPath(err)
	}
	if len(data) > limit {
		return nil, &datamodel.Error{Err: datamodel.ErrTooLarge, Offset: int64(limit),
			Detail: "more than " + strconv.Itoa(limit) + " bytes"}
	}
	return data, nil
}

// maxRecordSize is the most a record may take in either form, so that reading stops early even
// before the form is known.
const maxRecordSize = max(datamodel.DefaultMaxCBORSize, datamodel.DefaultMaxJSONSize)

// isJSON tells whether data is a record in atproto JSON rather than in DAG-CBOR: its first byte
// that is not JSON white space is one that starts a JSON value ({ [ " - 0-9 t f n). A DAG-CBOR
// record is a map, so its first byte is a map head, 0xa0-0xbf, which is none of these nor
// white space: for records the test is never wrong. (JSON that is not an object is detected as
// JSON too, so that it gets JSON's error, "record is not an object".)
func isJSON(data []byte) bool {
	for _, b := range data {
		switch {
		case b == ' ' || b == '\t' || b == '\n' || b == '\r':
			continue
		case b == '{' || b == '[' || b == '"' || b == '-' || '0' <= b && b <= '9' || b == 't' || b == 'f' || b == 'n':
			return true
		default:
			return false
		}
	}
	return false
}

// describe formats err for one line of standard error. A data-model error reads
// "offset 12, path "/embed/images/0": RULE (DETAIL)".
func describe(err error) string {
	var de *datamodel.Error
	if !errors.As(err, &de) {
		return err.Error()
	}
	s := ""
	if de.Offset >= 0 {
		s = "offset " + strconv.FormatInt(de.Offset, 10) + ", "
	}
	s += "path " + strconv.Quote(de.Path) + ": " + de.Err.Error()
	if de.Detail != "" {
		s += " (" + de.Detail + ")"
	}
	return s
}

// maxLine bounds a line of identifiers read from standard input.
const maxLine = 64 << 10

// eachItem calls fn with each argument or, when there are none, with each line of standard input
// (without its line ending), so that identifiers can be piped in: atcore tid -n 5 | atcore tid
// inspect. fn writes its result line to w; an item it rejects is reported on standard error, in
// input order, and makes the exit status exitData while the other items go on. It returns the
// exit status.
func (c *call) eachItem(args []string, fn func(w *bufio.Writer, item string) error) int {
	w := bufio.NewWriter(c.stdout)
	status := exitOK
	do := func(item string) {
		if err := fn(w, item); err != nil {
			w.Flush() // keep standard output and standard error in input order
			status = c.fail("", err)
		}
	}
	if len(args) > 0 {
		for _, a := range args {
			do(a)
		}
		return max(status, c.flush(w))
	}
	s := bufio.NewScanner(c.stdin)
	s.Buffer(make([]byte, 0, 4096), maxLine)
	n := 0
	for s.Scan() {
		n++
		do(strings.TrimSuffix(s.Text(), "\r"))
	}
	if err := s.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("line %d is longer than %d bytes", n+1, maxLine)
		}
		w.Flush()
		status = c.fail(stdinName, err)
	}
	return max(status, c.flush(w))
}
