package datetime

import (
	"testing"
	"time"
)

var benchDatetimes = []string{
	"1985-04-12T23:20:50Z",
	"1985-04-12T23:20:50.123Z",
	"1985-04-12T23:20:50.123456-07:00",
}

func BenchmarkParse(b *testing.B) {
	for _, s := range benchDatetimes {
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

func BenchmarkParseLenient(b *testing.B) {
	for _, s := range []string{"1985-04-12T23:20:50.123Z", "1985-04-12 23:20:50.123+0100", "1985-04-12T23:20:50.123"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseLenient(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTime(b *testing.B) {
	d := MustParse("1985-04-12T23:20:50.123Z")
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Time()
	}
}

func BenchmarkAppendTime(b *testing.B) {
	t := time.Date(1985, 4, 12, 23, 20, 50, 123e6, time.UTC)
	buf := make([]byte, 0, 32)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = AppendTime(buf[:0], t)
	}
}

// BenchmarkParseInvalid measures the error path, which allocates the *Error and its message.
func BenchmarkParseInvalid(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("1985-04-31T23:20:50Z"); err == nil {
			b.Fatal("accepted")
		}
	}
}
