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
	sinkMap   map[string]any
	sinkNode  ipld.Node
	sinkBytes []byte
)

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
			bench := func(name string, f func() error) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						if err := f(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			bench("atcore", func() (err error) { sinkAny, err = datamodel.UnmarshalCBOR(data); return })
			bench("indigo", func() (err error) { sinkMap, err = atdata.UnmarshalCBOR(data); return })
			bench("ipld", func() (err error) { sinkNode, err = ipldDecode(data); return })
			bench("fxamacker", func() error { return cbor.Unmarshal(data, &sinkAny) })
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
			bench := func(name string, f func() ([]byte, error)) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						out, err := f()
						if err != nil {
							b.Fatal(err)
						}
						sinkBytes = out
					}
				})
			}
			bench("atcore", func() ([]byte, error) { return datamodel.MarshalCBOR(ours) })
			bench("indigo", func() ([]byte, error) { return atdata.MarshalCBOR(theirs) })
			bench("ipld", func() ([]byte, error) { return ipldEncode(node) })
			bench("fxamacker", func() ([]byte, error) { return fxEnc.Marshal(plain) })
		})
	}
}

func BenchmarkCBORRoundTrip(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.cbor
			bench := func(name string, f func() ([]byte, error)) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						out, err := f()
						if err != nil {
							b.Fatal(err)
						}
						sinkBytes = out
					}
				})
			}
			bench("atcore", func() ([]byte, error) {
				v, err := datamodel.UnmarshalCBOR(data)
				if err != nil {
					return nil, err
				}
				return datamodel.MarshalCBOR(v)
			})
			bench("indigo", func() ([]byte, error) {
				m, err := atdata.UnmarshalCBOR(data)
				if err != nil {
					return nil, err
				}
				return atdata.MarshalCBOR(m)
			})
			bench("ipld", func() ([]byte, error) {
				n, err := ipldDecode(data)
				if err != nil {
					return nil, err
				}
				return ipldEncode(n)
			})
			bench("fxamacker", func() ([]byte, error) {
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
