package datamodel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// The string lexer finds the end of a run of non-ASCII text a word at a time and validates the run
// in one call to internal/utf8v (jsonTextRun). The tests here hold it to the rune-by-rune reader it
// replaced, kept below as the oracle (refStringRest, refEscapedString): the same bytes, the same
// end, and the same error (sentinel, offset, detail) on every input.

// firstFlagged returns the index of the lowest byte of m whose high bit is set, 8 if none: where
// a word test such as jsonStop8 says the first byte it looks for is.
func firstFlagged(m uint64) int {
	for k := range 8 {
		if m>>(8*k+7)&1 != 0 {
			return k
		}
	}
	return 8
}

// eachTestWord calls f with the words that the word tests are checked on: every byte value at
// every position, followed by every byte value, in words filled with each of fills.
func eachTestWord(fills []byte, f func(w [8]byte)) {
	var w [8]byte
	for _, fill := range fills {
		for c := range 256 {
			for k := range 8 {
				for after := range 256 {
					for i := range w {
						w[i] = fill
					}
					w[k] = byte(c)
					if k < 7 {
						w[k+1] = byte(after)
					}
					f(w)
				}
			}
		}
	}
}

// wordEdgeFills are the fills of eachTestWord for the string tests: plain bytes, the bytes beside
// '"' (' ', '!', '#', which the test of jsonCtlQuote8 puts next to its line), and bytes that
// are not ASCII.
var wordEdgeFills = []byte{'a', ' ', '!', '#', 0x80, 0xe4, 0xff}

// firstOf returns the index of the first byte of w that is, 8 if none.
func firstOf(w [8]byte, is func(byte) bool) int {
	for i, b := range w {
		if is(b) {
			return i
		}
	}
	return 8
}

// jsonStop8 flags, as its lowest flag, exactly the first control character, '"' or '\\' of a
// word: every byte value, at every position, behind text bytes (ASCII and not) or in front of any
// other byte.
func TestJSONStop8(t *testing.T) {
	stop := func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }
	eachTestWord(wordEdgeFills, func(w [8]byte) {
		if got, want := firstFlagged(jsonStop8(binary.LittleEndian.Uint64(w[:]))), firstOf(w, stop); got != want {
			t.Fatalf("word %q: first stop byte at %d, want %d", w[:], got, want)
		}
	})
}

// jsonStringCases are strings (after the opening quote) that put invalid UTF-8, controls, quotes
// and escapes next to and inside multi-byte sequences, and the ends of input at every place.
var jsonStringCases = []string{
	"plain\"", "héllo\"", "日本語のテキスト、Привет мир, مرحبا 😀😀\"",
	"\xe6\x97\"", "\xe6\x97\x0a\"", "ab\xe6\"", "\xe6", "日本", "日本\\n\"", "\\n日本\xe6\x97\"",
	"\xed\xa0\x80\"", "\xc0\xaf\"", "\xf4\x90\x80\x80\"", "\xff\"", "\x80\"",
	"12345678日本語のテキスト\x01\"", "日本語のテキスト\\u00e9\xe6\"", "😀\\ud83d\\ude00😀\"",
	"Привет мир Привет мир Привет мир\xd0\"", "Привет\\q\"", "Привет\\u12\"",
	"x\xe2\x82\"\"", "abcdefgh\xe2\x82\xac\"", "abcdefg\xe2\x82\xac\xe2\x82\"",
}

func FuzzJSONString(f *testing.F) {
	for _, s := range jsonStringCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) { jsonSameString(t, s) })
}

func TestJSONStringMatchesRuneByRune(t *testing.T) {
	for _, s := range jsonStringCases {
		for n := 0; n <= len(s); n++ { // every end of input, too
			jsonSameString(t, []byte(s[:n]))
		}
	}
}

// jsonSameString reads '"' + s as a string token with the lexer and with the oracle.
func jsonSameString(t *testing.T, s []byte) {
	t.Helper()
	data := append([]byte{'"'}, s...)
	d1 := &jsonDecoder{data: data}
	b1, err1 := d1.string()
	b1 = bytes.Clone(b1)
	d2 := &jsonDecoder{data: data}
	b2, err2 := d2.refStringRest(0, 1)
	if !reflect.DeepEqual(err1, err2) {
		t.Fatalf("%q: error %#v, rune by rune %#v", data, err1, err2)
	}
	if err1 == nil && (!bytes.Equal(b1, b2) || d1.pos != d2.pos) {
		t.Fatalf("%q: %q up to %d, rune by rune %q up to %d", data, b1, d1.pos, b2, d2.pos)
	}
}

func (d *jsonDecoder) refStringRest(start, i int) ([]byte, error) {
	data := d.data
	for {
		i = jsonPlainRun(data, i)
		if i >= len(data) {
			return nil, d.fail(ErrTruncated, start, "unterminated string")
		}
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return data[start+1 : i], nil
		case c == '\\':
			return d.refEscapedString(start, i)
		case c < 0x20:
			return nil, d.fail(ErrSyntax, i, "control character "+jsonQuoteByte(c)+" in a string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fail(ErrInvalidUTF8, i, "")
			}
			i += size
		}
	}
}

func (d *jsonDecoder) refEscapedString(start, i int) ([]byte, error) {
	data := d.data
	buf := append(d.buf[:0], data[start+1:i]...)
	defer func() { d.buf = buf[:0] }()
	for i < len(data) {
		if j := jsonPlainRun(data, i); j > i {
			buf = append(buf, data[i:j]...)
			if i = j; i >= len(data) {
				break
			}
		}
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return buf, nil
		case c == '\\':
			if i+1 >= len(data) {
				return nil, d.fail(ErrTruncated, start, "unterminated string")
			}
			esc := data[i+1]
			i += 2
			switch esc {
			case '"', '\\', '/':
				buf = append(buf, esc)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := d.hex4(i)
				if err != nil {
					return nil, err
				}
				i += 4
				if utf16.IsSurrogate(r) {
					// A high surrogate must be followed by an escaped low one (RFC 8259 §7);
					// alone, either half is not a character and has no UTF-8 form.
					if r >= 0xDC00 || i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
						return nil, d.fail(ErrInvalidUTF8, i-6, "lone surrogate "+string(data[i-6:i]))
					}
					lo, err := d.hex4(i + 2)
					if err != nil {
						return nil, err
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						return nil, d.fail(ErrInvalidUTF8, i-6, "lone surrogate "+string(data[i-6:i]))
					}
					r = utf16.DecodeRune(r, lo)
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return nil, d.fail(ErrSyntax, i-2, "invalid escape "+jsonQuoteByte(esc))
			}
		case c < 0x20:
			return nil, d.fail(ErrSyntax, i, "control character "+jsonQuoteByte(c)+" in a string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fail(ErrInvalidUTF8, i, "")
			}
			buf = append(buf, data[i:i+size]...)
			i += size
		}
	}
	return nil, d.fail(ErrTruncated, start, "unterminated string")
}

// value reads the usual integers itself and hands every other number to number: for every
// spelling, in every context after it, and with and without WithSafeIntegers, the two must give
// the same value, error and end.
func TestJSONValueNumberAgrees(t *testing.T) {
	numbers := []string{"0", "-0", "7", "-7", "10", "-10", "01", "-01", "00", "-", "--1", "-a", "0.0", "-0.5",
		"1.", "1e2", "-1E2", "0e0", "1.5", "123456789012345678", "-123456789012345678", "1234567890123456789",
		"-1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"9007199254740991", "-9007199254740991", "9007199254740992", "-9007199254740992", "1-", "-0-"}
	for _, num := range numbers {
		for _, after := range []string{"", ",", "]", "}", " ", "x", "0", ".", "e"} {
			for _, safe := range []bool{false, true} {
				limits := DefaultLimits()
				limits.safeInts = safe
				in := []byte(num + after)
				quick := &jsonDecoder{data: in, limits: limits}
				full := &jsonDecoder{data: in, limits: limits}
				qv, qerr := quick.value()
				fv, ferr := full.number()
				if !reflect.DeepEqual(qv, fv) || fmt.Sprint(qerr) != fmt.Sprint(ferr) || quick.pos != full.pos && ferr == nil {
					t.Errorf("%q (safe %v): value gives %v, %v at %d; number gives %v, %v at %d",
						in, safe, qv, qerr, quick.pos, fv, ferr, full.pos)
				}
			}
		}
	}
}
