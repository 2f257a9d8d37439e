package peers

import (
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"
	"github.com/fxamacker/cbor/v2"
	ipld "github.com/ipld/go-ipld-prime/datamodel"

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

// The CBOR benchmarks run every input of benchRecords: the records of testdata/records and the
// generated inputs of issue 16. An operation decodes (or encodes) every record of an input: one,
// or 10 000 for the stream.

// cborAny is fxamacker/cbor's decode into any.
func cborAny(data []byte) (any, error) {
	var v any
	err := cbor.Unmarshal(data, &v)
	return v, err
}

func BenchmarkCBORDecode(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ps, n := rec.parts, len(rec.parts)
			benchParts(b, "atcore", rec.size, n, func(i int) (any, error) { return datamodel.UnmarshalCBOR(ps[i].CBOR) })
			benchParts(b, "indigo", rec.size, n, func(i int) (map[string]any, error) { return atdata.UnmarshalCBOR(ps[i].CBOR) })
			benchParts(b, "ipld", rec.size, n, func(i int) (ipld.Node, error) { return ipldDecode(ps[i].CBOR) })
			benchParts(b, "fxamacker", rec.size, n, func(i int) (any, error) { return nil, cbor.Unmarshal(ps[i].CBOR, &sinkAny) })
		})
	}
}

func BenchmarkCBOREncode(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			n := len(rec.parts)
			ours := decodeParts(b, rec.parts, false, atcoreCBOR)
			theirs := decodeParts(b, rec.parts, false, atdata.UnmarshalCBOR)
			nodes := decodeParts(b, rec.parts, false, ipldDecode)
			plain := decodeParts(b, rec.parts, false, cborAny)
			benchParts(b, "atcore", rec.size, n, func(i int) ([]byte, error) { return datamodel.MarshalCBOR(ours[i]) })
			benchParts(b, "indigo", rec.size, n, func(i int) ([]byte, error) { return atdata.MarshalCBOR(theirs[i]) })
			benchParts(b, "ipld", rec.size, n, func(i int) ([]byte, error) { return ipldEncode(nodes[i]) })
			benchParts(b, "fxamacker", rec.size, n, func(i int) ([]byte, error) { return fxEnc.Marshal(plain[i]) })
			benchFloors(b, rec, rec.size, ours, func(v any) ([]byte, error) { return datamodel.MarshalCBOR(v) })
		})
	}
}

func BenchmarkCBORRoundTrip(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ps, n := rec.parts, len(rec.parts)
			benchParts(b, "atcore", rec.size, n, func(i int) ([]byte, error) {
				v, err := datamodel.UnmarshalCBOR(ps[i].CBOR)
				if err != nil {
					return nil, err
				}
				return datamodel.MarshalCBOR(v)
			})
			benchParts(b, "indigo", rec.size, n, func(i int) ([]byte, error) {
				m, err := atdata.UnmarshalCBOR(ps[i].CBOR)
				if err != nil {
					return nil, err
				}
				return atdata.MarshalCBOR(m)
			})
			benchParts(b, "ipld", rec.size, n, func(i int) ([]byte, error) {
				nd, err := ipldDecode(ps[i].CBOR)
				if err != nil {
					return nil, err
				}
				return ipldEncode(nd)
			})
			benchParts(b, "fxamacker", rec.size, n, func(i int) ([]byte, error) {
				v, err := cborAny(ps[i].CBOR)
				if err != nil {
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
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ps, n := rec.parts, len(rec.parts)
			benchParts(b, "atcore", rec.size, n, func(i int) (struct{}, error) { return struct{}{}, datamodel.ScanCBOR(ps[i].CBOR) })
			benchParts(b, "fxamacker", rec.size, n, func(i int) (struct{}, error) { return struct{}{}, cbor.Wellformed(ps[i].CBOR) })
		})
	}
}
