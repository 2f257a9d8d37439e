package main

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/plural"
)

var diagCommand = &command{
	name:     "diag",
	synopsis: "[-seq] [FILE]",
	summary:  "show CBOR item by item, with byte offsets, to see why a record is rejected",
	doc: `
Prints the CBOR input one item per line: its byte offset, the bytes of its head in hex,
and the item in diagnostic notation (RFC 8949 section 8), indented by nesting, with its
type and length as a comment. Map keys end with ":" and their values follow, one level
deeper. It shows any well-formed CBOR, including what DAG-CBOR forbids (floats, other
tags, indefinite lengths, unsorted keys). The input is then decoded as strict DAG-CBOR;
if that fails, the line where the error lies is marked with "<--", the error goes to
standard error, and the exit status is 1. Malformed input is shown up to where it breaks.
With -seq, the input is a sequence of values back to back, such as an event-stream frame
(a header, then a body), each decoded in turn; without it, bytes after the first value are
an error (they are shown all the same).`,
	example: `
$ atcore diag cmd/atcore/testdata/bad-float.cbor
     0  a3                          {  # map(3)
     1  64                            "text":  # text(4)
     6  62                              "hi"  # text(2)
     9  65                            "$type":  # text(5)
    15  72                              "app.bsky.feed.post"  # text(18)
    34  65                            "score":  # text(5)
    40  fb 3f f8 00 00 00 00 00 00      1.5  # float64  <-- floating-point number
    49                              }
atcore diag: cmd/atcore/testdata/bad-float.cbor: offset 40, path "/score": floating-point number (double-precision float)`,
	maxArgs: 1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
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
			strictErr := eachValue(data, *seq, func(int, any, []byte) error { return nil })
			p := &diagPrinter{w: bufio.NewWriter(c.stdout), offsetWidth: max(6, len(strconv.Itoa(len(data)))), markLine: -1}
			var de *datamodel.Error
			if errors.As(strictErr, &de) && de.Offset >= 0 {
				p.mark = de.Err.Error()
				p.target = markTarget(de)
			}
			// Two walks: the first measures the head column and finds the line to mark, the
			// second prints. Lines are never all held in memory.
			walkCBOR(data, p.measure)
			p.n = 0 // the second walk counts the same lines again
			walkErr := walkCBOR(data, p.line)
			status := c.flush(p.w)
			switch {
			case strictErr != nil:
				return c.fail(name, withJSONHint(strictErr, data, ": try \"atcore json2cbor "+name+" | atcore diag\""))
			case walkErr != nil: // not expected: the strict decoder accepts less than the walker
				return c.fail(name, fmt.Errorf("offset %d: %s", walkErr.offset, walkErr.msg))
			}
			return status
		}
	},
}

// diagLine is one line of diag's output.
type diagLine struct {
	offset int    // where the item starts
	head   []byte // its head bytes (empty for a closing bracket)
	depth  int
	text   string // diagnostic notation
	note   string // comment: type and length
	mark   string // the strict decoder's error, if it lies here
	stop   bool   // the line that says why the walk stopped
	link   bool   // the item is the content of a tag 42, where a CID's bytes belong
}

// diagError says where and why the walk stopped.
type diagError struct {
	offset int
	msg    string
}

func (e *diagError) Error() string { return fmt.Sprintf("offset %d: %s", e.offset, e.msg) }

// Bounds of the walk. The nesting bound keeps the recursion shallow whatever the input; it is
// twice the data model's depth limit (32), so that too-deep records can still be seen.
const (
	diagMaxDepth  = 64
	diagMaxString = 64 // bytes of a string or byte string shown before "…"
)

// walkCBOR calls emit with one line per CBOR item of data, in order, going on after the first
// item so that trailing bytes are shown too. At the first malformed item it emits a last line
// saying why (stop set) and returns the error. Work is proportional to len(data): a declared
// length is never trusted beyond the bytes present.
func walkCBOR(data []byte, emit func(diagLine)) *diagError {
	w := &walker{data: data, emit: emit}
	for w.pos < len(data) {
		if err := w.item(0, plainItem); err != nil {
			emit(diagLine{offset: err.offset, text: "stopped: " + err.msg, stop: true})
			return err
		}
	}
	return nil
}

type walker struct {
	data []byte
	pos  int
	emit func(diagLine)
	link bool // the next line added is for the content of a tag 42
	// nest is how many containers and tags enclose the item being walked. It differs from the
	// indentation depth: a map's value is indented two steps, after its key, but is one level
	// deeper.
	nest int
}

// itemRole is where an item stands, which changes how its line reads.
type itemRole int

const (
	plainItem   itemRole = iota
	mapKey               // its line ends with ":"
	linkContent          // the content of a tag 42: its line names the CID
)

// head reads an item head: major type, additional information, argument.
func (w *walker) head() (major, info byte, arg uint64, err *diagError) {
	start := w.pos
	b := w.data[w.pos]
	major, info = b>>5, b&0x1f
	n := 0
	switch {
	case info < 24:
		arg = uint64(info)
	case info <= 27:
		n = 1 << (info - 24)
	case info == 31:
		if major == 0 || major == 1 || major == 6 {
			return 0, 0, 0, &diagError{start, fmt.Sprintf("indefinite length (0x%02x) on major type %d", b, major)}
		}
	default:
		return 0, 0, 0, &diagError{start, fmt.Sprintf("reserved additional information %d (byte 0x%02x)", info, b)}
	}
	if len(w.data)-w.pos-1 < n {
		return 0, 0, 0, &diagError{start, fmt.Sprintf("unexpected end of input: head 0x%02x needs %d more bytes, %d left", b, n, len(w.data)-w.pos-1)}
	}
	var buf [8]byte
	copy(buf[8-n:], w.data[w.pos+1:w.pos+1+n])
	if n > 0 {
		arg = binary.BigEndian.Uint64(buf[:])
	}
	w.pos += 1 + n
	return major, info, arg, nil
}

// add emits a line for the item whose head is data[start:headEnd].
func (w *walker) add(start, headEnd, depth int, text, note string) {
	w.emit(diagLine{offset: start, head: w.data[start:headEnd], depth: depth, text: text, note: note, link: w.link})
	w.link = false
}

// closing emits the line that closes a container, a tag or an indefinite-length string.
func (w *walker) closing(depth int, text string) {
	w.emit(diagLine{offset: w.pos, depth: depth, text: text})
}

// item walks one item at depth, and what it contains.
func (w *walker) item(depth int, role itemRole) *diagError {
	if w.nest > diagMaxDepth {
		return &diagError{w.pos, fmt.Sprintf("nested deeper than %d levels; diag stops here", diagMaxDepth)}
	}
	start := w.pos
	if w.data[start] == 0xff {
		w.pos++
		return &diagError{start, "break code (0xff) outside an indefinite-length item"}
	}
	major, info, arg, err := w.head()
	if err != nil {
		return err
	}
	headEnd := w.pos
	suffix := ""
	if role == mapKey {
		suffix = ":"
	}
	w.link = role == linkContent // for the item's first line, which each case below adds first
	switch major {
	case 0:
		w.add(start, headEnd, depth, strconv.FormatUint(arg, 10)+suffix, "uint")
	case 1:
		n := new(big.Int).SetUint64(arg)
		n.Add(n, big.NewInt(1)).Neg(n)
		w.add(start, headEnd, depth, n.String()+suffix, "negative int")
	case 2, 3:
		if info == 31 {
			return w.chunks(start, headEnd, depth, major, suffix)
		}
		s, err := w.content(start, arg)
		if err != nil {
			return err
		}
		text, note := showString(major, s)
		if role == linkContent {
			note += linkNote(major, s)
		}
		w.add(start, headEnd, depth, text+suffix, note)
	case 4, 5:
		return w.container(start, headEnd, depth, major, info == 31, arg, suffix)
	case 6:
		note, childRole := "tag", plainItem
		if arg == 42 {
			note, childRole = "tag 42: CID link", linkContent
		}
		w.add(start, headEnd, depth, strconv.FormatUint(arg, 10)+"(", note)
		if w.pos >= len(w.data) {
			return &diagError{w.pos, "unexpected end of input: tag without content"}
		}
		w.nest++
		if err := w.item(depth+1, childRole); err != nil {
			return err
		}
		w.nest--
		w.closing(depth, ")"+suffix)
	case 7:
		w.add(start, headEnd, depth, simpleText(info, arg)+suffix, simpleNote(info))
	}
	return nil
}

// content returns the n bytes of a string's content, or an error if fewer are left.
func (w *walker) content(start int, n uint64) ([]byte, *diagError) {
	if left := uint64(len(w.data) - w.pos); n > left {
		return nil, &diagError{start, fmt.Sprintf("unexpected end of input: string of %d byte%s, %d left", n, plural.S(n), left)}
	}
	s := w.data[w.pos : w.pos+int(n)]
	w.pos += int(n)
	return s, nil
}

// container walks an array (major 4) or a map (major 5), definite or indefinite.
func (w *walker) container(start, headEnd, depth int, major byte, indefinite bool, n uint64, suffix string) *diagError {
	open, close, kind := "[", "]", "array"
	if major == 5 {
		open, close, kind = "{", "}", "map"
	}
	if indefinite {
		w.add(start, headEnd, depth, open+"_", kind+"(*)")
	} else {
		w.add(start, headEnd, depth, open, kind+"("+strconv.FormatUint(n, 10)+")")
	}
	w.nest++
	defer func() { w.nest-- }()
	for i := uint64(0); indefinite || i < n; i++ {
		if w.pos >= len(w.data) {
			return &diagError{w.pos, fmt.Sprintf("unexpected end of input: %s at offset %d ends after %d of its entries", kind, start, i)}
		}
		if indefinite && w.data[w.pos] == 0xff {
			w.pos++
			w.add(w.pos-1, w.pos, depth, close+suffix, "break")
			return nil
		}
		if major == 4 {
			if err := w.item(depth+1, plainItem); err != nil {
				return err
			}
			continue
		}
		if err := w.item(depth+1, mapKey); err != nil {
			return err
		}
		if w.pos >= len(w.data) {
			return &diagError{w.pos, "unexpected end of input: map key without a value"}
		}
		if w.data[w.pos] == 0xff {
			return &diagError{w.pos, "break code (0xff) where a map value should be"}
		}
		if err := w.item(depth+2, plainItem); err != nil {
			return err
		}
	}
	w.closing(depth, close+suffix)
	return nil
}

// chunks walks an indefinite-length byte or text string: definite chunks of the same type up to
// a break code.
func (w *walker) chunks(start, headEnd, depth int, major byte, suffix string) *diagError {
	kind := "bytes"
	if major == 3 {
		kind = "text"
	}
	w.add(start, headEnd, depth, "(_", kind+"(*)")
	for {
		if w.pos >= len(w.data) {
			return &diagError{w.pos, "unexpected end of input: indefinite-length string without a break"}
		}
		cs := w.pos
		if w.data[cs] == 0xff {
			w.pos++
			w.add(cs, w.pos, depth, ")"+suffix, "break")
			return nil
		}
		m, info, n, err := w.head()
		if err != nil {
			return err
		}
		chunkHeadEnd := w.pos
		if m != major || info == 31 {
			return &diagError{cs, fmt.Sprintf("chunk of an indefinite-length %s string is not a definite %s string", kind, kind)}
		}
		s, err := w.content(cs, n)
		if err != nil {
			return err
		}
		text, note := showString(major, s)
		w.add(cs, chunkHeadEnd, depth+1, text, note)
	}
}

// showString formats a byte string (major 2) or text string (major 3), cut after diagMaxString
// bytes.
func showString(major byte, s []byte) (text, note string) {
	cut := ""
	shown := s
	if len(s) > diagMaxString {
		shown, cut = s[:diagMaxString], "…"
	}
	if major == 2 {
		return "h'" + hex.EncodeToString(shown) + cut + "'", "bytes(" + strconv.Itoa(len(s)) + ")"
	}
	note = "text(" + strconv.Itoa(len(s)) + ")"
	if !utf8.Valid(s) {
		note += ", not valid UTF-8"
	}
	return strconv.Quote(string(shown)) + cut, note
}

// linkNote describes the content of a tag 42: the CID it holds, or what is wrong with it.
func linkNote(major byte, content []byte) string {
	if major != 2 {
		return ", not a byte string"
	}
	if len(content) == 0 || content[0] != 0 {
		return ", no 0x00 prefix"
	}
	c, err := cidutil.ParseBinary(content[1:])
	if err != nil {
		return ", not a CID: " + err.Error()
	}
	return ", CID " + c.String()
}

func simpleText(info byte, arg uint64) string {
	switch info {
	case 20:
		return "false"
	case 21:
		return "true"
	case 22:
		return "null"
	case 23:
		return "undefined"
	case 25:
		return formatFloat(float64(float16(uint16(arg))))
	case 26:
		return formatFloat(float64(math.Float32frombits(uint32(arg))))
	case 27:
		return formatFloat(math.Float64frombits(arg))
	}
	return "simple(" + strconv.FormatUint(arg, 10) + ")"
}

func simpleNote(info byte) string {
	switch info {
	case 25:
		return "float16"
	case 26:
		return "float32"
	case 27:
		return "float64"
	}
	return "simple"
}

// formatFloat writes a float as diagnostic notation does: always with a point or an exponent,
// and Infinity/NaN by name.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// float16 decodes an IEEE 754 half-precision number (RFC 8949 appendix D).
func float16(h uint16) float64 {
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	var v float64
	switch exp {
	case 0:
		v = math.Ldexp(mant, -24)
	case 31:
		if mant == 0 {
			v = math.Inf(1)
		} else {
			v = math.NaN()
		}
	default:
		v = math.Ldexp(mant+1024, exp-25)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

// diagPrinter writes lines in three columns (offset, head bytes in hex, item) and marks the
// line where the strict decoder's error lies (see markTarget), found by a first walk (measure).
type diagPrinter struct {
	w           *bufio.Writer
	offsetWidth int
	headWidth   int
	target      func(diagLine) bool // the lines where the error may lie; nil for no error
	mark        string              // the error's rule
	markLine    int                 // the index of the line to mark, -1 for none
	n           int                 // lines seen in the current walk
}

// markTarget returns the test for the lines where the strict decoder's error de may lie; the last
// line that passes it is marked. Most errors give the offset where the item at fault starts (a
// float, an unsorted key) or where an unexpected one does (trailing bytes), so the line is the
// last one to start at or before the offset. That may be the line where the walk stopped: it
// stops at a malformed item (cut short, a reserved head) and shows no line of its own for it, so
// its stop line stands for it. An invalid CID is an error in the content of a tag 42, and its
// offset points inside that content or just past it (a CID cut short): the line is the tag's
// content, not the item that starts where it ends.
func markTarget(de *datamodel.Error) func(diagLine) bool {
	at := de.Offset
	if errors.Is(de, datamodel.ErrInvalidCID) {
		return func(l diagLine) bool { return l.link && l.offset <= at }
	}
	return func(l diagLine) bool { return l.offset <= at }
}

// measure is the first walk: it measures the head column and finds the line to mark.
func (p *diagPrinter) measure(l diagLine) {
	p.headWidth = max(p.headWidth, 3*len(l.head)-1)
	if p.target != nil && p.target(l) {
		p.markLine = p.n
	}
	p.n++
}

// line is the second walk: it writes each line, marking the one measure found.
func (p *diagPrinter) line(l diagLine) {
	if p.n == p.markLine {
		l.mark = p.mark
	}
	p.write(l)
	p.n++
}

func (p *diagPrinter) write(l diagLine) {
	var head strings.Builder
	for i, b := range l.head {
		if i > 0 {
			head.WriteByte(' ')
		}
		head.WriteString(hex.EncodeToString([]byte{b}))
	}
	fmt.Fprintf(p.w, "%*d  %-*s  %s%s", p.offsetWidth, l.offset, p.headWidth, head.String(), strings.Repeat("  ", l.depth), l.text)
	if l.note != "" {
		p.w.WriteString("  # " + l.note)
	}
	if l.mark != "" {
		p.w.WriteString("  <-- " + l.mark)
	}
	p.w.WriteByte('\n')
}
