package lexicon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// JSON of a Lexicon document, under what the parser reads: where a syntax error is, and keys
// that appear twice in one object, which encoding/json lets the last one win.

// jsonError explains err, encoding/json's error for the document data, with the line and column
// of a syntax error (whose offset encoding/json gives only as a field, counting the bad byte).
func jsonError(data []byte, err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%v, at %s", err, lineCol(data, syn.Offset-1))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Sprintf("the document ends early, at %s", lineCol(data, int64(len(data))))
	}
	return err.Error()
}

// lineCol names the byte offset off of data as "line L, column C (byte off)", counting from 1,
// columns in bytes.
func lineCol(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := off - int64(bytes.LastIndexByte(before, '\n'))
	return fmt.Sprintf("line %d, column %d (byte %d)", line, col, off)
}

// duplicateKey returns the JSON Pointer of the first key that appears twice in one object of
// data, a single JSON value that encoding/json has already decoded without error, and whether
// there is one. It walks the bytes once, with a stack of its own rather than recursion, and
// relies on data being valid JSON: a string followed by a colon is a key, and a comma at an
// array's level ends an element. (encoding/json's Token, which it used before, allocates for
// every token: 43 % of LoadDir's time on the Lexicons of atproto's repository.)
func duplicateKey(data []byte) (string, bool) {
	var stack []jsonLevel
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			stack = append(stack, jsonLevel{object: data[i] == '{'})
		case '}', ']':
			stack = stack[:len(stack)-1]
		case ',':
			if top := &stack[len(stack)-1]; !top.object {
				top.index++
			}
		case '"':
			start := i
			for i++; data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++ // the escaped byte, a quote perhaps
				}
			}
			raw := data[start : i+1]
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j == len(data) || data[j] != ':' {
				continue // a string value
			}
			key := string(raw[1 : len(raw)-1])
			if bytes.IndexByte(raw, '\\') >= 0 || !utf8.ValidString(key) {
				// As the key of the decoded map: "\u0061" is "a", and a byte of no UTF-8
				// sequence is U+FFFD. Valid JSON, as encoding/json has read it.
				_ = json.Unmarshal(raw, &key)
			}
			top := &stack[len(stack)-1]
			if top.has(key) {
				return jsonPointer(stack, key), true
			}
			top.key = key
		}
	}
	return "", false
}

// jsonLevel is an object or array that duplicateKey is in.
type jsonLevel struct {
	object bool
	key    string              // the member being read, in an object
	keys   []string            // the keys before it
	set    map[string]struct{} // the same, once there are more than a few
	index  int                 // the element being read, in an array
}

// has reports whether key was a key of the object before, and notes it as one. An object's
// first keys are compared in a slice, the rest looked up in a map: linear in the keys, whatever
// their number.
func (l *jsonLevel) has(key string) bool {
	if l.set == nil && len(l.keys) < 16 {
		for _, k := range l.keys {
			if k == key {
				return true
			}
		}
		l.keys = append(l.keys, key)
		return false
	}
	if l.set == nil {
		l.set = make(map[string]struct{}, 2*len(l.keys))
		for _, k := range l.keys {
			l.set[k] = struct{}{}
		}
	}
	if _, ok := l.set[key]; ok {
		return true
	}
	l.set[key] = struct{}{}
	return false
}

// jsonPointer is the JSON Pointer of the member key of the innermost level of stack.
func jsonPointer(stack []jsonLevel, key string) string {
	var b []byte
	for _, l := range stack[:len(stack)-1] {
		b = append(b, '/')
		if l.object {
			b = append(b, escapeToken(l.key)...)
		} else {
			b = strconv.AppendInt(b, int64(l.index), 10)
		}
	}
	return string(b) + "/" + escapeToken(key)
}
