package cidutil

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"
	"time"

	cid "github.com/ipfs/go-cid"
)

var sinkCID cid.Cid

var sinkString string

// BenchmarkSum puts SumCBOR next to a bare sha256.Sum256 of the same bytes, so their ratio can be
// read from one run (target: SumCBOR within 1.2× of sha256.Sum256).
func BenchmarkSum(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		data := bytes.Repeat([]byte{0xa5, 0x61, 0x62}, size/3+1)[:size]
		name := fmt.Sprintf("%dKiB", size>>10)
		b.Run(name+"/sha256.Sum256", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var d [32]byte
			for b.Loop() {
				d = sha256.Sum256(data)
			}
			_ = d
		})
		b.Run(name+"/SumCBOR", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				sinkCID = SumCBOR(data)
			}
		})
		b.Run(name+"/SumRawReader", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			r := bytes.NewReader(data)
			for b.Loop() {
				r.Reset(data)
				sinkCID, _, _ = SumRawReader(r)
			}
		})
	}
}

// BenchmarkSumRatio measures SumCBOR against sha256.Sum256 interleaved, in alternating blocks
// timed separately, and reports the ratio of the median block times as the metric
// "SumCBOR/sha256". On a shared, noisy machine the load changes between sub-benchmarks run one
// after the other, but hits both halves of one interleaved loop alike, and the medians discard
// the blocks that were preempted. ns/op is the time of one pair of calls.
func BenchmarkSumRatio(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		data := bytes.Repeat([]byte{0xa5, 0x61, 0x62}, size/3+1)[:size]
		block := max(1, (64<<10)/size) // calls per timed block: ~64 KiB of hashing, so timer cost is negligible
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(2 * size))
			b.ReportAllocs()
			b.StopTimer()
			blocks := b.N/block + 1
			tSha := make([]time.Duration, 0, blocks)
			tSum := make([]time.Duration, 0, blocks)
			b.StartTimer()
			var d [32]byte
			for i := 0; i < b.N; i += block {
				n := min(block, b.N-i)
				t0 := time.Now()
				for range n {
					d = sha256.Sum256(data)
				}
				t1 := time.Now()
				for range n {
					sinkCID = SumCBOR(data)
				}
				t2 := time.Now()
				if n == block {
					tSha = append(tSha, t1.Sub(t0))
					tSum = append(tSum, t2.Sub(t1))
				}
			}
			_ = d
			if len(tSha) > 0 {
				b.ReportMetric(float64(median(tSum))/float64(median(tSha)), "SumCBOR/sha256")
			}
		})
	}
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkParse compares the strict parsers with go-cid's lenient ones on a blessed CID.
func BenchmarkParse(b *testing.B) {
	c := SumCBOR([]byte("record"))
	bin, str := c.Bytes(), c.String()
	z, _ := c.StringOfBase('z')
	cases := []struct {
		name string
		fn   func() (cid.Cid, error)
	}{
		{"ParseBinary", func() (cid.Cid, error) { return ParseBinary(bin) }},
		{"cid.Cast", func() (cid.Cid, error) { return cid.Cast(bin) }},
		{"ParseString/b", func() (cid.Cid, error) { return ParseString(str) }},
		{"ParseString/z", func() (cid.Cid, error) { return ParseString(z) }},
		{"ParseBlessed", func() (cid.Cid, error) { return ParseBlessed(str) }},
		{"cid.Decode/b", func() (cid.Cid, error) { return cid.Decode(str) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkCID, _ = tc.fn()
			}
		})
	}
}

// BenchmarkString compares AppendString, into a buffer with room, with go-cid's String on a
// blessed CID.
func BenchmarkString(b *testing.B) {
	c := SumCBOR([]byte("record"))
	buf := make([]byte, 0, 64)
	b.Run("AppendString", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = AppendString(buf[:0], c)
		}
	})
	b.Run("cid.String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkString = c.String()
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	data := bytes.Repeat([]byte{0x61}, 1<<10)
	c := SumCBOR(data)
	str := c.String()
	b.Run("IsBlessed", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if IsBlessed(c) {
				n++
			}
		}
		_ = n
	})
	b.Run("CheckSyntax", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = CheckSyntax(str)
		}
	})
	b.Run("Verify/1KiB", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			_ = Verify(c, data)
		}
	})
}
