package did

import "testing"

var sinkDID DID

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:web:user.example.com"} {
		b.Run("in="+s[:7], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkDID, _ = Parse(s)
			}
		})
	}
}
