package cidutil

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"

	cid "github.com/ipfs/go-cid"
)

var sinkCID cid.Cid

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
