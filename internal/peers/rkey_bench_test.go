package peers

import (
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/rkey"
)

var (
	sinkErr  error
	sinkRKey syntax.RecordKey
)

// BenchmarkRecordKeyValidate validates valid keys of 4, 13 (a TID) and 64 characters.
func BenchmarkRecordKeyValidate(b *testing.B) {
	for _, key := range []string{
		"self",
		"3jzfcijpj2z2a", // a TID
		strings.Repeat("aZ0.-_:~", 8),
	} {
		b.Run("len="+itoa(len(key)), func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkErr = rkey.Validate(key)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkRKey, sinkErr = syntax.ParseRecordKey(key)
				}
			})
		})
	}
}
