package datamodel

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The encoders' cost as the output grows (issue 16: linear in output size): one shape of record
// at sizes from 1 KB to 1 MB, maps from 32 to 32 768 keys, nesting from 1 to 1000 levels. Each
// row reports ns/B and B/B (bytes allocated per output byte), so that a step between two sizes
// shows in one column:
//
//	go test -run '^$' -bench 'BenchmarkEncodeSweep' -count 8 ./datamodel/

// sweepRecord returns a list record of at least size bytes of DAG-CBOR: items shaped like posts
// (mixed-script text, a timestamp, a link, bytes, integers), as many as the size needs.
func sweepRecord(t testing.TB, size int) any {
	r := rand.New(rand.NewPCG(1, uint64(size)))
	link := cborTestLink(t, cborTestLinkString)
	words := []string{"record", "atproto", "données", "データ", "запись", "سجل", "🦋", "graph", "feed", "über"}
	var items []any
	total := 64
	for total < size {
		var text strings.Builder
		for range 4 + r.IntN(20) {
			text.WriteString(words[r.IntN(len(words))])
			text.WriteByte(' ')
		}
		if r.IntN(8) == 0 {
			text.WriteString("\"quoted\"\n")
		}
		raw := make(Bytes, 8+r.IntN(24))
		for i := range raw {
			raw[i] = byte(r.Uint32())
		}
		item := map[string]any{
			"$type":     "app.example.sweep.item",
			"text":      text.String(),
			"createdAt": "2026-11-23T17:" + strconv.Itoa(10+r.IntN(50)) + ":00.000Z",
			"langs":     []any{"en", "ja"},
			"subject":   link,
			"raw":       raw,
			"count":     r.Int64N(1 << 40),
			"reply":     r.IntN(2) == 0,
		}
		b, err := MarshalCBOR(item)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, item)
		total += len(b)
	}
	return map[string]any{"$type": "app.example.sweep", "items": items, "createdAt": "2026-11-23T17:00:00.000Z"}
}

// sweepWide returns a record with one map of n distinct keys of 1 to 16 bytes, valued by small
// integers and short strings.
func sweepWide(n int) any {
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789-_."
	r := rand.New(rand.NewPCG(2, uint64(n)))
	m := make(map[string]any, n)
	for len(m) < n {
		k := make([]byte, 1+r.IntN(16))
		for i := range k {
			k[i] = alnum[r.IntN(len(alnum))]
		}
		if r.IntN(4) == 0 {
			m[string(k)] = "v" + strconv.Itoa(r.IntN(1000))
		} else {
			m[string(k)] = r.Int64N(1 << 30)
		}
	}
	return map[string]any{"$type": "app.example.sweep.wide", "counts": m}
}

// sweepDeep returns depth nested containers, alternating arrays and one-key maps, around a short
// string.
func sweepDeep(depth int) any {
	var v any = "leaf"
	for d := 1; d < depth; d++ {
		if d%2 == 0 {
			v = []any{v, int64(d)}
		} else {
			v = map[string]any{"k": v}
		}
	}
	return v
}

// sweepEncoders are the two encoders the sweep measures, each given the options of the row.
var sweepEncoders = []struct {
	name    string
	marshal func(any, ...Option) ([]byte, error)
}{
	{"cbor", MarshalCBOR},
	{"json", MarshalJSON},
}

func BenchmarkEncodeSweep(b *testing.B) {
	type row struct {
		name string
		v    any
		opts []Option
	}
	var rows []row
	for _, size := range []int{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1000 << 10} {
		rows = append(rows, row{"size=" + strconv.Itoa(size>>10) + "K", sweepRecord(b, size), nil})
	}
	for _, n := range []int{32, 256, 2048, 32768} {
		rows = append(rows, row{"wide=" + strconv.Itoa(n), sweepWide(n), nil})
	}
	deep := []Option{WithLimits(Limits{MaxDepth: 1024})}
	for _, d := range []int{1, 10, 32, 100, 1000} {
		rows = append(rows, row{"depth=" + strconv.Itoa(d), sweepDeep(d), deep})
	}
	for _, r := range rows {
		for _, enc := range sweepEncoders {
			out, err := enc.marshal(r.v, r.opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(r.name+"/enc="+enc.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(out)))
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					if _, err := enc.marshal(r.v, r.opts...); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&after)
				perOp := float64(len(out)) * float64(b.N)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perOp, "ns/B")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/perOp, "B/B")
			})
		}
	}
}
