package datamodel

import (
	"bytes"
	"errors"
	"runtime"
	"testing"
	"testing/iotest"
)

// TestReviewCBORDecoderSlowStreamLinear: a value whose bytes arrive a few at a time, with a head
// the stream's skip does not follow (reserved additional information 28) inside an array whose
// declared count is still to arrive, is decoded once its bytes are there, not after every read:
// each decode copied the 64 KiB byte string before the array, once per one-byte read (256 MB
// for this 70 KB input), work that grew as the size of the value times its length.
func TestReviewCBORDecoderSlowStreamLinear(t *testing.T) {
	const pre, n = 64 << 10, 4096
	var b []byte
	b = append(b, 0x82, 0x5a, 0, pre>>16, pre>>8&0xff, pre&0xff) // [bytes of 64 KiB, ...
	b = append(b, make([]byte, pre)...)
	b = append(b, 0x99, n>>8, n&0xff, 0x1c) // [an array of 4096, its first head reserved]
	b = append(b, make([]byte, n-1)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := NewCBORDecoder(iotest.OneByteReader(bytes.NewReader(b))).Decode()
	runtime.ReadMemStats(&after)
	var e *Error
	if !errors.As(err, &e) || e.Err != ErrSyntax || e.Offset != 6+pre+3 || e.Path != "/1/0" {
		t.Fatalf("Decode: %v, want ErrSyntax at /1/0, offset %d", err, 6+pre+3)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32*uint64(len(b)) {
		t.Errorf("Decode allocated %d bytes for a %d-byte stream read a byte at a time", alloc, len(b))
	}
}
