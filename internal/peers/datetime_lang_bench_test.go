package peers

import (
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/lang"
)

var (
	sinkDatetime   datetime.Datetime
	sinkIndigoDT   syntax.Datetime
	sinkLang       lang.Tag
	sinkIndigoLang syntax.Language
)

// BenchmarkDatetimeParse parses valid datetimes: the preferred form, microseconds with an
// offset, and whole seconds.
func BenchmarkDatetimeParse(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"ms-Z", "1985-04-12T23:20:50.123Z"},
		{"us-offset", "1985-04-12T23:20:50.123456-07:00"},
		{"s-Z", "1985-04-12T23:20:50Z"},
	} {
		b.Run("dt="+c.name, func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkDatetime, sinkErr = datetime.Parse(c.s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIndigoDT, sinkErr = syntax.ParseDatetime(c.s)
				}
			})
		})
	}
}

// BenchmarkDatetimeParseLenient reads an old record's datetime that only the lenient readers
// take: no time zone.
func BenchmarkDatetimeParseLenient(b *testing.B) {
	s := "1985-04-12T23:20:50.123"
	b.Run("impl=atcore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkDatetime, sinkErr = datetime.ParseLenient(s)
		}
	})
	b.Run("impl=indigo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkIndigoDT, sinkErr = syntax.ParseDatetimeLenient(s)
		}
	})
}

// BenchmarkLanguageParse checks valid tags: a bare language, a region, and a long one with
// script, region and variant.
func BenchmarkLanguageParse(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"ja", "ja"},
		{"pt-BR", "pt-BR"},
		{"hy-Latn-IT-arevela", "hy-Latn-IT-arevela"},
	} {
		b.Run("tag="+c.name, func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkLang, sinkErr = lang.Parse(c.s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIndigoLang, sinkErr = syntax.ParseLanguage(c.s)
				}
			})
		})
	}
}
