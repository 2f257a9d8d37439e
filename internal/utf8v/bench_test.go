package utf8v

import (
	"math/bits"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Benchmark texts, one per script, written for these benchmarks (not taken from any corpus).
// "mixed" is what a multilingual profile description looks like: ASCII punctuation and
// Latin, Cyrillic, CJK, Arabic and emoji side by side; "mostly-ascii" is English with one emoji
// in 160 bytes, the case where utf8.Valid's ASCII skipping shines.
var benchTexts = []struct{ name, text string }{
	{"ascii", "The quick brown fox jumps over the lazy dog while the network syncs every record. "},
	{"latin", "Où est la bibliothèque? Ça dépend: près du café, derrière l'église. Grüße aus München, señor. "},
	{"cyrillic", "Съешь же ещё этих мягких французских булок, да выпей чаю. Привет из Москвы! "},
	{"cjk", "私はブルースカイで毎日写真を投稿しています。你好，世界！今天天气很好。안녕하세요 여러분. "},
	{"arabic", "مرحبا بكم في الشبكة الاجتماعية المفتوحة. نحن نكتب الشعر والقصص كل يوم. "},
	{"emoji", "🌍🚀✨ 🎉🔥💯 👩‍💻🧑‍🎨 🐈‍⬛🌈 "},
	{"mostly-ascii", "👋 Hi! I write about Go, distributed systems and the AT Protocol. Opinions are my own; links are not endorsements. Based in Lisbon, usually online in the evenings. "},
	{"mixed", "Photographer 📷 | Фотограф | 写真家 | مصور. Based in Zürich 🇨🇭, posting daily ✨ 日本語 OK! Привет 👋 "},
}

// benchInput repeats text up to n bytes, cut back to a character boundary.
func benchInput(text string, n int) []byte {
	s := strings.Repeat(text, n/len(text)+1)[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return []byte(s)
}

var sink bool

// BenchmarkValid runs Valid and utf8.Valid on the same input, side by side, for
// benchstat -col /impl.
func BenchmarkValid(b *testing.B) {
	for _, size := range []int{300, 64 << 10} {
		for _, bt := range benchTexts {
			in := benchInput(bt.text, size)
			name := bt.name + "-" + strconv.Itoa(size)
			b.Run(name+"/impl=utf8v", func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					sink = Valid(in)
				}
			})
			b.Run(name+"/impl=stdlib", func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					sink = utf8.Valid(in)
				}
			})
		}
	}
}

// BenchmarkRatio measures the speedup over utf8.Valid with the two timed alternately, batch by
// batch, in the same iteration: on a shared machine whose load changes from second to second,
// the ratio of the fastest batch of each is steadier than the ratio of two separate benchmarks.
// It reports both throughputs (best batch, GB/s) and their ratio.
func BenchmarkRatio(b *testing.B) {
	for _, size := range []int{12, 40, 300, 64 << 10} {
		for _, bt := range benchTexts {
			in := benchInput(bt.text, size)
			b.Run(bt.name+"-"+strconv.Itoa(size), func(b *testing.B) {
				k := max(1, (32<<10)/len(in)) // calls per batch: about 10 µs of work
				best := [2]time.Duration{time.Hour, time.Hour}
				for b.Loop() {
					for j, f := range [2]func([]byte) bool{Valid, utf8.Valid} {
						t0 := time.Now()
						for range k {
							sink = f(in)
						}
						best[j] = min(best[j], time.Since(t0))
					}
				}
				gbs := func(d time.Duration) float64 { return float64(k*len(in)) / float64(d.Nanoseconds()) }
				b.ReportMetric(gbs(best[0]), "utf8v-GB/s")
				b.ReportMetric(gbs(best[1]), "stdlib-GB/s")
				b.ReportMetric(float64(best[1])/float64(best[0]), "speedup")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkJSONText runs JSONText and the two passes it replaces (find the next stop byte a word
// at a time, then Valid up to it) on the same text, side by side, for benchstat -col /impl.
func BenchmarkJSONText(b *testing.B) {
	for _, size := range []int{40, 300} {
		for _, bt := range benchTexts {
			in := append(benchInput(bt.text, size), '"')
			name := bt.name + "-" + strconv.Itoa(size)
			b.Run(name+"/impl=one-pass", func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					n, ok := JSONText(in)
					sink = ok && n > 0
				}
			})
			b.Run(name+"/impl=two-pass", func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					n := twoPassStop(in)
					sink = Valid(in[:n])
				}
			})
		}
	}
}

// twoPassStop finds the first stop byte of a JSON string, letting bytes that are not ASCII
// through, a word at a time: the first pass of the two JSONText replaces.
func twoPassStop(p []byte) int {
	const ones = 0x0101010101010101
	i := 0
	for ; i+8 <= len(p); i += 8 {
		x := load64(p, i)
		if m := ((x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones)) &^ x & hiBits; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(p) && p[i] >= 0x20 && p[i] != '"' && p[i] != '\\'; i++ {
	}
	return i
}
