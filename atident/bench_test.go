package atident

import "testing"

var sinkID ID

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "alice.bsky.social"} {
		b.Run("in="+s[:7], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkID, _ = Parse(s)
			}
		})
	}
}
