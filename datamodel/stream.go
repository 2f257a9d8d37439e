package datamodel

import (
	"bytes"
	"io"
	"math"
	"strconv"
)

// Streams of values: a file of records, a dump of a collection, the frames of an event stream (a
// header value then a body value, back to back). CBORDecoder reads concatenated DAG-CBOR values,
// JSONDecoder newline-delimited JSON, one value at a time from an io.Reader, with the limits,
// checks and errors of UnmarshalCBORPrefix and UnmarshalJSON; error offsets count from the start
// of the stream. Memory is bounded by the largest value read (at most the size limit plus one
// byte), never by the stream.

// The read buffer starts at streamMinBuf bytes, so that a stream of one small value costs little
// to set up, and doubles when a value does not fit or when a read fills it (the reader has more
// ready: a file, or bytes in memory) up to streamReadBuf, so that small records cost one read
// per many of them.
const (
	streamMinBuf  = 1 << 10
	streamReadBuf = 64 << 10
)

// streamMaxEmptyReads is how many reads returning nothing in a row a stream tolerates before
// giving up with io.ErrNoProgress, as bufio does.
const streamMaxEmptyReads = 100

// streamBuf is the read buffer of both stream decoders: buf[start:] are the bytes read and not
// yet used, base is the stream offset of buf[0].
type streamBuf struct {
	r     io.Reader
	buf   []byte
	start int
	base  int
	eof   bool  // r has returned io.EOF
	err   error // r has returned another error; returned once the buffered bytes run out
	full  bool  // the last read filled the buffer
}

// unread returns the bytes read and not yet used.
func (s *streamBuf) unread() []byte { return s.buf[s.start:] }

// offset is the stream offset of the first unread byte.
func (s *streamBuf) offset() int { return s.base + s.start }

// fill reads more bytes after the unread ones, keeping at most limit+1 unread: it moves the
// unread bytes to the front, grows the buffer if they fill it (doubling, so that a large value
// costs a few reads and copies, not one per read) or if the last read filled it (see
// streamReadBuf), and calls Read once. It returns false if
// nothing more can come (end of stream, read error, or limit+1 bytes already unread).
func (s *streamBuf) fill(limit int) bool {
	if s.eof || s.err != nil || len(s.buf)-s.start > limit {
		return false
	}
	if s.start > 0 {
		n := copy(s.buf, s.buf[s.start:])
		s.base += s.start
		s.buf, s.start = s.buf[:n], 0
	}
	if len(s.buf) == cap(s.buf) || s.full && cap(s.buf) < streamReadBuf {
		// Grow only by what was actually read, never by a length the input declares (rule 14).
		c := max(2*cap(s.buf), streamMinBuf)
		if c > limit {
			c = limit + 1 // no overflow: limit is below c, a size in memory (not limit+1 first: MaxInt)
		}
		nb := make([]byte, len(s.buf), c)
		copy(nb, s.buf)
		s.buf = nb
	}
	for range streamMaxEmptyReads {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		s.full = len(s.buf) == cap(s.buf)
		switch {
		case err == io.EOF:
			s.eof = true
			return n > 0
		case err != nil:
			s.err = err
			return n > 0
		case n > 0:
			return true
		}
	}
	s.err = io.ErrNoProgress
	return false
}

// CBORDecoder reads a stream of DAG-CBOR values written back to back (no framing between them),
// one value per call to Decode. It is not safe for concurrent use.
type CBORDecoder struct {
	in   streamBuf
	lim  Limits
	skip cborSkip
	err  error // sticky: after an error the stream cannot be resynchronised
}

// NewCBORDecoder returns a decoder reading from r with the options of UnmarshalCBORPrefix. It
// buffers: it may read from r beyond the value it returns.
func NewCBORDecoder(r io.Reader, opts ...Option) *CBORDecoder {
	return &CBORDecoder{in: streamBuf{r: r}, lim: limitsOf(opts)}
}

// Decode reads the next value. Each value is decoded, and each error reported, exactly as
// UnmarshalCBORPrefix would on the rest of the stream, except that error offsets count from the
// start of the stream. At a clean end (no byte after the last value) it returns io.EOF. A stream
// that ends inside a value (a torn tail) gives an *Error matching ErrTruncated and
// io.ErrUnexpectedEOF at the offset of the item cut short. A value larger than MaxCBORSize is
// ErrTooLarge, found without buffering more than MaxCBORSize+1 bytes. An error from the reader
// is returned as it is, once the values read before it are used up. After any error, Decode
// returns the same error again: a CBOR stream cannot be resynchronised.
//
// The values never alias the decoder's buffer.
func (d *CBORDecoder) Decode() (any, error) {
	if d.err != nil {
		return nil, d.err
	}
	// The value is decoded once its end is buffered, found by skipping item heads (cborSkip,
	// linear however the bytes arrive), or, once cborSkip meets a head it does not follow, when
	// the bytes that the arrays and maps around that head declare are buffered (the decoder then
	// stops at that head; with fewer bytes it would stop earlier, at the count of a container
	// for want of bytes, and decoding again after every read cost the bytes before that
	// container once per read).
	d.skip = cborSkip{pending: 1}
	for {
		data := d.in.unread()
		if len(data) > 0 && (d.in.eof || len(data) > d.lim.MaxCBORSize || d.skip.ready(data)) {
			v, end, err := cborPrefix(data, d.lim)
			if err == nil {
				d.in.start += end
				return v, nil
			}
			// An error other than ErrTruncated is final: every check the decoder made before
			// it holds in a longer input too, so decoding the whole stream would stop there
			// with the same error. ErrTruncated is final only at the end of the stream.
			if err.Err != ErrTruncated || d.in.eof {
				return nil, d.fail(d.locate(err))
			}
			if d.in.err != nil {
				return nil, d.fail(d.in.err)
			}
		}
		if !d.in.fill(d.lim.MaxCBORSize) {
			switch {
			case d.in.err != nil:
				return nil, d.fail(d.in.err)
			case len(d.in.unread()) == 0:
				return nil, d.fail(io.EOF) // a clean end, between values
			}
			// The stream has ended (or holds more than the limit): the next turn decodes what
			// there is, for the value or the error.
		}
	}
}

// InputOffset returns the stream offset of the next value: the number of bytes the values
// returned so far took.
func (d *CBORDecoder) InputOffset() int { return d.in.offset() }

// cborSkip finds where the next value of a stream ends without checking it: a definite-length
// item is a head and its content, and a container or tag only adds items to read, so a count of
// pending items is all the state there is, and each head is read once however many reads the
// value takes to arrive. The decoder checks the value afterwards.
type cborSkip struct {
	pos     int    // offset, in the unread bytes, of the next head to read
	pending uint64 // items still to read before the value ends (saturating)
	// need is how many unread bytes the decoder's count checks ask for (cborContainer: a byte
	// per element of an array, two per entry of a map, after its head), over every array and
	// map head read so far (saturating): with fewer, the decoder cannot get past them to a head
	// that advance does not follow.
	need uint64
}

// ready reports whether the value in data is worth decoding: its end is buffered, or advance
// has met a head it does not follow and the containers read before it have their bytes.
func (s *cborSkip) ready(data []byte) bool {
	switch s.advance(data) {
	case 1:
		return true
	case -1:
		return uint64(len(data)) >= s.need
	}
	return false
}

// advance reads the heads in data from s.pos on. It returns 1 when the value ends at or before
// len(data), 0 when more bytes are needed, and -1 at a head no definite-length item has
// (reserved additional information, indefinite length), which the decoder reports.
func (s *cborSkip) advance(data []byte) int {
	for s.pending > 0 {
		if s.pos >= len(data) {
			return 0
		}
		ib := data[s.pos]
		p := s.pos + 1
		var arg uint64
		switch ai := ib & 31; {
		case ai < 24:
			arg = uint64(ai)
		case ai <= 27:
			n := 1 << (ai - 24)
			if len(data)-p < n {
				return 0
			}
			for _, c := range data[p : p+n] {
				arg = arg<<8 | uint64(c)
			}
			p += n
		default:
			return -1
		}
		items := uint64(0)
		switch ib >> 5 {
		case 2, 3:
			if arg > uint64(len(data)-p) {
				return 0 // the head is read again with more bytes: cheap
			}
			p += int(arg)
		case 4:
			items = arg
		case 5:
			items = min(arg, math.MaxUint64/2) * 2
		case 6:
			items = 1
		}
		if ib>>5 == 4 || ib>>5 == 5 {
			if items > math.MaxUint64/2-uint64(p) {
				s.need = math.MaxUint64 / 2
			} else {
				s.need = max(s.need, uint64(p)+items)
			}
		}
		// pending−1+items, saturating: a forged length costs nothing, as every item still
		// takes a byte that must arrive.
		s.pending--
		if items > math.MaxUint64/2-s.pending {
			s.pending = math.MaxUint64 / 2
		} else {
			s.pending += items
		}
		s.pos = p
	}
	return 1
}

// locate moves an error's offset from the unread bytes to the stream, and says for a value over
// the size limit only what is known: the stream was not read to its end.
func (d *CBORDecoder) locate(err *Error) *Error {
	if err.Offset >= 0 {
		err.Offset += d.in.offset()
	}
	if err.Err == ErrTooLarge {
		err.Detail = "more than " + strconv.Itoa(d.lim.MaxCBORSize) + " bytes, limit " + strconv.Itoa(d.lim.MaxCBORSize)
	}
	return err
}

func (d *CBORDecoder) fail(err error) error {
	d.err = err
	return err
}

// JSONDecoder reads newline-delimited JSON (NDJSON, JSON Lines): one atproto JSON value per line,
// lines ended by "\n" (a "\r" before it is whitespace), the last line's end optional. Lines that
// hold only whitespace are skipped (within the size limit: see Decode). A value must fit on its
// line: pretty-printed JSON spread over lines is not a stream of values. It is not safe for
// concurrent use.
type JSONDecoder struct {
	in      streamBuf
	lim     Limits
	scanned int  // unread bytes known to hold no "\n"
	discard bool // skipping the rest of a line over the size limit
}

// NewJSONDecoder returns a decoder reading from r with the options of UnmarshalJSON; a line
// (without its "\n") may hold up to MaxJSONSize bytes. It buffers: it may read from r beyond
// the line it returns.
func NewJSONDecoder(r io.Reader, opts ...Option) *JSONDecoder {
	return &JSONDecoder{in: streamBuf{r: r}, lim: limitsOf(opts)}
}

// Decode reads the value on the next non-blank line, exactly as UnmarshalJSON reads the line,
// except that error offsets count from the start of the stream. At the end of the stream it
// returns io.EOF; a last line that ends inside its value gives an *Error matching ErrTruncated and
// io.ErrUnexpectedEOF. A line longer than MaxJSONSize is ErrTooLarge, found without buffering
// more than MaxJSONSize+1 bytes; so is a blank one, as UnmarshalJSON says of those bytes (a
// stream is not read past the limit to learn whether the line is blank). An error in a line does not stop the stream: the next call reads
// the next line. An error from the reader is returned as it is, once the lines read before it
// are used up, and then again on every call.
//
// The values never alias the decoder's buffer.
func (d *JSONDecoder) Decode() (any, error) {
	for {
		data := d.in.unread()
		nl := bytes.IndexByte(data[d.scanned:], '\n')
		if nl >= 0 {
			nl += d.scanned
		} else {
			d.scanned = len(data) // not searched again after the next read
		}
		if d.discard {
			if nl < 0 {
				d.in.start, d.scanned = len(d.in.buf), 0
				if !d.in.fill(d.lim.MaxJSONSize) {
					return nil, d.endError()
				}
				continue
			}
			d.in.start, d.scanned, d.discard = d.in.start+nl+1, 0, false
			continue
		}
		if nl < 0 && len(data) <= d.lim.MaxJSONSize {
			if d.in.fill(d.lim.MaxJSONSize) {
				continue // the end of the line may be still to come
			}
			data = d.in.unread() // fill may have moved the bytes even when none came
		}
		line := data
		if nl >= 0 {
			line = data[:nl]
		}
		off := d.in.offset()
		if len(line) > d.lim.MaxJSONSize {
			d.discard = true
			return nil, &Error{Err: ErrTooLarge, Offset: off + d.lim.MaxJSONSize,
				Detail: "a line of more than " + strconv.Itoa(d.lim.MaxJSONSize) + " bytes, limit " + strconv.Itoa(d.lim.MaxJSONSize)}
		}
		if nl < 0 {
			if d.in.err != nil || len(line) == 0 {
				return nil, d.endError() // the reader failed inside the line, or the stream ended
			}
			d.in.start += len(line) // the last line, without "\n"
		} else {
			d.in.start += nl + 1
		}
		d.scanned = 0
		if jsonBlank(line) {
			continue
		}
		v, err := unmarshalJSON(line, d.lim, false)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Offset >= 0 {
				e.Offset += off
			}
			return nil, err
		}
		return v, nil
	}
}

// InputOffset returns the stream offset of the next line to read. Right after an ErrTooLarge it
// is the offset of the line over the limit, whose end Decode has not read yet: the next call
// skips the rest of that line.
func (d *JSONDecoder) InputOffset() int { return d.in.offset() }

func (d *JSONDecoder) endError() error {
	if d.in.err != nil {
		return d.in.err
	}
	return io.EOF
}

// jsonBlank reports whether line holds only JSON whitespace (RFC 8259: space, tab, CR; LF ends
// the line).
func jsonBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
