package tid

import (
	"math"
	"testing"
	"time"
)

var (
	sinkTID      TID
	sinkDuration time.Duration
	sinkTime     time.Time
	sinkString   string
)

// BenchmarkClockRead is the bare monotonic clock read Next is measured against (target: Next
// within 1.3× of it, in the same run).
func BenchmarkClockRead(b *testing.B) {
	b.Run("Since", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkDuration = time.Since(start)
		}
	})
	b.Run("Now", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkTime = time.Now()
		}
	})
}

// A benchmark issues tens of millions of TIDs a second, more than the one per microsecond the
// format holds, so it runs the generator ahead of the clock by design (see Generator's doc).
// A fresh generator per run keeps earlier runs' drift out of later ones.
func BenchmarkNext(b *testing.B) {
	// The clock read again, so that each -count round compares Next with a clock read taken
	// moments apart on this noisy, shared machine.
	b.Run("ClockRead", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkDuration = time.Since(start)
		}
	})
	b.Run("package", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkTID = Next()
		}
	})
	b.Run("Generator", func(b *testing.B) {
		g, _ := NewGenerator(500)
		b.ReportAllocs()
		for b.Loop() {
			sinkTID = g.Next()
		}
	})
}

func BenchmarkNextParallel(b *testing.B) {
	g, _ := NewGenerator(500)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var id TID
		for pb.Next() {
			id = g.Next()
		}
		sinkTID = id
	})
}

func BenchmarkParse(b *testing.B) {
	for _, bb := range []struct{ name, in string }{
		{"valid", "3kxnlhr3gxq23"},
		{"max", "jzzzzzzzzzzzz"},
		{"invalid", "3kxn-lhr-3gxq-23"},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bb.in)))
			for b.Loop() {
				sinkTID, _ = Parse(bb.in)
			}
		})
	}
	b.Run("IsValid", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(Len)
		for b.Loop() {
			if !IsValid("3kxnlhr3gxq23") {
				b.Fatal("invalid")
			}
		}
	})
}

func BenchmarkString(b *testing.B) {
	id := TID(math.MaxInt64)
	b.Run("String", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(Len)
		for b.Loop() {
			sinkString = id.String()
		}
	})
	b.Run("AppendText", func(b *testing.B) {
		buf := make([]byte, 0, Len)
		b.ReportAllocs()
		b.SetBytes(Len)
		for b.Loop() {
			buf, _ = id.AppendText(buf[:0])
		}
	})
}
