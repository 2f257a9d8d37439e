package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/echo"
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
		c.noteTerminal()
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
	data, err := c.readAtMost(name, limit)
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, errTooLarge(limit)
	}
	return data, nil
}

// readAtMost reads at most limit+1 bytes from the input called name.
func (c *call) readAtMost(name string, limit int) ([]byte, error) {
	r, err := c.open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, withoutPath(err)
	}
	return data, nil
}

// errTooLarge is the error for input of more than limit bytes.
func errTooLarge(limit int) error {
	return &datamodel.Error{Err: datamodel.ErrTooLarge, Offset: limit,
		Detail: "more than " + strconv.Itoa(limit) + " bytes, limit " + strconv.Itoa(limit)} // as the stream decoders say it
}

// maxRecordSize is the most a record may take in either form, so that reading stops early even
// before the form is known.
const maxRecordSize = max(datamodel.DefaultMaxCBORSize, datamodel.DefaultMaxJSONSize)

// readAnyRecord reads a record in either form (isJSON tells them apart), up to maxRecordSize
// bytes. Input beyond that is refused with its own form's limit: CBOR with CBOR's 1 MiB, as
// CBOR from 1 to 2 MiB is refused by its decoder, not with JSON's 2 MiB.
func (c *call) readAnyRecord(name string) ([]byte, error) {
	data, err := c.readAtMost(name, maxRecordSize)
	if err != nil {
		return nil, err
	}
	if len(data) > maxRecordSize {
		if isJSON(data) {
			return nil, errTooLarge(datamodel.DefaultMaxJSONSize)
		}
		return nil, errTooLarge(datamodel.DefaultMaxCBORSize)
	}
	return data, nil
}

// isJSON tells whether data is a record in atproto JSON rather than in DAG-CBOR: its first byte
// that is not JSON white space is one that starts a JSON value ({ [ " - 0-9 t f n). A DAG-CBOR
// record is a map, so its first byte is a map head, 0xa0-0xbf, which is none of these nor
// white space: for records the test is never wrong. (JSON that is not an object is detected as
// JSON too, so that it gets JSON's error, "record is not an object".) A leading UTF-8 byte-order
// mark is skipped. Input of only white space is neither: see isBlank.
func isJSON(data []byte) bool {
	data, _ = withoutBOM(data) // a JSON file saved by some editors
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

// isBlank tells whether data, not empty, holds only JSON white space, after a byte-order mark if
// any. Such input is empty input, in either form: isJSON says no (it has no byte that starts a
// JSON value), but read as CBOR its white space would be integers (a newline is 10), and the error
// would be about a value no one wrote. See errBlank.
func isBlank(data []byte) bool {
	if len(data) == 0 {
		return false
	}
	data, _ = withoutBOM(data)
	for _, b := range data {
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return false
		}
	}
	return true
}

// errBlank is the error for input that isBlank: the end of input where a value should start, as
// for input with no byte at all.
func errBlank(data []byte) error {
	return &datamodel.Error{Err: datamodel.ErrTruncated, Offset: len(data), Detail: "only white space, no value"}
}

// looksLikeCBOR tells whether data starts as a DAG-CBOR record does, with a map head (0xa0-0xbf).
// No text does: in UTF-8 those bytes only continue a character.
func looksLikeCBOR(data []byte) bool {
	return len(data) > 0 && data[0]>>5 == 5
}

// describe formats err for one line of standard error. A data-model error reads
// "offset 12, path "/embed/images/0": RULE (DETAIL)".
func describe(err error) string {
	if s, ok := describeLexicon(err); ok {
		return s
	}
	var de *datamodel.Error
	if !errors.As(err, &de) {
		return err.Error()
	}
	s := ""
	if de.Offset >= 0 {
		s = "offset " + strconv.Itoa(de.Offset) + ", "
	}
	s += "path " + echo.QuotePath(de.Path) + ": " + de.Err.Error()
	if de.Detail != "" {
		s += " (" + de.Detail + ")"
	}
	return s
}

// maxLine bounds a line of identifiers read from standard input.
const maxLine = 64 << 10

// eachItem calls fn with each argument; an argument "-" (unless after "--": c.literal), or no
// argument at all, stands for the lines of standard input, so that identifiers can be piped in:
// atcore tid -n 5 | atcore tid inspect. Lines are trimmed of surrounding white space (a line
// ending, a stray space from copy and paste) and blank lines are skipped. fn writes its result
// line to w; an item it rejects is reported on standard error, in input order, and makes the
// exit status exitData while the other items go on. A line longer than maxLine is such an item,
// reported without its text (with c.jsonPerItem, also as a JSON object whose input is empty).
// It returns the exit status.
func (c *call) eachItem(args []string, fn func(w *bufio.Writer, item string) error) int {
	w := bufio.NewWriter(c.stdout)
	status := exitOK
	do := func(item string) {
		if err := fn(w, item); err != nil {
			w.Flush() // keep standard output and standard error in input order
			status = c.fail("", err)
		}
	}
	// No argument at all reads standard input, after "--" too: the "-" that stands for it here
	// is not a value the user gave.
	noArgs := len(args) == 0
	if noArgs {
		args = []string{stdinName}
	}
	for _, a := range args {
		if a != stdinName || c.literal && !noArgs {
			do(a)
			continue
		}
		c.noteTerminal()
		err := eachLine(c.stdin, func(n int, line []byte, long bool) {
			if long {
				err := fmt.Errorf("line %d is longer than %d bytes", n, maxLine)
				if c.jsonPerItem { // its text is not kept: the object says which line it was
					off := -1
					writeJSONLine(w, checkResult{Error: stdinName + ": " + err.Error(), Offset: &off})
				}
				w.Flush()
				status = c.fail(stdinName, err)
				return
			}
			if item := strings.TrimSpace(string(line)); item != "" {
				do(item)
			}
		})
		if err != nil {
			w.Flush()
			status = c.fail(stdinName, withoutPath(err))
		}
	}
	return max(status, c.flush(w))
}

// eachLine calls fn with each line of r, numbered from 1, without its line ending. A line longer
// than maxLine bytes is passed with long set and no text: the rest of it is read and dropped a
// buffer at a time, so that memory stays bounded whatever the input, and the lines after it go
// on. It returns the first error reading r, other than its end.
func eachLine(r io.Reader, fn func(n int, line []byte, long bool)) error {
	br := bufio.NewReaderSize(r, maxLine+2) // a line of maxLine bytes and its "\r\n"
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		long := false
		for err == bufio.ErrBufferFull {
			long, line = true, nil
			_, err = br.ReadSlice('\n')
		}
		if !long {
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			long = len(line) > maxLine
		}
		if long || len(line) > 0 || err == nil {
			fn(n, line, long)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// noteTerminal says on standard error that the command is waiting for input typed at the
// terminal, so that a person who forgot the argument does not take it for a hang.
func (c *call) noteTerminal() {
	if c.stdinTerminal {
		fmt.Fprintf(c.stderr, "atcore %s: reading standard input from the terminal (end with Ctrl-D)\n", c.cmd.name)
	}
}

// utf8BOM is the byte-order mark some editors put at the start of a UTF-8 file.
const utf8BOM = "\xef\xbb\xbf"

// withoutBOM returns data without a leading UTF-8 byte-order mark, and the length of the mark
// removed (0 or 3). RFC 8259 section 8.1 lets a JSON parser ignore one; CBOR never starts with
// 0xef 0xbb 0xbf as a record (0xef is a simple value, not a map).
func withoutBOM(data []byte) ([]byte, int) {
	if strings.HasPrefix(string(data), utf8BOM) {
		return data[len(utf8BOM):], len(utf8BOM)
	}
	return data, 0
}

// unmarshalJSON decodes atproto JSON that may start with a byte-order mark; error offsets count
// the mark, so that they point into the file as it is.
func unmarshalJSON(data []byte, opts ...datamodel.Option) (any, error) {
	body, skip := withoutBOM(data)
	v, err := datamodel.UnmarshalJSON(body, opts...)
	return v, shiftOffset(err, skip)
}

// jsonToCBOR is datamodel.JSONToCBOR for input that may start with a byte-order mark.
func jsonToCBOR(data []byte) ([]byte, error) {
	body, skip := withoutBOM(data)
	out, err := datamodel.JSONToCBOR(body)
	return out, shiftOffset(err, skip)
}

// shiftOffset moves the byte offset of a data-model error by n bytes.
func shiftOffset(err error, n int) error {
	var de *datamodel.Error
	if n != 0 && errors.As(err, &de) && de.Offset >= 0 {
		de.Offset += n
	}
	return err
}
