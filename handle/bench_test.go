package handle

import "testing"

var sinkHandle Handle

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{"alice.bsky.social", "xn--ls8h.test"} {
		b.Run("in="+s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkHandle, _ = Parse(s)
			}
		})
	}
}
