package tid

import (
	"math"
	"sync/atomic"
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
	b.Run("shared", func(b *testing.B) {
		g, _ := NewGenerator(500)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var id TID
			for pb.Next() {
				id = g.Next()
			}
			sinkTID = id
		})
	})
	// One generator per goroutine, as a deployment with a clock id per writer would have.
	b.Run("per-goroutine", func(b *testing.B) {
		var clockID atomic.Uint64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			g, _ := NewGenerator(uint(32 + clockID.Add(1)))
			var id TID
			for pb.Next() {
				id = g.Next()
			}
			sinkTID = id
		})
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

// BenchmarkNextOverClock measures Next against a bare clock read on a noisy, shared machine: it
// alternates short blocks of each and keeps the fastest block of each kind, which the other
// processes' interference only ever slows down. It reports the per-call costs and the ratios
// (target: at most 1.3), for the package-level Next and for a Generator.
func BenchmarkNextOverClock(b *testing.B) {
	const block = 1000
	g, _ := NewGenerator(501)
	best := [3]time.Duration{math.MaxInt64, math.MaxInt64, math.MaxInt64}
	for range b.N {
		t0 := time.Now()
		for range block {
			sinkDuration = time.Since(start)
		}
		t1 := time.Now()
		for range block {
			sinkTID = Next()
		}
		t2 := time.Now()
		for range block {
			sinkTID = g.Next()
		}
		t3 := time.Now()
		best = [3]time.Duration{min(best[0], t1.Sub(t0)), min(best[1], t2.Sub(t1)), min(best[2], t3.Sub(t2))}
	}
	b.ReportMetric(float64(best[0])/block, "clock-ns/call")
	b.ReportMetric(float64(best[1])/block, "Next-ns/call")
	b.ReportMetric(float64(best[2])/block, "Generator.Next-ns/call")
	b.ReportMetric(float64(best[1])/float64(best[0]), "Next/clock")
	b.ReportMetric(float64(best[2])/float64(best[0]), "Generator.Next/clock")
}
