package datamodel

import (
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// The fxamacker baselines use options as close to DAG-CBOR as fxamacker allows: maps into
// map[string]any, duplicate keys, indefinite lengths, invalid UTF-8, NaN, infinities and
// undefined refused, integers as int64, the default nesting and element limits. fxamacker still
// accepts unsorted keys, non-minimal heads, floats, other tags and trailing bytes (it cannot be
// told not to), so the comparison flatters it.
var cborBenchFxDec, cborBenchFxEnc = func() (cbor.DecMode, cbor.EncMode) {
	simple, err := cbor.NewSimpleValueRegistryFromDefaults(cbor.WithRejectedSimpleValue(cbor.SimpleValue(23)))
	if err != nil {
		panic(err)
	}
	dm, err := cbor.DecOptions{
		DupMapKey:       cbor.DupMapKeyEnforcedAPF,
		IndefLength:     cbor.IndefLengthForbidden,
		IntDec:          cbor.IntDecConvertSignedOrFail,
		DefaultMapType:  reflect.TypeOf(map[string]any(nil)),
		UTF8:            cbor.UTF8RejectInvalid,
		NaN:             cbor.NaNDecodeForbidden,
		Inf:             cbor.InfDecodeForbidden,
		SimpleValues:    simple,
		MaxNestedLevels: DefaultMaxDepth + 1, // fxamacker counts the tag around a link as a level
	}.DecMode()
	if err != nil {
		panic(err)
	}
	em, err := cbor.EncOptions{
		Sort:        cbor.SortLengthFirst,
		IndefLength: cbor.IndefLengthForbidden,
	}.EncMode()
	if err != nil {
		panic(err)
	}
	return dm, em
}()

// BenchmarkScanCBOR measures the strict scanner on the realistic records.
func BenchmarkScanCBOR(b *testing.B) {
	for _, r := range cborTestRecords(b) {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(r.cbor)))
			for b.Loop() {
				if err := ScanCBOR(r.cbor); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUnmarshalCBOR compares the generic decoder with fxamacker decoding into any.
func BenchmarkUnmarshalCBOR(b *testing.B) {
	for _, r := range cborTestRecords(b) {
		b.Run(r.name+"/atcore", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(r.cbor)))
			for b.Loop() {
				if _, err := UnmarshalCBOR(r.cbor); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(r.name+"/fxamacker", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(r.cbor)))
			for b.Loop() {
				var v any
				if err := cborBenchFxDec.Unmarshal(r.cbor, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMarshalCBOR compares the generic encoder with fxamacker encoding the same tree. The
// fxamacker tree is the one fxamacker decodes (links as cbor.Tag), so both produce the same bytes.
func BenchmarkMarshalCBOR(b *testing.B) {
	for _, r := range cborTestRecords(b) {
		v, err := UnmarshalCBOR(r.cbor)
		if err != nil {
			b.Fatal(err)
		}
		var fv any
		if err := cborBenchFxDec.Unmarshal(r.cbor, &fv); err != nil {
			b.Fatal(err)
		}
		b.Run(r.name+"/atcore", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(r.cbor)))
			for b.Loop() {
				if _, err := MarshalCBOR(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(r.name+"/fxamacker", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(r.cbor)))
			for b.Loop() {
				if _, err := cborBenchFxEnc.Marshal(fv); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCBORBenchBaselineAgrees checks that the benchmark compares like with like: fxamacker decodes
// every record, and re-encodes its tree to the same bytes.
func TestCBORBenchBaselineAgrees(t *testing.T) {
	for _, r := range cborTestRecords(t) {
		var fv any
		if err := cborBenchFxDec.Unmarshal(r.cbor, &fv); err != nil {
			t.Fatalf("%s: fxamacker decode: %v", r.name, err)
		}
		out, err := cborBenchFxEnc.Marshal(fv)
		if err != nil {
			t.Fatalf("%s: fxamacker encode: %v", r.name, err)
		}
		if string(out) != string(r.cbor) {
			t.Errorf("%s: fxamacker re-encodes to different bytes", r.name)
		}
	}
}

// BenchmarkCBORStruct measures the typed path on the post record, decode and encode, beside the
// fxamacker-based path it replaced.
func BenchmarkCBORStruct(b *testing.B) {
	var data []byte
	for _, r := range cborTestRecords(b) {
		if r.name == "post" {
			data = r.cbor
		}
	}
	var post cborTestPost
	if err := UnmarshalCBORStruct(data, &post); err != nil {
		b.Fatal(err)
	}
	b.Run("post/decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var p cborTestPost
			if err := UnmarshalCBORStruct(data, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The decoder as it was before the typed codec (cbor_struct_ref_test.go): scan, then
	// fxamacker. The ratio post/decode : post/decode-fxamacker is issue 15's "before/after".
	b.Run("post/decode-fxamacker", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var p cborTestPost
			if err := unmarshalCBORStructRef(data, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("post/encode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := MarshalCBORStruct(&post); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The encoder as it was before the typed codec (cbor_struct_ref_test.go): the depth walk,
	// fxamacker, and the scan of its output with the data-model rules.
	b.Run("post/encode-fxamacker", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := marshalCBORStructRef(&post); err != nil {
				b.Fatal(err)
			}
		}
	})
}
