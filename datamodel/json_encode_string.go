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
// Strings of 4 to 32 bytes, most keys and many short values, first try jsonAppendShort, which
// tests and copies a fixed set of words instead of looping.
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

// jsonAppendShort appends s quoted when it is 4 to 32 bytes of ASCII with nothing to escape, and
// reports whether it did; if not, dst is returned as it was. Record keys and most short values
// (datetimes, DIDs, NSIDs) are such strings, and for them it replaces jsonPlainPrefix's loops and
// append's copy with a fixed set of loads and stores: up to four words that cover s, overlapping
// where s is shorter than 32 bytes, tested together and stored where they came from. The loops'
// exits and memmove's size classes depend on each string's length, which changes from one
// string to the next. On the follow record (six strings of 5 to 32 bytes) cachegrind's branch
// simulation counted 22 mispredicted branches a MarshalJSON before and 10 after (goccy/go-json
// 13), and 3 260 instructions before, 2 864 after (goccy 3 281); in turn with goccy on follow,
// three runs alternating builds, x-goccy went from 0.98-1.00 to 1.13-1.16.
func jsonAppendShort(dst []byte, s string) ([]byte, bool) {
	n := len(s)
	if uint(n-4) > 32-4 || cap(dst)-len(dst) < 32+2 {
		return dst, false
	}
	p := unsafe.Pointer(unsafe.StringData(s))
	l := len(dst)
	q := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l+1) // where s goes, within cap(dst)
	if n < 8 {
		// Two 4-byte words, at the start and at the end.
		w0, w1 := binary.LittleEndian.Uint32(at4(p, 0)[:]), binary.LittleEndian.Uint32(at4(p, n-4)[:])
		if jsonPlain8(uint64(w0)|uint64(w1)<<32) != 0 {
			return dst, false
		}
		binary.LittleEndian.PutUint32(at4(q, 0)[:], w0)
		binary.LittleEndian.PutUint32(at4(q, n-4)[:], w1)
	} else {
		// Words at 0, min(8, n-8), max(n-16, 0) and n-8 cover s: the first two its first 16
		// bytes or all of a shorter s, the last two its last 16.
		o1, o2 := min(8, n-8), max(n-16, 0)
		w0, w1 := binary.LittleEndian.Uint64(at8(p, 0)[:]), binary.LittleEndian.Uint64(at8(p, o1)[:])
		w2, w3 := binary.LittleEndian.Uint64(at8(p, o2)[:]), binary.LittleEndian.Uint64(at8(p, n-8)[:])
		if jsonPlain8(w0)|jsonPlain8(w1)|jsonPlain8(w2)|jsonPlain8(w3) != 0 {
			return dst, false
		}
		binary.LittleEndian.PutUint64(at8(q, 0)[:], w0)
		binary.LittleEndian.PutUint64(at8(q, o1)[:], w1)
		binary.LittleEndian.PutUint64(at8(q, o2)[:], w2)
		binary.LittleEndian.PutUint64(at8(q, n-8)[:], w3)
	}
	*(*byte)(unsafe.Add(q, -1)), *(*byte)(unsafe.Add(q, n)) = '"', '"'
	return dst[:l+n+2], true
}

// at8 and at4 are the 8 and 4 bytes at p+off, which the caller knows to be in one string or
// slice; read or written through encoding/binary, as one unaligned load or store where the
// machine has them.
func at8(p unsafe.Pointer, off int) *[8]byte { return (*[8]byte)(unsafe.Add(p, off)) }

func at4(p unsafe.Pointer, off int) *[4]byte { return (*[4]byte)(unsafe.Add(p, off)) }

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
