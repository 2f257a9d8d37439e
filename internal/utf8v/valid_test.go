package utf8v

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// refFirstInvalid is the reference for FirstInvalid, built on unicode/utf8 only: the offset at
// which utf8.DecodeRune, stepping rune by rune, first reports an invalid byte, or -1.
func refFirstInvalid(p []byte) int {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// check compares every entry point with unicode/utf8 on p.
func check(t *testing.T, p []byte) {
	t.Helper()
	want := utf8.Valid(p)
	if got := Valid(p); got != want {
		t.Errorf("Valid(% x) = %v, utf8.Valid says %v", p, got, want)
	}
	if got := ValidString(string(p)); got != want {
		t.Errorf("ValidString(% x) = %v, utf8.ValidString says %v", p, got, want)
	}
	if got, want := FirstInvalid(p), refFirstInvalid(p); got != want {
		t.Errorf("FirstInvalid(% x) = %d, utf8.DecodeRune finds %d", p, got, want)
	}
	checkJSONText(t, p)
}

// refJSONText is the reference for JSONText: the text runs up to the first byte a JSON string
// stops at, and is ok when utf8.Valid says so.
func refJSONText(p []byte) (int, bool) {
	end := len(p)
	for i, c := range p {
		if c < 0x20 || c == '"' || c == '\\' {
			end = i
			break
		}
	}
	return end, utf8.Valid(p[:end])
}

// checkJSONText compares JSONText with refJSONText on p: the same verdict, and the same length
// when ok.
func checkJSONText(t *testing.T, p []byte) {
	n, ok := JSONText(p)
	wn, wok := refJSONText(p)
	if ok != wok || ok && n != wn {
		t.Helper()
		t.Errorf("JSONText(% x) = %d, %v; want %d, %v", p, n, ok, wn, wok)
	}
}

// TestEdges: every boundary of every sequence length (RFC 3629 §4's UTF8-octets table), with the
// verdict the RFC gives, checked against unicode/utf8 as well.
func TestEdges(t *testing.T) {
	tests := []struct {
		rule string
		in   string
		ok   bool
	}{
		{"empty", "", true},
		{"1-byte: lowest", "\x00", true},
		{"1-byte: highest", "\x7f", true},
		{"lone continuation: lowest", "\x80", false},
		{"lone continuation: highest", "\xbf", false},
		{"2-byte: C0 is always overlong", "\xc0\x80", false},
		{"2-byte: C1 is always overlong", "\xc1\xbf", false},
		{"2-byte: lowest, U+0080", "\xc2\x80", true},
		{"2-byte: highest, U+07FF", "\xdf\xbf", true},
		{"2-byte: second byte below 80", "\xc2\x7f", false},
		{"2-byte: second byte above BF", "\xc2\xc0", false},
		{"2-byte: truncated", "\xc2", false},
		{"3-byte: overlong E0 80..9F", "\xe0\x9f\xbf", false},
		{"3-byte: lowest, U+0800", "\xe0\xa0\x80", true},
		{"3-byte: E0 highest", "\xe0\xbf\xbf", true},
		{"3-byte: E1 lowest, U+1000", "\xe1\x80\x80", true},
		{"3-byte: U+D7FF, before the surrogates", "\xed\x9f\xbf", true},
		{"3-byte: U+D800, first surrogate", "\xed\xa0\x80", false},
		{"3-byte: U+DBFF/U+DC00, surrogate halves", "\xed\xaf\xbf\xed\xb0\x80", false},
		{"3-byte: U+DFFF, last surrogate", "\xed\xbf\xbf", false},
		{"3-byte: U+E000, after the surrogates", "\xee\x80\x80", true},
		{"3-byte: U+FFFD", "\xef\xbf\xbd", true},
		{"3-byte: U+FFFF, highest", "\xef\xbf\xbf", true},
		{"3-byte: third byte below 80", "\xe1\x80\x7f", false},
		{"3-byte: third byte above BF", "\xe1\x80\xc0", false},
		{"3-byte: truncated after 1", "\xe1", false},
		{"3-byte: truncated after 2", "\xe1\x80", false},
		{"4-byte: overlong F0 80..8F", "\xf0\x8f\xbf\xbf", false},
		{"4-byte: lowest, U+10000", "\xf0\x90\x80\x80", true},
		{"4-byte: F0 highest", "\xf0\xbf\xbf\xbf", true},
		{"4-byte: F1 lowest", "\xf1\x80\x80\x80", true},
		{"4-byte: F3 highest", "\xf3\xbf\xbf\xbf", true},
		{"4-byte: U+10FFFF, highest code point", "\xf4\x8f\xbf\xbf", true},
		{"4-byte: U+110000, above the range", "\xf4\x90\x80\x80", false},
		{"4-byte: F5 lead, above the range", "\xf5\x80\x80\x80", false},
		{"4-byte: fourth byte below 80", "\xf1\x80\x80\x7f", false},
		{"4-byte: truncated after 1", "\xf1", false},
		{"4-byte: truncated after 2", "\xf1\x80", false},
		{"4-byte: truncated after 3", "\xf1\x80\x80", false},
		{"5-byte form (F8) is not UTF-8", "\xf8\x88\x80\x80\x80", false},
		{"6-byte form (FC) is not UTF-8", "\xfc\x84\x80\x80\x80\x80", false},
		{"FE", "\xfe", false},
		{"FF", "\xff", false},
		{"too many continuations", "\xc2\x80\x80", false},
		{"four continuations in a row", "a\xf1\x80\x80\x80\x80", false},
	}
	for _, tt := range tests {
		p := []byte(tt.in)
		if got := Valid(p); got != tt.ok {
			t.Errorf("%s: Valid(% x) = %v, want %v", tt.rule, p, got, tt.ok)
		}
		check(t, p)
		// The same sequence after an ASCII prefix long enough to take the word path and the
		// two-stream path, and followed by text, must get the same verdict.
		for _, pre := range []int{1, 7, 8, 31, 32, 33, 64, 100} {
			q := append(bytes.Repeat([]byte("a"), pre), p...)
			check(t, q)
			check(t, append(q, "ü and more text after it, é"...))
			check(t, append([]byte("été, "+string(bytes.Repeat([]byte("é"), pre))), p...))
		}
	}
}

// TestInvalidLeadBytes: every byte that can never start a character, alone and inside text.
func TestInvalidLeadBytes(t *testing.T) {
	for c := 0x80; c <= 0xff; c++ {
		if c >= 0xc2 && c <= 0xf4 {
			continue
		}
		in := []byte{byte(c), 0x80, 0x80, 0x80}
		if Valid(in) || FirstInvalid(in) != 0 {
			t.Errorf("lead byte %#x: Valid = %v, FirstInvalid = %d; want false, 0", c, Valid(in), FirstInvalid(in))
		}
		check(t, in)
	}
}

// TestExhaustiveShort: every input of 1, 2 and 3 bytes.
func TestExhaustiveShort(t *testing.T) {
	var p [3]byte
	for a := 0; a < 256; a++ {
		p[0] = byte(a)
		check(t, p[:1])
		for b := 0; b < 256; b++ {
			p[1] = byte(b)
			check2(t, p[:2])
			for c := 0; c < 256; c++ {
				p[2] = byte(c)
				check2(t, p[:3])
			}
		}
	}
}

// check2 is check without the string conversion and error formatting on the happy path, so
// that the 16.8 million inputs of TestExhaustiveShort run in seconds.
func check2(t *testing.T, p []byte) {
	n, ok := JSONText(p)
	wn, wok := refJSONText(p)
	if Valid(p) != utf8.Valid(p) || FirstInvalid(p) != refFirstInvalid(p) || ok != wok || ok && n != wn {
		t.Helper()
		check(t, p)
		t.FailNow()
	}
}

// TestSampledFour: all 4-byte inputs whose first byte is a 4-byte lead or nearby (F0..F5) with
// every second and third byte and a sample of fourth bytes, plus random 4-byte words.
func TestSampledFour(t *testing.T) {
	var p [4]byte
	for a := 0xef; a <= 0xf5; a++ {
		for b := 0; b < 256; b++ {
			for c := 0; c < 256; c += 3 {
				for _, d := range []byte{0x00, 0x7f, 0x80, 0x8f, 0x90, 0xbf, 0xc0, 0xff} {
					p = [4]byte{byte(a), byte(b), byte(c), d}
					check2(t, p[:])
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		binary.LittleEndian.PutUint32(p[:], r.Uint32())
		check2(t, p[:])
	}
}

// TestWordBoundaries: an invalid byte, and a valid multi-byte character, at every offset around
// the 8- and 32-byte word boundaries and the two-stream cut, in ASCII and in non-ASCII text.
func TestWordBoundaries(t *testing.T) {
	bad := []string{"\xff", "\x80", "\xc2", "\xe1\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x9f\x98"}
	good := []string{"é", "€", "😀", "\U0010FFFF"}
	for _, fill := range []string{"a", "é", "日", "😀", "a日"} {
		for n := 0; n < 140; n++ {
			base := bytes.Repeat([]byte(fill), n/len(fill)+1)[:n]
			base = base[:len(base)-len(base)%len(fill)] // whole characters only
			for _, ins := range append(bad, good...) {
				for at := 0; at <= len(base); at += len(fill) {
					p := append(append(append([]byte{}, base[:at]...), ins...), base[at:]...)
					check(t, p)
				}
			}
		}
	}
}

// TestRandomText: valid text of random characters from every length class, then one byte
// changed, at lengths around the two-stream cut.
func TestRandomText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	classes := [][2]rune{{0, 0x7f}, {0x80, 0x7ff}, {0x800, 0xd7ff}, {0xe000, 0xffff}, {0x10000, 0x10ffff}}
	for range 20000 {
		var p []byte
		for n := r.IntN(40); n > 0; n-- {
			c := classes[r.IntN(len(classes))]
			p = utf8.AppendRune(p, c[0]+r.Int32N(c[1]-c[0]+1))
		}
		check(t, p)
		if len(p) > 0 {
			q := append([]byte{}, p...)
			q[r.IntN(len(q))] = byte(r.Uint32())
			check(t, q)
			check(t, q[:r.IntN(len(q))])
		}
	}
}

func TestAllocs(t *testing.T) {
	p := []byte("Photographer 📷 | Фотограф | 写真家 | مصور. Based in Zürich, posting daily ✨ \xff")
	s := string(p)
	if n := testing.AllocsPerRun(100, func() {
		Valid(p)
		ValidString(s)
		FirstInvalid(p)
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

func FuzzValid(f *testing.F) {
	for _, bt := range benchTexts {
		f.Add([]byte(bt.text))
	}
	f.Add([]byte("\xed\xa0\x80"))
	f.Add([]byte("\xf4\x90\x80\x80"))
	f.Add([]byte("\xe0\x9f\xbf"))
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz0123456789\xc2"))
	f.Fuzz(func(t *testing.T, p []byte) {
		check(t, p)
	})
}

// TestSplitSequences: the bytes of one character pulled apart by a run of ASCII, at every
// offset around the 16-byte blocks, after non-ASCII text so that the automaton is running. Such
// input is invalid (an ASCII byte cannot continue a sequence); it catches a skip over ASCII that
// forgets a character was left open.
func TestSplitSequences(t *testing.T) {
	chars := []string{"é", "€", "😀", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf"}
	for _, pre := range []string{"", "ж", "日本", "жжжжжжжжжжжжжжжжжжжжжж"} {
		for _, c := range chars {
			for cut := 1; cut < len(c); cut++ {
				for n := 0; n < 48; n++ {
					for gap := 1; gap < 40; gap++ {
						p := []byte(pre + string(bytes.Repeat([]byte("é"), n/2)) + string(bytes.Repeat([]byte("x"), n%2)))
						p = append(p, c[:cut]...)
						p = append(p, bytes.Repeat([]byte("a"), gap)...)
						p = append(p, c[cut:]...)
						check(t, p)
						check(t, append(p, "tail, ü"...))
					}
				}
			}
		}
	}
}

// TestJSONTextStops: a byte a JSON string stops at ('"', '\\', a control character), at every
// offset of ASCII, non-ASCII and mixed text around the word and 16-byte step boundaries, alone
// and after an invalid or cut-short sequence.
func TestJSONTextStops(t *testing.T) {
	for _, fill := range []string{"a", "é", "日", "😀", "a日", "Zürich Київ 天気 "} {
		for n := 0; n < 80; n++ {
			base := []byte(string(bytes.Repeat([]byte(fill), n/len(fill)+1)))[:n]
			for !utf8.Valid(base) {
				base = base[:len(base)-1]
			}
			for _, stop := range []string{"\"", "\\", "\n", "\x00", "\x1f", "\xe6\x97\"", "\xff\"", "\"\xff"} {
				for at := 0; at <= len(base); at++ {
					p := append(append(append([]byte{}, base[:at]...), stop...), base[at:]...)
					check(t, p)
				}
			}
		}
	}
}

func FuzzJSONText(f *testing.F) {
	for _, bt := range benchTexts {
		f.Add([]byte(bt.text + "\"" + bt.text))
	}
	f.Add([]byte("abc\\u00e9 日本\n"))
	f.Fuzz(func(t *testing.T, p []byte) {
		checkJSONText(t, p)
	})
}
