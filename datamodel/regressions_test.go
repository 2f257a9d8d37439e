package datamodel

import (
	"bytes"
	"errors"
	"runtime"
	"testing"
	"testing/iotest"
)

// slowStreamCBOR is TestCBORDecoderSlowStreamLinear's input: an array of a 64 KiB byte string
// and an array of 4096 whose first head has the reserved additional information 28.
func slowStreamCBOR() []byte {
	const pre, n = 64 << 10, 4096
	var b []byte
	b = append(b, 0x82, 0x5a, 0, pre>>16, pre>>8&0xff, pre&0xff) // [bytes of 64 KiB, ...
	b = append(b, make([]byte, pre)...)
	b = append(b, 0x99, n>>8, n&0xff, 0x1c) // [an array of 4096, its first head reserved]
	return append(b, make([]byte, n-1)...)
}

// TestCBORDecoderSlowStreamLinear: a value whose bytes arrive a few at a time, with a head
// the stream's skip does not follow (reserved additional information 28) inside an array whose
// declared count is still to arrive, is decoded once its bytes are there, not after every read:
// each decode copied the 64 KiB byte string before the array, once per one-byte read (256 MB
// for this 70 KB input), work that grew as the size of the value times its length.
func TestCBORDecoderSlowStreamLinear(t *testing.T) {
	const pre = 64 << 10
	b := slowStreamCBOR()
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

// TestJSONTooDeepAtTheObject: a map or blob one level beyond MaxDepth is refused where it
// starts, at its own path, as UnmarshalCBOR and Validate refuse it, and not at a member's value
// one level further down: a blob counts as one level and the $link object of its "ref" as none
// (UnmarshalJSON's doc), so the too-deep value is the blob, not its ref.
func TestJSONTooDeepAtTheObject(t *testing.T) {
	const link = `{"$link":"bafkreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`
	opt := WithLimits(Limits{MaxDepth: 1})
	for _, in := range []string{
		`{"a":{"$type":"blob","ref":` + link + `,"mimeType":"a","size":1}}`,
		`{"a":{"mimeType":"a","size":1,"$type":"blob","ref":` + link + `}}`,
		`{"a":{"b":{}}}`,
		`{"a":{"b":[1]}}`,
		`{"a":{"b":` + link + `}}`,
	} {
		v, err := UnmarshalJSON([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		cb, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		for name, err := range map[string]error{
			"UnmarshalJSON":         func() error { _, err := UnmarshalJSON([]byte(in), opt); return err }(),
			"UnmarshalJSON careful": func() error { _, err := unmarshalJSON([]byte(in), newConfig([]Option{opt}).limits, true); return err }(),
			"UnmarshalCBOR":         func() error { _, err := UnmarshalCBOR(cb, opt); return err }(),
			"Validate":              Validate(v, opt),
		} {
			var e *Error
			if !errors.As(err, &e) || e.Err != ErrTooDeep || e.Path != "/a" {
				t.Errorf("%s: %s: %v, want ErrTooDeep at /a", in, name, err)
				continue
			}
			if name != "Validate" && name != "UnmarshalCBOR" && e.Offset != 5 {
				t.Errorf("%s: %s: offset %d, want 5 (the object's '{')", in, name, e.Offset)
			}
		}
	}
}

// TestNilOption: a nil Option is ignored, as the Option doc says, by every entry point, rather
// than called (a panic); it used to be.
func TestNilOption(t *testing.T) {
	js := []byte(`{"a":[1,"x"]}`)
	v, err := UnmarshalJSON(js, nil)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := MarshalCBOR(v, nil, WithSafeIntegers(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalCBOR(cb, nil); err != nil {
		t.Error(err)
	}
	if err := ScanCBOR(cb, nil); err != nil {
		t.Error(err)
	}
	if err := Validate(v, nil); err != nil {
		t.Error(err)
	}
	if _, err := MarshalJSON(v, nil); err != nil {
		t.Error(err)
	}
	var s struct {
		A []any `cbor:"a"`
	}
	if err := UnmarshalCBORStruct(cb, &s, nil); err != nil || len(s.A) != 2 {
		t.Errorf("UnmarshalCBORStruct: %v, %v", s, err)
	}
	if err := UnmarshalJSONStruct(js, &s, nil); err != nil || len(s.A) != 2 {
		t.Errorf("UnmarshalJSONStruct: %v, %v", s, err)
	}
	// The option next to a nil one still applies.
	if _, err := UnmarshalJSON(js, nil, WithLimits(Limits{MaxElements: 1})); !errors.Is(err, ErrTooManyElements) {
		t.Errorf("WithLimits after nil: %v", err)
	}
}

// TestErrorWithoutSentinel: an Error built without its Err still has a message (Error used to
// panic).
func TestErrorWithoutSentinel(t *testing.T) {
	e := &Error{Offset: 3, Detail: "d", Path: "/a"}
	if got, want := e.Error(), `datamodel: error (d) at "/a" at offset 3`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if errors.Unwrap(e) != nil {
		t.Errorf("Unwrap: %v", errors.Unwrap(e))
	}
}
