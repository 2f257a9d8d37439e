package peers

import (
	"github.com/atcore/atcore/datamodel"

	"testing"
	"time"
)

// BenchmarkTypedRatio runs atcore's typed path and cbor-gen's generated code alternately within
// each iteration, on the inputs of BenchmarkTypedDecode and BenchmarkTypedEncode, and reports the
// time ratio atcore/cborgen (issue 15's target: at most 1). Alternating keeps both sides under the
// same load on a shared machine, where separate rows run minutes apart.
func BenchmarkTypedRatio(b *testing.B) {
	for _, in := range typedInputs(b) {
		data := in.cbor
		b.Run("decode/rec="+in.name, func(b *testing.B) {
			var at, cg time.Duration
			for b.Loop() {
				t0 := time.Now()
				for range 8 {
					p, err := atcoreTypedDecode(data)
					if err != nil {
						b.Fatal(err)
					}
					sinkPost = p
				}
				t1 := time.Now()
				for range 8 {
					p, err := cborgenPeerDecode(data)
					if err != nil {
						b.Fatal(err)
					}
					sinkPeerPost = p
				}
				t2 := time.Now()
				at += t1.Sub(t0)
				cg += t2.Sub(t1)
			}
			b.ReportMetric(float64(at)/float64(cg), "atcore/cborgen")
		})
		b.Run("encode/rec="+in.name, func(b *testing.B) {
			atp, err := atcoreTypedDecode(data)
			if err != nil {
				b.Fatal(err)
			}
			cgp, err := cborgenPeerDecode(data)
			if err != nil {
				b.Fatal(err)
			}
			var at, cg time.Duration
			for b.Loop() {
				t0 := time.Now()
				for range 8 {
					if _, err := datamodel.MarshalCBORStruct(atp); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				for range 8 {
					if _, err := cborgenPeerEncode(cgp); err != nil {
						b.Fatal(err)
					}
				}
				t2 := time.Now()
				at += t1.Sub(t0)
				cg += t2.Sub(t1)
			}
			b.ReportMetric(float64(at)/float64(cg), "atcore/cborgen")
		})
	}
}
