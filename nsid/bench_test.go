package nsid

import "testing"

var sinkNSID NSID

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{"app.bsky.feed.post", "com.atproto.repo.getRecord"} {
		b.Run("in="+s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkNSID, _ = Parse(s)
			}
		})
	}
}
