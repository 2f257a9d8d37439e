package peers

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"

	"github.com/atcore/atcore/internal/peers/benchinputs"
	"github.com/bluesky-social/indigo/atproto/atdata"
)

// BenchmarkCBORDecodeRatio times atcore's and indigo's generic decode of every input of
// BenchmarkCBORDecode alternately, batch by batch in the same loop (see interleaved).
// Run it with a fixed iteration count, e.g. -benchtime 20x: an iteration is one batch per side.
func BenchmarkCBORDecodeRatio(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			interleaved(b, rec.size, [2]string{"atcore", "indigo"}, [2]func() error{
				decodeAll(rec.parts, false, atcoreCBOR),
				decodeAll(rec.parts, false, func(d []byte) (any, error) { return atdata.UnmarshalCBOR(d) }),
			})
		})
	}
}

// decodeAll returns one side of interleaved: decode every part of an input (its JSON, or its
// CBOR) with dec, keeping the result alive.
func decodeAll[T any](parts []benchinputs.Part, json bool, dec func([]byte) (T, error)) func() error {
	return func() error {
		for _, p := range parts {
			data := p.CBOR
			if json {
				data = p.JSON
			}
			v, err := dec(data)
			if err != nil {
				return err
			}
			sinkAny = v
		}
		return nil
	}
}

// interleaved times the two sides, named names, alternately, batch by batch in the same loop,
// and reports each side's time per operation (median and best batch) and the second side's time
// over the first's. On a machine shared with other work, whose load changes from second to
// second, two separate benchmarks see different loads; batches taken in turn see nearly the
// same, so their ratio is steadier. x-NAME is the ratio of the median batches, x-NAME-best that of
// the fastest ones; the fastest batch is the one least disturbed by other work, which makes it
// the steadier figure for comparing two versions of atcore run one after the other. size is the
// input's length, from which the batch is sized.
// It returns the two sides' median times per operation.
func interleaved(b *testing.B, size int, names [2]string, sides [2]func() error) [2]float64 {
	// Operations per batch: about 0.5 ms of atcore's work (it decodes about 200 MB/s), short
	// enough that some batches run without being preempted on a loaded machine.
	return interleavedBatches(b, max(1, 100_000/size), names, sides)
}

// interleavedBatches is interleaved with k operations per batch. It also reports the
// collections each side's batches ran through (NAME-gcs, per batch): most batches of interleaved
// allocate less than the collector's slack and run through none (the stream's run through one or
// two), so that an allocation costs there only its allocation, not its share of a collection.
func interleavedBatches(b *testing.B, k int, names [2]string, sides [2]func() error) [2]float64 {
	var per [2][]float64
	var gcs [2]uint32
	round := func(inLoop bool) {
		for j, f := range sides {
			// Each batch starts from a collected heap, so that neither side pays for
			// collecting the other's garbage.
			if inLoop {
				b.StopTimer()
			}
			runtime.GC()
			if inLoop {
				b.StartTimer()
			}
			gc0 := gcCount()
			t0 := time.Now()
			for range k {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
			per[j] = append(per[j], float64(time.Since(t0).Nanoseconds())/float64(k))
			gcs[j] += gcCount() - gc0
		}
	}
	for b.Loop() {
		round(true)
	}
	// A large input's round outlasts bench.sh's -benchtime (stream10k against indigo: about
	// 110 ms), so b.Loop may stop after one or two rounds, and a median of two is a mean. The
	// medians are taken over interleavedMinRounds rounds at least, as issue 16's own figures
	// were; rounds past b.Loop's are not in ns/op, which is not the figure reported here.
	for len(per[0]) < interleavedMinRounds {
		round(false) // the timer stopped with b.Loop
	}
	med := [2]float64{median(per[0]), median(per[1])}
	b.ReportMetric(med[0], names[0]+"-ns/op")
	b.ReportMetric(med[1], names[1]+"-ns/op")
	b.ReportMetric(med[1]/med[0], "x-"+names[1])
	b.ReportMetric(slices.Min(per[0]), names[0]+"-best-ns/op")
	b.ReportMetric(slices.Min(per[1]), names[1]+"-best-ns/op")
	b.ReportMetric(slices.Min(per[1])/slices.Min(per[0]), "x-"+names[1]+"-best")
	for j, name := range names {
		b.ReportMetric(float64(gcs[j])/float64(len(per[j])), name+"-gcs")
	}
	b.ReportMetric(0, "ns/op")
	return med
}

// gcCount returns how many collections have completed, without stopping the world as
// runtime.ReadMemStats does.
func gcCount() uint32 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return uint32(s[0].Value.Uint64())
}

// interleavedMinRounds is the fewest rounds (a batch of each side) whose medians interleaved
// reports.
const interleavedMinRounds = 10

// median returns the median of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
