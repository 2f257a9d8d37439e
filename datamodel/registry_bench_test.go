package datamodel

import (
	"testing"
	"time"
)

// BenchmarkUnionDecode decodes the post of testdata/records (its embed a union member,
// app.bsky.embed.images) through a registry, into regPost with its Union embed, and directly
// with UnmarshalCBORStruct into cborTestPost, whose embed is the concrete struct: the same bytes,
// the same Go types but for the union. impl=ratio runs both alternately in each iteration and
// reports registry/concrete (issue 15's target: at most 1.2). On a loaded machine the timings
// scatter too much to decide; instruction counts do not: valgrind --tool=cachegrind, GOGC=off,
// (30000x - 10000x)/20000: registry 28,217 instructions per decode, concrete 27,078 (1.04×).
func BenchmarkUnionDecode(b *testing.B) {
	r := regTestRegistry(b)
	_, post := readRecord(b, "post")
	registry := func() {
		v, err := r.DecodeCBOR(post)
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := v.(*regPost).Embed.Value().(*cborTestEmbedImage); !ok {
			b.Fatal("embed not decoded into its registered type")
		}
	}
	concrete := func() {
		var p cborTestPost
		if err := UnmarshalCBORStruct(post, &p); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("impl=registry", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(post)))
		for b.Loop() {
			registry()
		}
	})
	b.Run("impl=concrete", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(post)))
		for b.Loop() {
			concrete()
		}
	})
	b.Run("impl=ratio", func(b *testing.B) {
		var reg, con time.Duration
		for b.Loop() {
			t0 := time.Now()
			for range 16 {
				registry()
			}
			t1 := time.Now()
			for range 16 {
				concrete()
			}
			t2 := time.Now()
			reg += t1.Sub(t0)
			con += t2.Sub(t1)
		}
		b.ReportMetric(float64(reg)/float64(con), "registry/concrete")
	})
}
