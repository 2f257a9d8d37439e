// Package echo holds the one way the module's syntax errors quote what they reject: a bounded
// copy of the input, cut on a UTF-8 boundary, and a message of the form
//
//	invalid <kind> "<input>": <reason>
//
// Every identifier package (tid, rkey, nsid, did, handle, …) builds its Error with it, so that
// errors read the same everywhere and a huge hostile input is neither kept alive nor echoed back.
package echo

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is the most bytes of an input that an error keeps and prints.
const Max = 64

// Clip returns a copy of at most Max bytes of s. The copy lets a huge input be collected while
// the error lives on; the cut moves back so as not to split a UTF-8 sequence.
func Clip(s string) string {
	if len(s) <= Max {
		return strings.Clone(s)
	}
	// If s[i] starts a character, s[:i] ends on a whole one. Invalid UTF-8 (no start byte
	// nearby) is cut at Max: the quoting escapes it byte by byte anyway.
	cut := Max
	for i := Max; i > Max-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			cut = i
			break
		}
	}
	return strings.Clone(s[:cut])
}

// QuoteAt renders the character that starts at s[i] for a message: a quoted rune, escaped to
// ASCII ('/', '\x00', '\u00e9'), or the lone byte ('\xff') when s[i:] is not valid UTF-8.
func QuoteAt(s string, i int) string {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf(`'\x%02x'`, s[i])
	}
	return strconv.QuoteRuneToASCII(r)
}

// Message formats "invalid <kind> <quoted clip>: <reason>", where clip is what Clip kept of an
// input of n bytes; a cut input is marked with "… (n bytes)".
func Message(kind, clip string, n int, reason string) string {
	var b strings.Builder
	b.Grow(len("invalid ") + len(kind) + len(clip) + len(reason) + 24)
	b.WriteString("invalid ")
	b.WriteString(kind)
	b.WriteByte(' ')
	b.WriteString(strconv.QuoteToASCII(clip))
	if len(clip) < n {
		fmt.Fprintf(&b, "… (%d bytes)", n)
	}
	b.WriteString(": ")
	b.WriteString(reason)
	return b.String()
}

// Quote renders a part of an input for a reason ("method %s is not plc"): at most Max bytes of
// it, escaped to ASCII, with "…" after a cut, so that a reason stays bounded however long the
// part is (the whole input is already echoed, bounded, by Message).
func Quote(part string) string {
	if len(part) <= Max {
		return strconv.QuoteToASCII(part)
	}
	return strconv.QuoteToASCII(Clip(part)) + "…"
}

// MaxPath is the most bytes of a JSON Pointer that QuotePath prints whole.
const MaxPath = 4 * Max

// QuotePath quotes a JSON Pointer for an error message: whole when it has at most MaxPath bytes,
// else its first and last MaxPath/2 bytes (cut on UTF-8 boundaries) around "…", so that a
// message stays bounded when a key is huge (an 8 KiB key, or a megabyte one in a Go map being
// encoded) while showing where the path starts and the member it ends at. The error's Path field
// keeps the whole pointer.
func QuotePath(path string) string {
	if len(path) <= MaxPath {
		return strconv.Quote(path)
	}
	head := path[:MaxPath/2]
	for len(head) > 0 && !utf8.RuneStart(path[len(head)]) {
		head = head[:len(head)-1]
	}
	tail := len(path) - MaxPath/2
	for tail < len(path) && !utf8.RuneStart(path[tail]) {
		tail++
	}
	return strconv.Quote(head+"…"+path[tail:]) + " (" + strconv.Itoa(len(path)) + " bytes)"
}
