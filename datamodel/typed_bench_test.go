package datamodel

import (
	"testing"
	"time"
)

// BenchmarkTypedRatio runs the typed codec and the path it replaced alternately in each
// iteration, on every record of testdata/records that has a Lexicon-like type here, and reports
// their time ratio (typed/fxamacker: below 1, the typed codec is faster). On a shared machine,
// alternating within one run keeps both sides under the same load, which separate benchmarks do
// not.
func BenchmarkTypedRatio(b *testing.B) {
	var post []byte
	for _, r := range cborTestRecords(b) {
		if r.name == "post" {
			post = r.cbor
		}
	}
	b.Run("post/decode", func(b *testing.B) {
		var typed, ref time.Duration
		for b.Loop() {
			t0 := time.Now()
			for range 16 {
				var p cborTestPost
				if err := UnmarshalCBORStruct(post, &p); err != nil {
					b.Fatal(err)
				}
			}
			t1 := time.Now()
			for range 16 {
				var p cborTestPost
				if err := unmarshalCBORStructRef(post, &p); err != nil {
					b.Fatal(err)
				}
			}
			t2 := time.Now()
			typed += t1.Sub(t0)
			ref += t2.Sub(t1)
		}
		b.ReportMetric(float64(typed)/float64(ref), "typed/fxamacker")
	})
	var decoded cborTestPost
	if err := UnmarshalCBORStruct(post, &decoded); err != nil {
		b.Fatal(err)
	}
	b.Run("post/encode", func(b *testing.B) {
		var typed, ref time.Duration
		for b.Loop() {
			t0 := time.Now()
			for range 16 {
				if _, err := MarshalCBORStruct(&decoded); err != nil {
					b.Fatal(err)
				}
			}
			t1 := time.Now()
			for range 16 {
				if _, err := marshalCBORStructRef(&decoded); err != nil {
					b.Fatal(err)
				}
			}
			t2 := time.Now()
			typed += t1.Sub(t0)
			ref += t2.Sub(t1)
		}
		b.ReportMetric(float64(typed)/float64(ref), "typed/fxamacker")
	})
}
