package peers

import (
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"
	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/datamodel"
)

var (
	sinkAny   any
	sinkBytes []byte
)

// benchImpl runs f as the sub-benchmark impl=name, counting size bytes per operation, so that
// benchstat -col /impl sets the implementations side by side. b.Loop keeps f's results alive.
func benchImpl[T any](b *testing.B, name string, size int, f func() (T, error)) {
	b.Run("impl="+name, func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fxEnc is fxamacker/cbor with the one option that DAG-CBOR needs from an encoder: map keys
// sorted length-first. fxamacker is the plain-CBOR baseline: it checks much less than DAG-CBOR
// asks (see CONFORMANCE.md), so it bounds what a generic CBOR library costs.
var fxEnc = func() cbor.EncMode {
	em, err := cbor.EncOptions{Sort: cbor.SortLengthFirst}.EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

func BenchmarkCBORDecode(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.cbor
			benchImpl(b, "atcore", len(data), func() (any, error) { return datamodel.UnmarshalCBOR(data) })
			benchImpl(b, "indigo", len(data), func() (any, error) { return atdata.UnmarshalCBOR(data) })
			benchImpl(b, "ipld", len(data), func() (any, error) { return ipldDecode(data) })
			benchImpl(b, "fxamacker", len(data), func() (any, error) { return nil, cbor.Unmarshal(data, &sinkAny) })
		})
	}
}

func BenchmarkCBOREncode(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.cbor
			ours, err := datamodel.UnmarshalCBOR(data)
			if err != nil {
				b.Fatal(err)
			}
			theirs, err := atdata.UnmarshalCBOR(data)
			if err != nil {
				b.Fatal(err)
			}
			node, err := ipldDecode(data)
			if err != nil {
				b.Fatal(err)
			}
			var plain any
			if err := cbor.Unmarshal(data, &plain); err != nil {
				b.Fatal(err)
			}
			benchImpl(b, "atcore", len(data), func() ([]byte, error) { return datamodel.MarshalCBOR(ours) })
			benchImpl(b, "indigo", len(data), func() ([]byte, error) { return atdata.MarshalCBOR(theirs) })
			benchImpl(b, "ipld", len(data), func() ([]byte, error) { return ipldEncode(node) })
			benchImpl(b, "fxamacker", len(data), func() ([]byte, error) { return fxEnc.Marshal(plain) })
		})
	}
}

func BenchmarkCBORRoundTrip(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.cbor
			benchImpl(b, "atcore", len(data), func() ([]byte, error) {
				v, err := datamodel.UnmarshalCBOR(data)
				if err != nil {
					return nil, err
				}
				return datamodel.MarshalCBOR(v)
			})
			benchImpl(b, "indigo", len(data), func() ([]byte, error) {
				m, err := atdata.UnmarshalCBOR(data)
				if err != nil {
					return nil, err
				}
				return atdata.MarshalCBOR(m)
			})
			benchImpl(b, "ipld", len(data), func() ([]byte, error) {
				n, err := ipldDecode(data)
				if err != nil {
					return nil, err
				}
				return ipldEncode(n)
			})
			benchImpl(b, "fxamacker", len(data), func() ([]byte, error) {
				var v any
				if err := cbor.Unmarshal(data, &v); err != nil {
					return nil, err
				}
				return fxEnc.Marshal(v)
			})
		})
	}
}

// BenchmarkCBORScan measures validation without building values: atcore's ScanCBOR (every
// DAG-CBOR rule) against fxamacker's Wellformed (CBOR well-formedness only).
func BenchmarkCBORScan(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.cbor
			b.Run("impl=atcore", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if err := datamodel.ScanCBOR(data); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("impl=fxamacker", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if err := cbor.Wellformed(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
