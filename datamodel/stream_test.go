package datamodel

import (
	"bytes"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// streamReaders are the ways a stream may arrive: whole, a byte at a time, in halves of what
// is asked, and with io.EOF together with the last bytes.
var streamReaders = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"one byte", iotest.OneByteReader},
	{"halves", iotest.HalfReader},
	{"EOF with data", iotest.DataErrReader},
}

// streamCBORRecords returns the realistic records' DAG-CBOR back to back, and each one.
func streamCBORRecords(t testing.TB) (stream []byte, values [][]byte) {
	for _, r := range cborTestRecords(t) {
		stream = append(stream, r.cbor...)
		values = append(values, r.cbor)
	}
	return stream, values
}

// streamDecodeAll reads values from a CBORDecoder until an error.
func streamDecodeAll(d interface{ Decode() (any, error) }) ([]any, error) {
	var vs []any
	for {
		v, err := d.Decode()
		if err != nil {
			return vs, err
		}
		vs = append(vs, v)
	}
}

// prefixDecodeAll is the reference for CBORDecoder: a loop of UnmarshalCBORPrefix over the whole
// stream in memory, with error offsets moved to count from the start of the stream.
func prefixDecodeAll(data []byte, opts ...Option) ([]any, error) {
	var vs []any
	off := 0
	for len(data) > 0 {
		v, rest, err := UnmarshalCBORPrefix(data, opts...)
		if err != nil {
			var e *Error
			if errors.As(err, &e) && e.Offset >= 0 {
				e.Offset += off
			}
			return vs, err
		}
		vs = append(vs, v)
		off += len(data) - len(rest)
		data = rest
	}
	return vs, io.EOF
}

// sameStreamError reports whether a stream decoder's error is the reference's: io.EOF for both,
// or *Error values with the same sentinel, offset and path (the detail of ErrTooLarge says what
// the stream knows, and may differ).
func sameStreamError(got, want error) bool {
	if got == io.EOF || want == io.EOF {
		return got == want
	}
	var g, w *Error
	if !errors.As(got, &g) || !errors.As(want, &w) {
		return false
	}
	return g.Err == w.Err && g.Offset == w.Offset && g.Path == w.Path && (g.Detail == w.Detail || g.Err == ErrTooLarge)
}

// TestCBORDecoderRecords: the records back to back read as the records, however the bytes
// arrive, then io.EOF, again and again.
func TestCBORDecoderRecords(t *testing.T) {
	stream, values := streamCBORRecords(t)
	stream = append(stream, stream...) // every record twice
	values = append(values, values...)
	for _, rd := range streamReaders {
		d := NewCBORDecoder(rd.wrap(bytes.NewReader(stream)))
		off := 0
		for i, c := range values {
			if d.InputOffset() != off {
				t.Errorf("%s: InputOffset before value %d = %d, want %d", rd.name, i, d.InputOffset(), off)
			}
			v, err := d.Decode()
			want, _ := UnmarshalCBOR(c)
			if err != nil || !reflect.DeepEqual(v, want) {
				t.Fatalf("%s: value %d: %v", rd.name, i, err)
			}
			off += len(c)
		}
		for range 3 {
			if v, err := d.Decode(); err != io.EOF || v != nil {
				t.Errorf("%s: at the end: %v, %v; want io.EOF", rd.name, v, err)
			}
		}
	}
}

// TestCBORDecoderEmpty: an empty stream is a clean end.
func TestCBORDecoderEmpty(t *testing.T) {
	if _, err := NewCBORDecoder(strings.NewReader("")).Decode(); err != io.EOF {
		t.Errorf("empty stream: %v, want io.EOF", err)
	}
}

// TestCBORDecoderTornTail: a stream cut anywhere inside its last value gives the values before
// it, then ErrTruncated, which matches io.ErrUnexpectedEOF too, at the offset
// UnmarshalCBORPrefix finds on the tail, counted from the start of the stream.
func TestCBORDecoderTornTail(t *testing.T) {
	_, values := streamCBORRecords(t)
	head := append(append([]byte(nil), values[0]...), values[1]...)
	for _, last := range values {
		for cut := 1; cut < len(last); cut += 1 + len(last)/31 {
			in := append(append([]byte(nil), head...), last[:cut]...)
			wantVs, wantErr := prefixDecodeAll(in)
			for _, rd := range streamReaders {
				vs, err := streamDecodeAll(NewCBORDecoder(rd.wrap(bytes.NewReader(in))))
				if len(vs) != 2 || !reflect.DeepEqual(vs, wantVs) {
					t.Fatalf("%s: cut at %d: %d values, want 2", rd.name, cut, len(vs))
				}
				if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) || !sameStreamError(err, wantErr) {
					t.Fatalf("%s: cut at %d: %v, want %v", rd.name, cut, err, wantErr)
				}
				var e *Error
				if errors.As(err, &e); e.Offset < len(head) {
					t.Fatalf("%s: cut at %d: offset %d is before the torn value (%d)", rd.name, cut, e.Offset, len(head))
				}
			}
		}
	}
}

// TestCBORDecoderErrors: after a valid record, each invalid input of the CBOR table gives the
// error UnmarshalCBORPrefix gives on the whole stream, offset included, however the bytes
// arrive; and the error stays.
func TestCBORDecoderErrors(t *testing.T) {
	_, values := streamCBORRecords(t)
	for _, tt := range cborInvalidTable() {
		if tt.err == ErrTrailingBytes {
			continue // not an error in a stream
		}
		in := append(append([]byte(nil), values[1]...), cborHex(t, tt.hex)...)
		in = append(in, values[2]...) // bytes after the bad value change nothing
		wantVs, wantErr := prefixDecodeAll(in, tt.opts...)
		for _, rd := range streamReaders {
			d := NewCBORDecoder(rd.wrap(bytes.NewReader(in)), tt.opts...)
			vs, err := streamDecodeAll(d)
			if !reflect.DeepEqual(vs, wantVs) || !sameStreamError(err, wantErr) {
				t.Errorf("%s: %s: %d values, %v; want %d, %v", tt.rule, rd.name, len(vs), err, len(wantVs), wantErr)
			}
			if _, again := d.Decode(); again != err {
				t.Errorf("%s: %s: the error did not stay: %v", tt.rule, rd.name, again)
			}
		}
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestCBORDecoderTooLarge: a value over MaxCBORSize is ErrTooLarge at the limit, found after
// reading at most MaxCBORSize+1 bytes of an endless stream, whatever length the value declares
// (rule 14); a value of exactly the limit is read.
func TestCBORDecoderTooLarge(t *testing.T) {
	const limit = 1000
	opt := WithLimits(Limits{MaxCBORSize: limit})
	for _, hdr := range []string{
		"5b0000000100000000", // a byte string of 2^32 bytes
		"9b7fffffffffffffff", // an array of 2^63−1 elements
		"59ffff",             // a byte string of 65535 bytes
	} {
		in := &countingReader{r: io.MultiReader(bytes.NewReader(cborHex(t, hdr)), zeros{})}
		d := NewCBORDecoder(in, WithLimits(Limits{MaxCBORSize: limit, MaxElements: math.MaxInt}))
		_, err := d.Decode()
		var e *Error
		if !errors.Is(err, ErrTooLarge) || !errors.As(err, &e) || e.Offset != limit {
			t.Errorf("%s: %v, want ErrTooLarge at offset %d", hdr, err, limit)
		}
		if in.n > limit+1 {
			t.Errorf("%s: read %d bytes for a limit of %d", hdr, in.n, limit)
		}
		if c := cap(d.in.buf); c > limit+1 {
			t.Errorf("%s: buffer of %d bytes for a limit of %d", hdr, c, limit)
		}
	}
	// A byte string of exactly the limit, then a small value.
	exact := append(cborHex(t, "5903e5"), make([]byte, limit-3)...)
	exact = append(exact, 0x01)
	vs, err := streamDecodeAll(NewCBORDecoder(iotest.HalfReader(bytes.NewReader(exact)), opt))
	if err != io.EOF || len(vs) != 2 || len(vs[0].(Bytes)) != limit-3 || vs[1] != int64(1) {
		t.Errorf("a value of exactly the limit: %d values, %v", len(vs), err)
	}
}

// Lifted limits ("set it to a large value", Limits) read a stream as the defaults do; the
// buffer's bound, limit+1 bytes, once overflowed to a negative capacity (a panic).
func TestStreamDecodersLiftedLimits(t *testing.T) {
	lifted := WithLimits(Limits{MaxCBORSize: math.MaxInt, MaxJSONSize: math.MaxInt, MaxElements: math.MaxInt,
		MaxKeyLen: math.MaxInt, MaxCIDLen: math.MaxInt, MaxValues: math.MaxInt})
	vs, err := streamDecodeAll(NewCBORDecoder(bytes.NewReader(cborHex(t, "a16161 01 82 01 02")), lifted))
	if err != io.EOF || len(vs) != 2 {
		t.Errorf("CBOR: %d values, %v", len(vs), err)
	}
	vs, err = streamDecodeAll(NewJSONDecoder(strings.NewReader("{\"a\": 1}\n[1, 2]\n"), lifted))
	if err != io.EOF || len(vs) != 2 {
		t.Errorf("JSON: %d values, %v", len(vs), err)
	}
}

// TestCBORDecoderMemory: the buffer grows to about the largest value, not the stream.
func TestCBORDecoderMemory(t *testing.T) {
	_, post := readRecord(t, "post")
	var stream []byte
	for range 2000 { // about 2 MB of posts
		stream = append(stream, post...)
	}
	d := NewCBORDecoder(bytes.NewReader(stream))
	vs, err := streamDecodeAll(d)
	if err != io.EOF || len(vs) != 2000 {
		t.Fatalf("%d values, %v", len(vs), err)
	}
	if c := cap(d.in.buf); c > streamReadBuf {
		t.Errorf("buffer of %d bytes for values of %d", c, len(post))
	}
	// A reader that has little ready at a time (a network connection) keeps the buffer small.
	d = NewCBORDecoder(iotest.HalfReader(bytes.NewReader(stream[:100*len(post)])))
	if vs, err := streamDecodeAll(d); err != io.EOF || len(vs) != 100 {
		t.Fatalf("%d values, %v", len(vs), err)
	}
	if c := cap(d.in.buf); c > 2*len(post) {
		t.Errorf("buffer of %d bytes for values of %d, read in halves", c, len(post))
	}
}

// TestCBORDecoderNoAlias: the values do not share memory with the decoder's buffer, which is
// reused.
func TestCBORDecoderNoAlias(t *testing.T) {
	stream, values := streamCBORRecords(t)
	d := NewCBORDecoder(bytes.NewReader(stream))
	var got []any
	for range values {
		v, err := d.Decode()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	clear(d.in.buf[:cap(d.in.buf)])
	for i, c := range values {
		if want, _ := UnmarshalCBOR(c); !reflect.DeepEqual(got[i], want) {
			t.Errorf("value %d changed with the buffer", i)
		}
	}
}

// TestStreamReadErrors: a reader's error is returned as it is once the values before it are
// used up, and stays; a reader that returns nothing gives io.ErrNoProgress.
func TestStreamReadErrors(t *testing.T) {
	boom := errors.New("boom")
	_, values := streamCBORRecords(t)
	in := append(append([]byte(nil), values[1]...), values[2][:5]...)
	d := NewCBORDecoder(io.MultiReader(bytes.NewReader(in), iotest.ErrReader(boom)))
	if _, err := d.Decode(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := d.Decode(); err != boom {
			t.Errorf("CBOR: %v, want the reader's error", err)
		}
	}
	j := NewJSONDecoder(io.MultiReader(strings.NewReader("1\n2\n{\"a\""), iotest.ErrReader(boom)))
	for _, want := range []any{int64(1), int64(2)} {
		if v, err := j.Decode(); err != nil || v != want {
			t.Errorf("JSON: %v, %v; want %v", v, err, want)
		}
	}
	for range 2 {
		if _, err := j.Decode(); err != boom {
			t.Errorf("JSON: %v, want the reader's error", err)
		}
	}
	if _, err := NewCBORDecoder(emptyReader{}).Decode(); err != io.ErrNoProgress {
		t.Errorf("CBOR, reader returning nothing: %v", err)
	}
	if _, err := NewJSONDecoder(emptyReader{}).Decode(); err != io.ErrNoProgress {
		t.Errorf("JSON, reader returning nothing: %v", err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// ndjsonLines returns the realistic records as compact JSON, one per line.
func ndjsonLines(t testing.TB) [][]byte {
	var lines [][]byte
	for _, r := range cborTestRecords(t) {
		j, err := CBORToJSON(r.cbor)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, j)
	}
	return lines
}

// TestJSONDecoderLines: lines end with "\n" or "\r\n", the last one's end is optional, blank
// lines are skipped, and every line reads as UnmarshalJSON reads it.
func TestJSONDecoderLines(t *testing.T) {
	lines := ndjsonLines(t)
	for _, layout := range []struct {
		name       string
		sep, blank string
		lastEnd    bool
	}{
		{"LF", "\n", "", true},
		{"LF, no end on the last line", "\n", "", false},
		{"CRLF", "\r\n", "", true},
		{"blank lines", "\n", " \t\r\n\n", true},
		{"blank lines, no end on the last line", "\n", "\n   \n", false},
	} {
		var in []byte
		in = append(in, layout.blank...)
		for i, l := range lines {
			in = append(in, " "...)
			in = append(in, l...)
			if i < len(lines)-1 || layout.lastEnd {
				in = append(in, layout.sep...)
			}
			if i < len(lines)-1 {
				in = append(in, layout.blank...)
			}
		}
		for _, rd := range streamReaders {
			vs, err := streamDecodeAll(NewJSONDecoder(rd.wrap(bytes.NewReader(in))))
			if err != io.EOF || len(vs) != len(lines) {
				t.Fatalf("%s: %s: %d values, %v", layout.name, rd.name, len(vs), err)
			}
			for i, l := range lines {
				if want, _ := UnmarshalJSON(l); !reflect.DeepEqual(vs[i], want) {
					t.Errorf("%s: %s: line %d differs", layout.name, rd.name, i)
				}
			}
		}
	}
	if _, err := NewJSONDecoder(strings.NewReader("\n \n")).Decode(); err != io.EOF {
		t.Errorf("blank stream: %v, want io.EOF", err)
	}
	// The last line, without "\n", read after the buffer's bytes were moved to its front (a
	// stale slice read "001" as 101; found by FuzzJSONDecoder).
	d := NewJSONDecoder(strings.NewReader("0\n001"))
	d.Decode()
	var e *Error
	if v, err := d.Decode(); !errors.Is(err, ErrSyntax) || !errors.As(err, &e) || e.Offset != 2 {
		t.Errorf("last line 001: %v, %v; want ErrSyntax at offset 2", v, err)
	}
}

// TestJSONDecoderErrors: an error is located in the stream, and the next line is read after it;
// a last line cut short is ErrTruncated and io.ErrUnexpectedEOF; a value spread over lines is
// an error on its first line.
func TestJSONDecoderErrors(t *testing.T) {
	in := "1\n{\"a\":1.5}\n2\n{\"a\":\n3\n[1,2"
	type step struct {
		v   any
		err error
		off int
	}
	want := []step{
		{int64(1), nil, 0},
		{nil, ErrFraction, 2 + len(`{"a":`)},
		{int64(2), nil, 0},
		{nil, ErrTruncated, 14 + len(`{"a":`)},
		{int64(3), nil, 0},
		{nil, ErrTruncated, 22 + len("[1,2")},
		{nil, io.EOF, 0},
	}
	for _, rd := range streamReaders {
		d := NewJSONDecoder(rd.wrap(strings.NewReader(in)))
		for i, w := range want {
			v, err := d.Decode()
			if w.err == nil {
				if err != nil || v != w.v {
					t.Errorf("%s: step %d: %v, %v; want %v", rd.name, i, v, err, w.v)
				}
				continue
			}
			if w.err == io.EOF {
				if err != io.EOF {
					t.Errorf("%s: step %d: %v, want io.EOF", rd.name, i, err)
				}
				continue
			}
			var e *Error
			if !errors.Is(err, w.err) || !errors.As(err, &e) || e.Offset != w.off {
				t.Errorf("%s: step %d: %v, want %v at offset %d", rd.name, i, err, w.err, w.off)
			}
			if w.err == ErrTruncated && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s: step %d: %v does not match io.ErrUnexpectedEOF", rd.name, i, err)
			}
		}
	}
}

// TestJSONDecoderTooLarge: a line over MaxJSONSize is ErrTooLarge at the limit, found without
// buffering more than MaxJSONSize+1 bytes, and the next line is read after it.
func TestJSONDecoderTooLarge(t *testing.T) {
	const limit = 100
	long := "[" + strings.Repeat("1,", 200) + "1]"
	in := &countingReader{r: strings.NewReader("1\n" + long + "\n2\n" + strings.Repeat(" ", limit) + "3")}
	d := NewJSONDecoder(iotest.HalfReader(in), WithLimits(Limits{MaxJSONSize: limit}))
	if v, err := d.Decode(); err != nil || v != int64(1) {
		t.Fatalf("%v, %v", v, err)
	}
	_, err := d.Decode()
	var e *Error
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &e) || e.Offset != 2+limit {
		t.Errorf("%v, want ErrTooLarge at offset %d", err, 2+limit)
	}
	if c := cap(d.in.buf); c > limit+1 {
		t.Errorf("buffer of %d bytes for a limit of %d", c, limit)
	}
	if off := d.InputOffset(); off != 2 { // the long line's end is not read yet (InputOffset's doc)
		t.Errorf("InputOffset after ErrTooLarge: %d, want 2", off)
	}
	if v, err := d.Decode(); err != nil || v != int64(2) {
		t.Errorf("after the long line: %v, %v; want 2", v, err)
	}
	if _, err := d.Decode(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a last line of %d bytes: %v, want ErrTooLarge", limit+1, err)
	}
	if _, err := d.Decode(); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}

	// A blank line: skipped up to the limit, ErrTooLarge past it (as UnmarshalJSON says of
	// those bytes), and the stream goes on after it.
	blank := strings.Repeat(" ", limit)
	d = NewJSONDecoder(strings.NewReader(blank+"\n"+blank+" \n4\n"), WithLimits(Limits{MaxJSONSize: limit}))
	if _, err := d.Decode(); !errors.Is(err, ErrTooLarge) || !errors.As(err, &e) || e.Offset != limit+1+limit {
		t.Errorf("a blank line of %d bytes: %v, want ErrTooLarge at offset %d", limit+1, err, limit+1+limit)
	}
	if _, err := UnmarshalJSON([]byte(blank+" "), WithLimits(Limits{MaxJSONSize: limit})); !errors.Is(err, ErrTooLarge) {
		t.Errorf("UnmarshalJSON of the same blank line: %v, want ErrTooLarge", err)
	}
	if v, err := d.Decode(); err != nil || v != int64(4) {
		t.Errorf("after the blank lines: %v, %v; want 4", v, err)
	}
}

// TestStreamSafeIntegers: the options reach the values of a stream.
func TestStreamSafeIntegers(t *testing.T) {
	cb, _ := MarshalCBOR(map[string]any{"n": int64(1 << 53)})
	in := append([]byte{0x01}, cb...)
	d := NewCBORDecoder(bytes.NewReader(in), WithSafeIntegers())
	d.Decode()
	var e *Error
	if _, err := d.Decode(); !errors.Is(err, ErrUnsafeInteger) || !errors.As(err, &e) || e.Offset != 1+3 || e.Path != "/n" {
		t.Errorf("CBOR: %v", err)
	}
	j := NewJSONDecoder(strings.NewReader("1\n{\"n\":9007199254740992}\n"), WithSafeIntegers())
	j.Decode()
	if _, err := j.Decode(); !errors.Is(err, ErrUnsafeInteger) || !errors.As(err, &e) || e.Offset != 2+5 || e.Path != "/n" {
		t.Errorf("JSON: %v", err)
	}
}

// TestCBORSkip: fed a value a byte more at a time, cborSkip asks for more until the last byte is
// there, and then finds the end exactly where the decoder does; it stops at heads no
// definite-length item has; forged lengths only make it ask for more.
func TestCBORSkip(t *testing.T) {
	_, values := streamCBORRecords(t)
	for i, v := range values {
		s := cborSkip{pending: 1}
		for n := 0; n < len(v); n++ {
			if r := s.advance(v[:n]); r != 0 {
				t.Fatalf("record %d: %d of %d bytes: %d, want 0", i, n, len(v), r)
			}
		}
		if r := s.advance(append(v[:len(v):len(v)], 0xff)); r != 1 || s.pos != len(v) {
			t.Errorf("record %d: %d at %d, want 1 at %d", i, r, s.pos, len(v))
		}
	}
	for _, tt := range []struct {
		hex  string
		want int
	}{
		{"9f 01 ff", -1},                    // indefinite-length array
		{"82 01 1c", -1},                    // reserved additional information
		{"9b ffffffffffffffff 00 00", 0},    // an array of 2^64−1 elements
		{"bb ffffffffffffffff 00", 0},       // a map of as many entries
		{"81 bb 8000000000000000 00 00", 0}, // pending saturates inside an array
		{"5b ffffffffffffffff 00", 0},       // a byte string longer than any input
		{"c1 01", 1},                        // any tag adds one item (the decoder refuses tag 1)
		{"f9 3c00", 1},                      // a float is skipped (and refused by the decoder)
	} {
		s := cborSkip{pending: 1}
		if r := s.advance(cborMustHex(tt.hex)); r != tt.want {
			t.Errorf("%s: %d, want %d", tt.hex, r, tt.want)
		}
	}
}
