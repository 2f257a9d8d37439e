package datamodel

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// jsonQuoteReference is jsonAppendQuoted written byte by byte, the obvious way (RFC 8259 §7:
// quotation mark, reverse solidus and the control characters U+0000 to U+001F must be escaped).
func jsonQuoteReference(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestJSONAppendQuoted checks the word-at-a-time escaping against the reference on strings
// that put each byte that needs escaping, and its neighbours 0x1f/0x20, 0x21/0x23, 0x5b/0x5d,
// 0x7f and non-ASCII bytes, at every position of 8-byte words and in the tail.
func TestJSONAppendQuoted(t *testing.T) {
	special := []string{"\"", "\\", "\x00", "\x1f", "\n", "\r", "\t", "\b", "\f", " ", "!", "#", "[", "]", "\x7f", "é", "日", "🦋", "\x80", "\xff"}
	var cases []string
	for _, sp := range special {
		for n := range 36 {
			for at := 0; at <= n; at++ {
				cases = append(cases, strings.Repeat("a", at)+sp+strings.Repeat("b", n-at))
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 3))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(40) {
			if r.IntN(4) == 0 {
				b.WriteString(special[r.IntN(len(special))])
			} else {
				b.WriteByte(byte(0x20 + r.IntN(0x60)))
			}
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		checkJSONQuoted(t, s)
	}
}

// checkJSONQuoted checks jsonAppendQuoted and jsonPlainPrefix on s against the references.
func checkJSONQuoted(t *testing.T, s string) {
	t.Helper()
	if got, want := string(jsonAppendQuoted([]byte("x"), s)), "x"+jsonQuoteReference(s); got != want {
		t.Fatalf("jsonAppendQuoted(%q) = %q, want %q", s, got, want)
	}
	want := 0
	for want < len(s) && s[want] < 0x80 && s[want] >= 0x20 && s[want] != '"' && s[want] != '\\' {
		want++
	}
	if got := jsonPlainPrefix(s); got != want {
		t.Fatalf("jsonPlainPrefix(%q) = %d, want %d", s, got, want)
	}
	// jsonAppendShort writes s exactly when it is 4 to 32 plain bytes and dst has room for 34,
	// and writes nothing past what it appends.
	roomy := make([]byte, 72)
	copy(roomy, strings.Repeat("x", 72))
	roomy = roomy[:3]
	out, ok := jsonAppendShort(roomy, s)
	if wantOK := len(s) >= 4 && len(s) <= 32 && want == len(s); ok != wantOK {
		t.Fatalf("jsonAppendShort(%q) reports %v, want %v", s, ok, wantOK)
	}
	if ok && string(out) != "xxx"+jsonQuoteReference(s) || !ok && len(out) != 3 {
		t.Fatalf("jsonAppendShort(%q) = %q, %v", s, out, ok)
	}
	if rest := out[len(out):cap(out)]; strings.Trim(string(rest), "x") != "" {
		t.Fatalf("jsonAppendShort(%q) wrote past its output: %q", s, rest)
	}
	if _, ok := jsonAppendShort(roomy[:3:36], s); ok {
		t.Fatalf("jsonAppendShort(%q) wrote into a buffer with room for 33 bytes", s)
	}
}

// TestMarshalJSONInvalidUTF8AfterASCII checks that a string or key whose invalid UTF-8 comes after
// an ASCII prefix (which the encoder does not check again) is refused.
func TestMarshalJSONInvalidUTF8AfterASCII(t *testing.T) {
	for _, bad := range []string{"\xff", "abcdefgh\xff", "abcdefghijklmnop\xc3", "abc\"def\xe2\x82", "日本\xff語"} {
		for _, v := range []any{bad, map[string]any{bad: int64(1)}, []any{"ok", bad}} {
			if _, err := MarshalJSON(v); !errors.Is(err, ErrInvalidUTF8) {
				t.Errorf("MarshalJSON(%#v): %v, want ErrInvalidUTF8", v, err)
			}
		}
	}
}

// FuzzJSONAppendQuoted checks the escaping against the reference on any string.
func FuzzJSONAppendQuoted(f *testing.F) {
	for _, s := range []string{"", "plain ascii text", "a\"b\\c\nd\x00e\x1f", "日本語 🦋 \x7f", "\xff\xfe 12345678\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkJSONQuoted(t, s)
	})
}

// TestJSONWordTests checks the encoder's word tests against the byte-wise rule on the words of
// eachTestWord (with '[' and ']', beside '\\', among the fills): jsonEscape8 is zero exactly when
// no byte must be escaped and otherwise flags the first such byte lowest; jsonPlain8 does the
// same for those bytes and non-ASCII ones.
func TestJSONWordTests(t *testing.T) {
	escape := func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }
	notPlain := func(b byte) bool { return escape(b) || b >= 0x80 }
	eachTestWord(append([]byte{'[', ']'}, wordEdgeFills...), func(w [8]byte) {
		x := jsonLoad8(string(w[:]), 0)
		if m, want := jsonEscape8(x), firstOf(w, escape); firstFlagged(m) != want || (m == 0) != (want == 8) {
			t.Fatalf("jsonEscape8(%q) = %#x: first byte to escape at %d", w[:], m, want)
		}
		if m, want := jsonPlain8(x), firstOf(w, notPlain); firstFlagged(m) != want || (m == 0) != (want == 8) {
			t.Fatalf("jsonPlain8(%q) = %#x: first byte not plain at %d", w[:], m, want)
		}
	})
}

// TestMarshalJSONShortKeyLimit checks that keys written by jsonAppendShort (4 to 32 plain bytes)
// still meet MaxKeyLen, on both sides of it.
func TestMarshalJSONShortKeyLimit(t *testing.T) {
	opt := WithLimits(Limits{MaxKeyLen: 5})
	for _, key := range []string{"abcd", "abcde", "abcdef", "abcdefghijklmnop"} {
		_, err := MarshalJSON(map[string]any{key: int64(1)}, opt)
		if want := len(key) > 5; errors.Is(err, ErrKeyTooLong) != want || !want && err != nil {
			t.Errorf("MarshalJSON with key %q and MaxKeyLen 5: %v, want ErrKeyTooLong %v", key, err, want)
		}
	}
}
