package lang

import "testing"

var benchTags = []string{"ja", "pt-BR", "hy-Latn-IT-arevela", "en-GB-boont-r-extended-sequence-x-private"}

func BenchmarkParse(b *testing.B) {
	for _, s := range benchTags {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if _, err := Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseInvalid measures the error path, which allocates the *Error and its message.
func BenchmarkParseInvalid(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("de-DE-1901-1901"); err == nil {
			b.Fatal("accepted")
		}
	}
}
