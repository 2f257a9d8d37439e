package datamodel

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// cborFuzzOracle is fxamacker with its defaults, except that maps decode into map[string]any and
// the nesting limit is higher than ours (fxamacker counts the tag of a link as a level): every
// value the scanner accepts must be well-formed CBOR that it decodes too.
var cborFuzzOracle = func() cbor.DecMode {
	dm, err := cbor.DecOptions{
		MaxNestedLevels: 2 * DefaultMaxDepth,
		DefaultMapType:  reflect.TypeOf(map[string]any(nil)),
	}.DecMode()
	if err != nil {
		panic(err)
	}
	return dm
}()

// cborFuzzSeeds adds the fixtures, the records and both test tables to the corpus.
func cborFuzzSeeds(f *testing.F) {
	for _, fx := range interopCases(f, "data-model-fixtures.json") {
		f.Add(fx.cbor(f))
	}
	for _, r := range cborTestRecords(f) {
		f.Add(r.cbor)
	}
	for _, row := range cborInvalidTable() {
		f.Add(cborMustHex(row.hex))
	}
	for _, h := range []string{"a0", "80", "f6", "00", "3b7fffffffffffffff", "a1 652474797065 60",
		"a2 63636964 6161 686d696d6554797065 6161", "a1 65246c696e6b 6161", "a1 66246279746573 40",
		"a1 65246c696e6c 6161"} {
		f.Add(cborMustHex(h))
	}
}

// cborDataModelError reports whether err breaks only a data-model rule the scanner, a pure
// syntax check, leaves to the decoder: a "$link" or "$bytes" key (rule 10), "$type" (rule 11),
// blobs (rule 13).
func cborDataModelError(err error) bool {
	return errors.Is(err, ErrLink) || errors.Is(err, ErrBytes) || errors.Is(err, ErrType) || errors.Is(err, ErrBlob)
}

// FuzzScanCBOR: the scanner never panics; whatever it accepts decodes (or breaks only a
// data-model rule: 10, 11 or 13), re-encodes to identical bytes, and is decoded by fxamacker too;
// whatever it rejects, the decoder rejects for the same reason at the same offset (or for a
// data-model rule earlier).
func FuzzScanCBOR(f *testing.F) {
	cborFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		scanErr := ScanCBOR(data)
		v, decErr := UnmarshalCBOR(data)
		if scanErr != nil {
			var se, de *Error
			if !errors.As(scanErr, &se) {
				t.Fatalf("ScanCBOR error %T is not *Error", scanErr)
			}
			switch {
			case decErr == nil:
				t.Fatalf("ScanCBOR rejects (%v), UnmarshalCBOR accepts", scanErr)
			case cborDataModelError(decErr):
			case !errors.As(decErr, &de) || de.Err != se.Err || de.Offset != se.Offset || de.Path != se.Path:
				t.Fatalf("ScanCBOR: %v\nUnmarshalCBOR: %v", scanErr, decErr)
			}
			return
		}
		if decErr != nil {
			if !cborDataModelError(decErr) {
				t.Fatalf("ScanCBOR accepts, UnmarshalCBOR: %v", decErr)
			}
			return
		}
		out, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("MarshalCBOR of a decoded value: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("round trip:\n in %x\nout %x", data, out)
		}
		var fv any
		if err := cborFuzzOracle.Unmarshal(data, &fv); err != nil {
			t.Fatalf("fxamacker rejects what ScanCBOR accepts: %v", err)
		}
	})
}

// FuzzUnmarshalCBOR: the decoder never panics; what it decodes re-encodes to the same bytes,
// passes the scanner and Validate, and decodes the same way as a prefix.
func FuzzUnmarshalCBOR(f *testing.F) {
	cborFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := UnmarshalCBOR(data)
		pv, rest, perr := UnmarshalCBORPrefix(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if perr == nil && len(rest) == 0 {
				t.Fatalf("UnmarshalCBORPrefix accepts all of the input, UnmarshalCBOR: %v", err)
			}
			return
		}
		if perr != nil || len(rest) != 0 || !reflect.DeepEqual(pv, v) {
			t.Fatalf("UnmarshalCBORPrefix disagrees: rest %x, %v", rest, perr)
		}
		if err := ScanCBOR(data); err != nil {
			t.Fatalf("decoded, but ScanCBOR: %v", err)
		}
		if err := Validate(v); err != nil {
			t.Fatalf("decoded, but Validate: %v", err)
		}
		out, err := MarshalCBOR(v)
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("round trip: %x, %v", out, err)
		}
	})
}

// FuzzUnmarshalCBORStruct: the typed path never panics, accepts only what the scanner accepts,
// and what it decodes encodes back to canonical DAG-CBOR that both decoders read (unless a
// required Link, Blob or $type field was missing); decoded into any or map[string]any, which hold the generic types (Link, Bytes,
// int64...), it encodes back to the very same bytes.
func FuzzUnmarshalCBORStruct(f *testing.F) {
	cborFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		targets := []any{new(cborTestPost), new(cborTestProfile), new(cborTestLinks), new(cborTestCommit), new(map[string]any), new(any)}
		for _, v := range targets {
			if err := UnmarshalCBORStruct(data, v); err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("%T: error %T is not *Error: %v", v, err, err)
				}
				continue
			}
			if err := ScanCBOR(data); err != nil {
				t.Fatalf("%T: decoded, but ScanCBOR: %v", v, err)
			}
			// Under DisallowUnknownFields the only new error is an unknown key, always located:
			// the offset of a key's head, the path of its member.
			strict := reflect.New(reflect.TypeOf(v).Elem()).Interface()
			if err := UnmarshalCBORStruct(data, strict, DisallowUnknownFields()); err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("%T: DisallowUnknownFields: error %T is not *Error: %v", v, err, err)
				}
				if e.Err != ErrGoType || e.Offset < 0 || e.Offset >= len(data) ||
					data[e.Offset]>>5 != 3 || e.Path == "" || !strings.Contains(e.Detail, "for the key") {
					t.Fatalf("%T: DisallowUnknownFields: %v (offset %d, path %q), want a located unknown key", v, err, e.Offset, e.Path)
				}
			}
			out, err := MarshalCBORStruct(v)
			switch v.(type) {
			case *any, *map[string]any:
				if err != nil || !bytes.Equal(out, data) {
					t.Fatalf("%T: round trip: %x, %v", v, out, err)
				}
				continue
			}
			if err != nil {
				// A Link, Blob or $type field absent from the input stays zero, which cannot be
				// encoded (rules 11-13).
				if errors.Is(err, ErrInvalidCID) || errors.Is(err, ErrBlob) || errors.Is(err, ErrType) {
					continue
				}
				t.Fatalf("%T: decoded, but MarshalCBORStruct: %v", v, err)
			}
			if err := ScanCBOR(out); err != nil {
				t.Fatalf("%T: MarshalCBORStruct output not canonical: %v", v, err)
			}
			// What the struct encoder writes, both decoders read.
			if _, err := UnmarshalCBOR(out); err != nil {
				t.Fatalf("%T: MarshalCBORStruct wrote %x, UnmarshalCBOR: %v", v, out, err)
			}
			if err := UnmarshalCBORStruct(out, reflect.New(reflect.TypeOf(v).Elem()).Interface()); err != nil {
				t.Fatalf("%T: MarshalCBORStruct wrote %x, UnmarshalCBORStruct: %v", v, out, err)
			}
		}
	})
}
