package datamodel

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/utf8v"
)

// JSON lexing, under the value layer: whitespace, strings and numbers, as the decoder meets them.
//
//   - skipSpace, skipSpaceRun: whitespace, word at a time through indentation.
//   - jsonSpecial8 and the word constants: the bytes a string must stop at, eight at a time.
//   - jsonStop8, jsonTextRun: the bytes a string must stop at when it holds text that is not ASCII.
//   - string, stringRest, escapedString, hex4: a string's bytes, unescaped, checked as UTF-8.
//   - number, jsonExactInt: numbers read exactly into int64 (DECISIONS rule 10).

// skipSpace skips whitespace. Most calls find none; skipSpace is listed in inlining_test.go.
func (d *jsonDecoder) skipSpace() {
	if d.pos < len(d.data) && d.data[d.pos] > ' ' {
		return
	}
	d.skipSpaceRun()
}

// skipSpaceRun skips whitespace, eight spaces at a time through the indentation of
// pretty-printed input. Not inlined, so that skipSpace is.
//
//go:noinline
func (d *jsonDecoder) skipSpaceRun() {
	data, i := d.data, d.pos
	if i+9 <= len(data) && data[i] == '\n' {
		// The usual run in pretty-printed JSON: a newline and the indentation, eight spaces at a
		// time (a record nested 30 levels deep is indented by 60 or more).
		// The loop walks a slice rather than an index, so that the word load needs no bounds
		// check of its own (about half the loop's instructions before). The slice's capacity is
		// its length and the loop runs while more than eight bytes are left, so rest[8:] never
		// points past the end and the compiler adds no fix-up of the pointer at each step (the
		// last word goes to the byte loop below). (deep.json: 122.5K -> 117.8K instructions per
		// decode with the same change in string, counted over the whole process, which moves by
		// several percent between runs: no firm evidence.)
		rest := data[i+1 : len(data) : len(data)]
		for len(rest) > 8 {
			if x := binary.LittleEndian.Uint64(rest) ^ jsonSpaces8; x != 0 {
				rest = rest[bits.TrailingZeros64(x)/8:]
				if rest[0] > ' ' {
					d.pos = len(data) - len(rest)
					return
				}
				break
			}
			rest = rest[8:]
		}
		i = len(data) - len(rest)
	}
	for i < len(data) {
		c := data[i]
		if c > ' ' {
			break
		}
		if c == ' ' && i+8 <= len(data) {
			// The bytes of x are zero where data has a space: skip as many as lead the word.
			if x := binary.LittleEndian.Uint64(data[i:]) ^ jsonSpaces8; x != 0 {
				i += bits.TrailingZeros64(x) / 8
			} else {
				i += 8
			}
			continue
		}
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	d.pos = i
}

// Word-at-a-time constants: a byte repeated in each of the 8 bytes of a uint64.
const (
	jsonOnes8   = 0x0101010101010101
	jsonHighs8  = 0x8080808080808080
	jsonSpaces8 = ' ' * jsonOnes8
)

// jsonSpecial8 has the high bit set in the lowest byte of x that is not plain (see jsonPlain): a
// control character, '"', '\\' or a byte of a multi-byte UTF-8 sequence. The bytes above it may be
// flagged falsely (borrows), which only matters to a caller that looks past the first.
func jsonSpecial8(x uint64) uint64 {
	// (lt|eq)&^x | x, on the high bits, is lt|eq|x: one operation fewer than writing both terms.
	return (jsonCtlQuote8(x) | ((x ^ '\\'*jsonOnes8) - jsonOnes8) | x) & jsonHighs8
}

// jsonCtlQuote8 finds control characters and '"' in one "below" test: x ^ 0x02 in every byte
// maps '"' (0x22) to 0x20 and 00..1F onto 00..1F (it flips a bit below 0x20), and sends no other
// byte below 0x21, so a byte of the result has its high bit set, borrows aside, where x has a
// control character or a quote. Two operations and one constant fewer than testing the two
// apart, in the word loops that find where a string's plain bytes end. Bytes of x that are not
// ASCII stay at 0x80 or above and borrow nothing; their high bits are the caller's to keep or
// mask. As with every such test a borrow can flag a byte above a true hit, never one below it.
func jsonCtlQuote8(x uint64) uint64 {
	return (x ^ 0x02*jsonOnes8) - 0x21*jsonOnes8
}

// jsonStop8 has the high bit set in the lowest byte of x that ends a run of string text: a
// control character, '"' or '\\'. Unlike jsonSpecial8 it lets the bytes of multi-byte UTF-8
// through (x's own high bits are masked out), so that text in another script is scanned a word
// at a time and validated in one call (see jsonTextRun). Bytes above the lowest flagged one may
// be flagged falsely (borrows).
func jsonStop8(x uint64) uint64 {
	return (jsonCtlQuote8(x) | ((x ^ '\\'*jsonOnes8) - jsonOnes8)) &^ x & jsonHighs8
}

// jsonTextRun checks the run of string text that starts at i, at a byte of a multi-byte UTF-8
// sequence, and returns the offset of the first byte after it: the first control character, '"'
// or '\\' at or after i, or len(data). The run is validated as a whole by internal/utf8v, which
// the CBOR decoder shares; bad is the offset of its first invalid sequence (the first offset at
// which utf8.DecodeRune, read from i, returns RuneError of size 1), or -1. A sequence cut short
// by the byte that ends the run is invalid there, as it is when read rune by rune.
func jsonTextRun(data []byte, i int) (end, bad int) {
	if n, ok := utf8v.JSONText(data[i:]); ok {
		return i + n, -1 // one pass; what follows finds the offset of an error
	}
	j := i
	for j+8 <= len(data) {
		if m := jsonStop8(binary.LittleEndian.Uint64(data[j:])); m != 0 {
			j += bits.TrailingZeros64(m) / 8
			break // the loop below stops at once
		}
		j += 8
	}
	for j < len(data) && data[j] >= 0x20 && data[j] != '"' && data[j] != '\\' {
		j++
	}
	if k := utf8v.FirstInvalid(data[i:j]); k >= 0 {
		return j, i + k
	}
	return j, -1
}

// jsonPlain marks the bytes that stand for themselves inside a string: printable ASCII other
// than '"' and '\\'. The scan loop skips runs of them with one table look-up per byte.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jsonPlainRun returns the offset of the first byte at or after i that is not plain (see
// jsonPlain), or len(data): eight bytes at a time, then one at a time.
func jsonPlainRun(data []byte, i int) int {
	for i+8 <= len(data) {
		if m := jsonSpecial8(binary.LittleEndian.Uint64(data[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(data) && jsonPlain[data[i]] {
		i++
	}
	return i
}

// string reads a string token starting at its opening quote and returns its unescaped bytes:
// a view of the input, or of d.buf when the string has escapes (valid until the next call; see
// carve for keeping either).
func (d *jsonDecoder) string() ([]byte, error) {
	start := d.pos
	data := d.data
	// The usual string, plain bytes up to the closing quote, in a loop of its own (no call): two
	// words a step while more than 16 bytes are left, walking a slice so that the loads need no
	// bounds check of their own and the steps no fix-up (see skipSpaceRun). Two words a step, so
	// that the loop's exit, which can mispredict when string lengths vary, comes in the first
	// step for a string shorter than 16 bytes (most keys and short values). Neither choice has a
	// measured gain behind it: the counts once quoted here were whole-process instruction counts,
	// which move by several percent between two runs of the same binary, and the differences
	// were smaller; timings on the shared machine did not resolve them either. The offset of the
	// first special byte is found without a branch: TrailingZeros64 of an empty word is 64, so t0
	// is 8 exactly when the first word has none, and only then does the second word's offset
	// count.
	rest := data[start+1 : len(data) : len(data)]
	for len(rest) > 16 {
		m0 := jsonSpecial8(binary.LittleEndian.Uint64(rest))
		m1 := jsonSpecial8(binary.LittleEndian.Uint64(rest[8:]))
		if m0|m1 == 0 {
			rest = rest[16:]
			continue
		}
		t0 := uint(bits.TrailingZeros64(m0)) / 8
		n := t0 + uint(bits.TrailingZeros64(m1))/8&-(t0>>3)
		if rest = rest[n:]; rest[0] == '"' {
			i := len(data) - len(rest)
			d.pos = i + 1
			return data[start+1 : i], nil
		}
		break
	}
	return d.stringRest(start, len(data)-len(rest))
}

// stringRest finishes the string that string began at start, from offset i: escapes, multi-byte
// UTF-8, errors and the last bytes of the input.
func (d *jsonDecoder) stringRest(start, i int) ([]byte, error) {
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
			return d.escapedString(start, i)
		case c < 0x20:
			return nil, d.fail(ErrSyntax, i, "control character "+jsonQuoteByte(c)+" in a string")
		default:
			j, bad := jsonTextRun(data, i)
			if bad >= 0 {
				return nil, d.fail(ErrInvalidUTF8, bad, "")
			}
			i = j
		}
	}
}

// escapedString finishes a string that holds escapes; i is the offset of the first backslash. It
// unescapes into d.buf. (No deferred write-back of the buffer: its closure and exit code made
// the function 0.9 KB larger, in a decoder whose code does not fit the instruction cache.)
func (d *jsonDecoder) escapedString(start, i int) ([]byte, error) {
	data := d.data
	buf := append(d.buf[:0], data[start+1:i]...)
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
			d.buf = buf[:0] // kept, grown, for the next string with escapes
			return buf, nil
		case c == '\\':
			if i+1 >= len(data) {
				return nil, d.fail(ErrTruncated, start, "unterminated string")
			}
			esc := data[i+1]
			i += 2
			if u := jsonUnescaped[esc]; u != 0 {
				buf = append(buf, u)
			} else if esc == 'u' {
				var err error
				if buf, i, err = d.unicodeEscape(buf, i); err != nil {
					return nil, err
				}
			} else {
				return nil, d.fail(ErrSyntax, i-2, "invalid escape "+jsonQuoteByte(esc))
			}
		case c < 0x20:
			return nil, d.fail(ErrSyntax, i, "control character "+jsonQuoteByte(c)+" in a string")
		default:
			j, bad := jsonTextRun(data, i)
			if bad >= 0 {
				return nil, d.fail(ErrInvalidUTF8, bad, "")
			}
			buf = append(buf, data[i:j]...)
			i = j
		}
	}
	return nil, d.fail(ErrTruncated, start, "unterminated string")
}

// jsonUnescaped maps the byte after a backslash to the byte it stands for, for the escapes of one
// byte (RFC 8259 §7); 0 for 'u' and for bytes that may not follow a backslash.
var jsonUnescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unicodeEscape appends the character of the \u escape whose four hex digits start at i, with
// the escaped low surrogate that must follow a high one, and returns the offset after it. Out of
// escapedString's loop, which it would double in size for an escape that record text seldom
// uses.
func (d *jsonDecoder) unicodeEscape(buf []byte, i int) ([]byte, int, error) {
	data := d.data
	r, err := d.hex4(i)
	if err != nil {
		return buf, i, err
	}
	i += 4
	if utf16.IsSurrogate(r) {
		// A high surrogate must be followed by an escaped low one (RFC 8259 §7); alone, either
		// half is not a character and has no UTF-8 form.
		if r >= 0xDC00 || i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return buf, i, d.fail(ErrInvalidUTF8, i-6, "lone surrogate "+string(data[i-6:i]))
		}
		lo, err := d.hex4(i + 2)
		if err != nil {
			return buf, i, err
		}
		if lo < 0xDC00 || lo > 0xDFFF {
			return buf, i, d.fail(ErrInvalidUTF8, i-6, "lone surrogate "+string(data[i-6:i]))
		}
		r = utf16.DecodeRune(r, lo)
		i += 6
	}
	return utf8.AppendRune(buf, r), i, nil
}

// hex4 reads the four hex digits of a \u escape at offset i.
func (d *jsonDecoder) hex4(i int) (rune, error) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(d.data) {
			return 0, d.fail(ErrTruncated, i-2, "incomplete \\u escape")
		}
		c := d.data[k]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, d.fail(ErrSyntax, i-2, "invalid \\u escape")
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// number reads a JSON number (RFC 8259 §6) as an exact int64 (DECISIONS rule 10).
func (d *jsonDecoder) number() (any, error) {
	data := d.data
	start := d.pos
	i := start
	neg := data[i] == '-'
	if neg {
		i++
	}
	intStart := i
	switch {
	case i >= len(data):
		return nil, d.fail(ErrTruncated, i, "expected a digit")
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return nil, d.fail(ErrSyntax, i, "expected a digit, found "+jsonQuoteByte(data[i]))
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < len(data) && data[i] == '.' {
		i++
		fracStart = i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		fracEnd = i
		if fracStart == fracEnd {
			return nil, d.digitExpected(i)
		}
	}
	exp, hasExp := 0, false
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		hasExp = true
		i++
		expNeg := false
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			expNeg = data[i] == '-'
			i++
		}
		expStart := i
		for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
			if exp < 1<<30 { // saturate: beyond this the value is out of range or zero anyway
				exp = exp*10 + int(data[i]-'0')
			}
		}
		if i == expStart {
			return nil, d.digitExpected(i)
		}
		if expNeg {
			exp = -exp
		}
	}
	if i < len(data) && data[i] >= '0' && data[i] <= '9' {
		return nil, d.fail(ErrSyntax, intStart, "leading zero")
	}
	d.pos = i
	if fracStart == fracEnd && !hasExp {
		// The common case: plain integer digits.
		digits := data[intStart:intEnd]
		if len(digits) <= 18 {
			var u int64
			for _, c := range digits {
				u = u*10 + int64(c-'0')
			}
			if neg {
				u = -u
			}
			if !d.limits.safeInts || isSafeInt(u) {
				return d.slabs.boxInt64(u), nil
			}
		}
	}
	n, err := jsonExactInt(neg, data[intStart:intEnd], data[fracStart:fracEnd], exp)
	if err == nil && d.limits.safeInts && !isSafeInt(n) {
		err = ErrUnsafeInteger // WithSafeIntegers
	}
	if err != nil {
		return nil, d.fail(err, start, clipNumber(data[start:i]))
	}
	return d.slabs.boxInt64(n), nil
}

// clipNumber quotes a refused number for an error's detail: whole when short, else its first
// echo.Max bytes and its length, so that a megabyte of digits does not make a megabyte of
// message, as the identifier packages quote what they refuse.
func clipNumber(text []byte) string {
	if len(text) <= echo.Max {
		return string(text)
	}
	return string(text[:echo.Max]) + "… (" + strconv.Itoa(len(text)) + " bytes)"
}

func (d *jsonDecoder) digitExpected(i int) error {
	if i >= len(d.data) {
		return d.failEnd("a digit")
	}
	return d.fail(ErrSyntax, i, "expected a digit, found "+jsonQuoteByte(d.data[i]))
}

// jsonExactInt computes ±(intDigits.fracDigits × 10^exp) exactly, or reports ErrFraction when the
// value is not an integer and ErrIntegerRange when it is outside int64.
func jsonExactInt(neg bool, intDigits, fracDigits []byte, exp int) (int64, error) {
	digit := func(k int) byte { // k-th digit of intDigits followed by fracDigits
		if k < len(intDigits) {
			return intDigits[k]
		}
		return fracDigits[k-len(intDigits)]
	}
	total := len(intDigits) + len(fracDigits)
	first := 0
	for first < total && digit(first) == '0' {
		first++
	}
	if first == total {
		return 0, nil // every spelling of zero, including -0 and 0e99
	}
	last := total // one past the last non-zero digit
	for digit(last-1) == '0' {
		last--
	}
	// value = digits[first:last] × 10^scale
	scale := exp - len(fracDigits) + (total - last)
	if scale < 0 {
		return 0, ErrFraction
	}
	if last-first+scale > 19 { // int64 has at most 19 digits
		return 0, ErrIntegerRange
	}
	var u uint64 // < 10^19 < 2^64: no overflow
	for k := first; k < last; k++ {
		u = u*10 + uint64(digit(k)-'0')
	}
	for ; scale > 0; scale-- {
		u *= 10
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), nil
	case !neg && u <= 1<<63-1:
		return int64(u), nil
	}
	return 0, ErrIntegerRange
}
