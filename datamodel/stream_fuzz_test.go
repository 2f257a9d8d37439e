package datamodel

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"
)

// streamFuzzMax is the most of a fuzz input the stream targets read: longer inputs, read a byte
// at a time and minimized, only slow the fuzzer down (TestCBORDecoderRecords and
// TestJSONDecoderLines read long streams).
const streamFuzzMax = 8 << 10

// streamFuzzOpts are the options a fuzz input's first byte picks: the defaults, or size limits
// small enough for the inputs to reach them.
func streamFuzzOpts(sel byte) []Option {
	if sel&4 == 0 {
		return nil
	}
	return []Option{WithLimits(Limits{MaxCBORSize: 64, MaxJSONSize: 64})}
}

// FuzzCBORDecoder: the stream decoder never panics, and gives the values and the error a loop of
// UnmarshalCBORPrefix gives on the same bytes in memory (offsets from the start), however the
// bytes arrive (the first byte picks the reader and the limits).
func FuzzCBORDecoder(f *testing.F) {
	stream, values := streamCBORRecords(f)
	f.Add(append([]byte{0}, stream[:streamFuzzMax]...))
	for i, v := range values {
		v = v[:min(len(v), streamFuzzMax)]
		f.Add(append([]byte{byte(i)}, v...))
		f.Add(append([]byte{byte(i)}, v[:len(v)/2]...))
	}
	for _, row := range cborInvalidTable() {
		f.Add(append([]byte{5}, cborMustHex(row.hex)...))
	}
	f.Add([]byte{4, 0x01, 0x58, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		sel, in := data[0], data[1:]
		in = in[:min(len(in), streamFuzzMax)]
		opts := streamFuzzOpts(sel)
		wantVs, wantErr := prefixDecodeAll(in, opts...)
		rd := streamReaders[int(sel)%len(streamReaders)]
		d := NewCBORDecoder(rd.wrap(bytes.NewReader(in)), opts...)
		vs, err := streamDecodeAll(d)
		if !reflect.DeepEqual(vs, wantVs) {
			t.Fatalf("%s: %d values, want %d", rd.name, len(vs), len(wantVs))
		}
		if !sameStreamError(err, wantErr) {
			t.Fatalf("%s: %v, want %v", rd.name, err, wantErr)
		}
		if errors.Is(err, ErrTruncated) != errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("%v: ErrTruncated and io.ErrUnexpectedEOF disagree", err)
		}
		if c := cap(d.in.buf); c > max(streamReadBuf, 4*len(in))+1 && c > limitsOf(opts).MaxCBORSize+1 {
			t.Fatalf("a buffer of %d bytes for %d bytes of input", c, len(in))
		}
	})
}

// FuzzJSONDecoder: the NDJSON decoder never panics, and gives for each line that is not blank
// within the size limit what UnmarshalJSON gives on that line (offsets from the start of the stream), however the bytes
// arrive, then io.EOF.
func FuzzJSONDecoder(f *testing.F) {
	lines := ndjsonLines(f)
	f.Add(append([]byte{0}, bytes.Join(lines[:4], []byte("\n"))...))
	f.Add(append([]byte{5}, bytes.Join(lines[:3], []byte("\r\n\n"))...))
	for _, s := range []string{"1\n2\n", "{\"a\":1.5}\n[1,\n2]", " \n\t\n", "\"abc", "[1,2,3]\n" + "{\"k\":\"" + string(bytes.Repeat([]byte("v"), 80)) + "\"}\n4"} {
		f.Add(append([]byte{4}, s...))
		f.Add(append([]byte{1}, s...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		sel, in := data[0], data[1:]
		in = in[:min(len(in), streamFuzzMax)]
		opts := streamFuzzOpts(sel)
		rd := streamReaders[int(sel)%len(streamReaders)]
		d := NewJSONDecoder(rd.wrap(bytes.NewReader(in)), opts...)
		off := 0
		for _, line := range bytes.Split(in, []byte("\n")) {
			lineOff := off
			off += len(line) + 1
			if jsonBlank(line) && len(line) <= limitsOf(opts).MaxJSONSize {
				continue // a blank line over the limit is ErrTooLarge, as UnmarshalJSON says
			}
			want, wantErr := UnmarshalJSON(line, opts...)
			if e, ok := wantErr.(*Error); ok && e.Offset >= 0 {
				e.Offset += lineOff
			}
			v, err := d.Decode()
			if (err == nil) != (wantErr == nil) || err != nil && !sameStreamError(err, wantErr) {
				t.Fatalf("%s: line at %d: %v, want %v", rd.name, lineOff, err, wantErr)
			}
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("%s: line at %d: %#v, want %#v", rd.name, lineOff, v, want)
			}
		}
		if _, err := d.Decode(); err != io.EOF {
			t.Fatalf("%s: at the end: %v", rd.name, err)
		}
	})
}
