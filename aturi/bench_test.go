package aturi

import "testing"

var sinkURI URI

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{
		"at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g",
		"at://alice.bsky.social/app.bsky.actor.profile/self",
	} {
		b.Run("in="+s[5:12], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkURI, _ = Parse(s)
			}
		})
	}
}
