package datamodel

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// BenchmarkCBORStream compares CBORDecoder over an in-memory reader with a loop of
// UnmarshalCBORPrefix over the same bytes: the realistic records back to back, 16 times over.
// The stream's cost is the reads, the copy into its buffer and one failed decode per buffer
// boundary.
func BenchmarkCBORStream(b *testing.B) {
	one, values := streamCBORRecords(b)
	stream := bytes.Repeat(one, 16)
	n := 16 * len(values)
	b.Run("prefix", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			data, k := stream, 0
			for len(data) > 0 {
				_, rest, err := UnmarshalCBORPrefix(data)
				if err != nil {
					b.Fatal(err)
				}
				data = rest
				k++
			}
			if k != n {
				b.Fatal(k)
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		r := bytes.NewReader(stream)
		for b.Loop() {
			r.Reset(stream)
			d := NewCBORDecoder(r)
			k := 0
			for {
				_, err := d.Decode()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				k++
			}
			if k != n {
				b.Fatal(k)
			}
		}
	})
}

// BenchmarkJSONStream compares JSONDecoder over NDJSON in memory with a loop of UnmarshalJSON
// over the lines, split beforehand.
func BenchmarkJSONStream(b *testing.B) {
	lines := ndjsonLines(b)
	var all [][]byte
	for range 16 {
		all = append(all, lines...)
	}
	stream := append(bytes.Join(all, []byte("\n")), '\n')
	b.Run("lines", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			for _, l := range all {
				if _, err := UnmarshalJSON(l); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(stream)))
		r := bytes.NewReader(stream)
		for b.Loop() {
			r.Reset(stream)
			d := NewJSONDecoder(r)
			k := 0
			for {
				_, err := d.Decode()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				k++
			}
			if k != len(all) {
				b.Fatal(k)
			}
		}
	})
}

// BenchmarkCBORStreamRatio runs the two sides of BenchmarkCBORStream alternately, one pass each
// per iteration, and reports the ratio of their times (decoder/prefix): on a machine shared with
// other work, the load drifts less between two passes than between two benchmarks.
func BenchmarkCBORStreamRatio(b *testing.B) {
	one, _ := streamCBORRecords(b)
	stream := bytes.Repeat(one, 16)
	r := bytes.NewReader(stream)
	var prefix, decoder time.Duration
	for b.Loop() {
		t0 := time.Now()
		for data := stream; len(data) > 0; {
			_, rest, err := UnmarshalCBORPrefix(data)
			if err != nil {
				b.Fatal(err)
			}
			data = rest
		}
		t1 := time.Now()
		r.Reset(stream)
		d := NewCBORDecoder(r)
		for {
			if _, err := d.Decode(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		prefix += t1.Sub(t0)
		decoder += t2.Sub(t1)
	}
	b.ReportMetric(float64(decoder)/float64(prefix), "decoder/prefix")
}
