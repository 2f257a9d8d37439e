package benchinputs

import (
	"math/rand/v2"
	"strings"

	"github.com/rivo/uniseg"
)

// Words by script. The text of the mixed inputs draws from every list, so that a decoder or
// encoder meets 2-, 3- and 4-byte UTF-8, right-to-left runs, combining marks, emoji with skin
// tones, ZWJ sequences, flags and variation selectors in one string: the case the speed issue
// found slow. The words were written for this generator; they are not taken from any corpus.
var scripts = [][]string{
	// Latin, with and without diacritics.
	{"hello", "world", "today", "garden", "café", "naïve", "über", "façade", "crème", "señor", "Zürich", "Łódź", "smørbrød", "déjà", "vu", "weekend", "photos", "river"},
	// CJK: Chinese, Japanese (kanji and kana), Korean.
	{"東京", "天気", "こんにちは", "日本語", "한국어", "中文", "漢字", "ありがとう", "写真", "春の雨", "서울", "今日は", "桜", "朋友"},
	// Cyrillic.
	{"привет", "мир", "Москва", "сегодня", "погода", "книга", "фотографии", "Київ", "добро", "вечер", "ёлка"},
	// Arabic.
	{"مرحبا", "العالم", "اليوم", "كتاب", "شكرا", "صباح", "الخير", "صور", "القاهرة", "سماء"},
	// Emoji: single code points, skin tones, ZWJ families, flags, keycaps, variation selectors.
	{"🎉", "👍🏽", "❤️", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇯🇵", "😀", "🌸", "🧑🏿‍💻", "1️⃣", "🇺🇦", "☕", "🙏🏻"},
}

// mixedText returns text that mixes scripts: one word of every script first (in a shuffled
// order, each only if it fits), then words of random scripts, up to a random length between half
// of maxGraphemes and maxGraphemes grapheme clusters, and never more than maxBytes bytes.
func mixedText(r *rand.Rand, maxGraphemes, maxBytes int) string {
	var b strings.Builder
	g := 0
	want := maxGraphemes/2 + r.IntN(maxGraphemes/2+1)
	add := func(w string) bool {
		if b.Len() > 0 {
			sep := " "
			if r.IntN(12) == 0 {
				sep = "\n"
			}
			w = sep + w
		}
		ag := uniseg.GraphemeClusterCount(w)
		if g+ag > want || b.Len()+len(w) > maxBytes {
			return false
		}
		b.WriteString(w)
		g += ag
		return true
	}
	for _, s := range r.Perm(len(scripts)) {
		add(pick(r, scripts[s]))
	}
	for misses := 0; misses < 3; {
		if !add(pick(r, scripts[r.IntN(len(scripts))])) {
			misses++
		}
	}
	return b.String()
}

// asciiText returns plain English-like text of about n bytes: the common case next to the mixed one.
func asciiText(r *rand.Rand, n int) string {
	words := []string{"the", "a", "new", "post", "about", "coffee", "and", "code", "this", "morning", "with", "friends", "at", "home", "what", "do", "you", "think", "of", "it"}
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pick(r, words))
	}
	return b.String()
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
