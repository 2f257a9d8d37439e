package utf8v

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Benchmark texts, one per script, written for these benchmarks (not taken from any corpus).
// "mixed" is what a multilingual profile description looks like: ASCII punctuation and
// Latin, Cyrillic, CJK, Arabic and emoji side by side.
var benchTexts = []struct{ name, text string }{
	{"ascii", "The quick brown fox jumps over the lazy dog while the network syncs every record. "},
	{"latin", "Où est la bibliothèque? Ça dépend: près du café, derrière l'église. Grüße aus München, señor. "},
	{"cyrillic", "Съешь же ещё этих мягких французских булок, да выпей чаю. Привет из Москвы! "},
	{"cjk", "私はブルースカイで毎日写真を投稿しています。你好，世界！今天天气很好。안녕하세요 여러분. "},
	{"arabic", "مرحبا بكم في الشبكة الاجتماعية المفتوحة. نحن نكتب الشعر والقصص كل يوم. "},
	{"emoji", "🌍🚀✨ 🎉🔥💯 👩‍💻🧑‍🎨 🐈‍⬛🌈 "},
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
