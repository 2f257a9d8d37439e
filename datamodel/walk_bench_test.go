package datamodel

import "testing"

// BenchmarkBlobs walks the decoded realistic records for their blobs and links, the generic
// trees whose speed the Go-value support must keep.
func BenchmarkBlobs(b *testing.B) {
	for _, name := range recordNames {
		js, _ := readRecord(b, name)
		v, err := UnmarshalJSON(js)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/blobs", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Blobs(v)
			}
		})
		b.Run(name+"/links", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Links(v)
			}
		})
	}
}
