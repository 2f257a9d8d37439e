package datamodel

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// How MarshalJSON writes strings (keys and values), 8 bytes at a time.
//
// A JSON string is written as it is except for '"', '\\' and the control characters, which are
// escaped (RFC 8259 §7), and it must be valid UTF-8 first. Record text is mostly ASCII with
// nothing to escape, so one pass finds the longest prefix that is both (jsonPlainPrefix): a
// string that is all of it is copied as it is, and is valid UTF-8 without a second pass; only the
// rest of a string that is not, from its first non-ASCII or escaped byte, is checked for UTF-8
// and scanned for bytes to escape (jsonEscapeIndex). Both scans test a word of 8 bytes with a few
// integer operations (jsonPlain8, jsonEscape8) and look at single bytes only within a word that
// has one. In jsonPlainPrefix a string of 8 bytes or more ends on a last word that overlaps the
// ones before, so that no tail is scanned byte by byte: the bytes it shares with them are known
// plain, so none of them can set off a borrow.
//
// Before (a per-byte table loop after utf8.ValidString), on the follow record (three short
// strings and three keys) the two scans took 1 700 of MarshalJSON's 4 600 instructions
// (cachegrind).

// jsonSafe marks the ASCII bytes that are written as themselves inside a JSON string.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Word-at-a-time constants: a byte repeated in each of the 8 bytes of a uint64.
const (
	jsonEncOnes8  = 0x0101010101010101
	jsonEncHighs8 = 0x8080808080808080
)

// jsonEscape8 has the high bit set in the lowest byte of x that must be escaped inside a JSON
// string (a control character, '"' or '\\') if there is one, and is zero if there is none. Each
// term is the "has a byte below n" test, exact as to whether there is one; a borrow can flag a
// byte above a true hit, never one below it.
func jsonEscape8(x uint64) uint64 {
	ctlQuote := x ^ 0x02*jsonEncOnes8 // control characters and '"' below 0x21 (see jsonCtlQuote8)
	backslash := x ^ '\\'*jsonEncOnes8
	return ((ctlQuote-0x21*jsonEncOnes8)&^ctlQuote | (backslash-jsonEncOnes8)&^backslash) & jsonEncHighs8
}

// jsonPlain8 is jsonEscape8 that also flags non-ASCII bytes: zero if the 8 bytes of x are ASCII
// with nothing to escape. Each "&^" of jsonEscape8 drops from the terms, since x's own high bits
// are flagged anyway: (lt|eq)&^x | x is lt|eq|x on the high bits.
func jsonPlain8(x uint64) uint64 {
	return (jsonCtlQuote8(x) | ((x ^ '\\'*jsonEncOnes8) - jsonEncOnes8) | x) & jsonEncHighs8
}

// jsonLoad8 returns the 8 bytes of s at i, little-endian (the first byte lowest); the caller has
// checked that i+8 <= len(s).
func jsonLoad8(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

// jsonPlainPrefix returns the length of the longest prefix of s that is ASCII with nothing to
// escape.
func jsonPlainPrefix(s string) int {
	if len(s) < 8 {
		if len(s) >= 4 {
			// Two 4-byte words, overlapping, cover the string: most keys are all plain.
			lo := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
			hi := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[len(s)-4:]), 4))
			if jsonPlain8(uint64(lo)|uint64(hi)<<32) == 0 {
				return len(s)
			}
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= utf8.RuneSelf || !jsonSafe[c] {
				return i
			}
		}
		return len(s)
	}
	// Word by word while more than eight bytes are left, walking a slice of s's bytes (read,
	// never written) whose capacity is its length: the loads need no bounds checks and the steps
	// no fix-up of the pointer (see the JSON decoder's skipSpaceRun; the loop indexing s took 28
	// instructions a word, this one 20).
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	for len(b) > 16 {
		// Two words a step while more than sixteen bytes are left: one test and one step of the
		// loop's upkeep for both. The loop below finds where in them a flagged byte is.
		if jsonPlain8(binary.LittleEndian.Uint64(b))|jsonPlain8(binary.LittleEndian.Uint64(b[8:])) != 0 {
			break
		}
		b = b[16:]
	}
	for len(b) > 8 {
		if m := jsonPlain8(binary.LittleEndian.Uint64(b)); m != 0 {
			return len(s) - len(b) + bits.TrailingZeros64(m)/8
		}
		b = b[8:]
	}
	// The last 8 bytes: those before them are plain, so the lowest flagged byte is the first.
	if m := jsonPlain8(jsonLoad8(s, len(s)-8)); m != 0 {
		return len(s) - 8 + bits.TrailingZeros64(m)/8
	}
	return len(s)
}

// jsonEscapeIndex returns the index of the first byte at or after i in s that must be escaped,
// or len(s).
func jsonEscapeIndex(s string, i int) int {
	// A slice walked as in jsonPlainPrefix.
	b := unsafe.Slice(unsafe.StringData(s), len(s))[i:]
	for len(b) > 8 {
		if m := jsonEscape8(binary.LittleEndian.Uint64(b)); m != 0 {
			return len(s) - len(b) + bits.TrailingZeros64(m)/8
		}
		b = b[8:]
	}
	// Not the overlapping last word here: a byte before i may be one just escaped, whose borrow
	// could flag the byte after it falsely.
	for i = len(s) - len(b); i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && !jsonSafe[c] {
			return i
		}
	}
	return len(s)
}

// jsonAppendQuoted appends s, valid UTF-8, as a JSON string: quotes, backslashes and control
// characters escaped (RFC 8259 §7), everything else, including non-ASCII, as it is.
func jsonAppendQuoted(dst []byte, s string) []byte {
	return jsonAppendQuotedFrom(dst, s, jsonPlainPrefix(s))
}

// jsonAppendQuotedFrom is jsonAppendQuoted for a string whose first n bytes need no escaping.
func jsonAppendQuotedFrom(dst []byte, s string, n int) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	if n == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	last := 0
	for i := jsonEscapeIndex(s, n); i < len(s); i = jsonEscapeIndex(s, i+1) {
		dst = append(dst, s[last:i]...)
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		last = i + 1
	}
	dst = append(dst, s[last:]...)
	return append(dst, '"')
}
