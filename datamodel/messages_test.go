package datamodel

import (
	"errors"
	"strings"
	"testing"
)

// TestMessagesNameDataModelKinds: error details name what was found in the data model's terms,
// and a Go type only where the Go side is at fault, with the form the package wants instead.
func TestMessagesNameDataModelKinds(t *testing.T) {
	type small struct {
		A int64    `cbor:"a"`
		L []string `cbor:"l"`
	}
	structErr := func(h string, opts ...Option) error {
		var s small
		return UnmarshalCBORStruct(cborMustHex(h), &s, opts...)
	}
	tests := []struct {
		rule   string
		err    error
		is     error
		detail string
	}{
		{"struct path: a string for an int64 field", structErr("a1 6161 6161"), ErrGoType, "found a string for Go field datamodel.small.A of type int64"},
		{"struct path: an array for an int64 field", structErr("a1 6161 80"), ErrGoType, "found an array for Go field datamodel.small.A of type int64"},
		{"struct path: an integer for a string", structErr("a1 616c 81 01"), ErrGoType, "found an integer for a Go string in field datamodel.small.L of type []string"},
		{"struct path: an object for a slice", structErr("a1 616c a0"), ErrGoType, "found an object for Go field datamodel.small.L of type []string"},
		{"struct path: a key with no field (DisallowUnknownFields)", structErr("a2 6161 01 6162 02", DisallowUnknownFields()), ErrGoType, `no field of Go type datamodel.small for the key "b"`},
		{"struct path: a Go type with no CBOR form", func() error { _, err := MarshalCBORStruct(make(chan int)); return err }(), ErrUnsupported, "a Go chan int has no data-model form"},
		{"a Go slice is a data-model array", ValidateRecord([]string{"a"}), ErrNotRecord, "found an array"},
		{"a Go map with keys other than strings", Validate(map[string]any{"m": map[int]string{}}), ErrKeyNotString, "a Go map[int]string: map keys are strings in the data model"},
		{"a Go type outside the data model in a tree", func() error { _, err := MarshalJSON([]any{make(chan int)}); return err }(), ErrUnsupported, "a Go chan int has no data-model form"},
		{"$type of a Go type", Validate(map[string]any{"$type": []string{"x"}}), ErrType, "want a non-empty string, found an array"},
		{"data-model kinds need no Go type", Validate(map[string]any{"$type": []any{"x"}}), ErrType, "want a non-empty string, found an array"},
		{"a union member whose $type is not its Go type's", func() error {
			_, err := regTestRegistry(t).Union(&cborTestEmbedImage{Type: "app.bsky.embed.external"})
			return err
		}(), ErrType, `a union member of Go type *datamodel.cborTestEmbedImage has $type "app.bsky.embed.external", but its type is registered as "app.bsky.embed.images"`},
	}
	for _, tt := range tests {
		var e *Error
		if !errors.Is(tt.err, tt.is) || !errors.As(tt.err, &e) || e.Detail != tt.detail {
			t.Errorf("%s: %v, want %v with detail %q", tt.rule, tt.err, tt.is, tt.detail)
		}
		if strings.Contains(tt.err.Error(), "cbor:") || strings.Contains(tt.err.Error(), "interface {}") {
			t.Errorf("%s: %q names the CBOR library or interface {}", tt.rule, tt.err)
		}
	}
}

// TestDetailCounts: a detail that counts says "1 byte", not "1 bytes".
func TestDetailCounts(t *testing.T) {
	for _, tc := range []struct {
		in     []byte
		detail string
	}{
		{[]byte{0x01, 0x02}, "1 byte"},
		{[]byte{0x01, 0x02, 0x03}, "2 bytes"},
		{[]byte{0x41}, "byte string of 1 byte"},
		{[]byte{0x81}, "array of 1 element"},
		{[]byte{0x82, 0x01}, "array of 2 elements"},
	} {
		_, err := UnmarshalCBOR(tc.in)
		var e *Error
		if !errors.As(err, &e) || e.Detail != tc.detail {
			t.Errorf("% x: %v, want the detail %q", tc.in, err, tc.detail)
		}
		if serr := ScanCBOR(tc.in); !errors.As(serr, &e) || e.Detail != tc.detail {
			t.Errorf("ScanCBOR(% x): %v, want the detail %q", tc.in, serr, tc.detail)
		}
	}
}

// TestErrorPathBounded: a huge key makes a long Path, which the message quotes by its ends (the
// Path field keeps it whole), so that an error stays fit for a log line.
func TestErrorPathBounded(t *testing.T) {
	key := strings.Repeat("k", DefaultMaxKeyLen)
	_, err := UnmarshalJSON([]byte(`{"` + key + `": {"a": 1.5}}`))
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrFraction) || e.Path != "/"+key+"/a" {
		t.Fatalf("%.200v", err)
	}
	if msg := err.Error(); len(msg) > 512 || !strings.Contains(msg, "kkk…kkk") || !strings.Contains(msg, `kkk/a" (8195 bytes) at offset`) {
		t.Errorf("%d bytes of message: %.600s", len(msg), msg)
	}
}
