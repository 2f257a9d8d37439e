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
// array's level ends an element. (Other input gets no useful answer, but never a panic.) The keys of the open objects are views of data, on one stack
// of their own. (encoding/json's Token, which it used before, allocates for every token: 43 % of
// LoadDir's time on the Lexicons of atproto's repository.)
func duplicateKey(data []byte) (string, bool) {
	stack := make([]jsonLevel, 0, 16)
	var keys []jsonKey // the keys read so far of each object on stack, in turn
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			stack = append(stack, jsonLevel{object: data[i] == '{', keys: len(keys)})
		case '}', ']':
			if len(stack) == 0 {
				return "", false // not the valid JSON it is given; the caller has refused it
			}
			keys = keys[:stack[len(stack)-1].keys]
			stack = stack[:len(stack)-1]
		case ',':
			if len(stack) == 0 {
				return "", false // as above
			}
			if top := &stack[len(stack)-1]; !top.object {
				top.index++
			}
		case '"':
			start := i
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++ // the escaped byte, a quote perhaps
				}
			}
			if i >= len(data) {
				return "", false // as above: a string that does not end
			}
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j == len(data) || data[j] != ':' || len(stack) == 0 {
				continue // a string value (or, as above, not valid JSON)
			}
			key := newJSONKey(data[start : i+1])
			top := &stack[len(stack)-1]
			if top.has(keys[top.keys:], key) {
				return jsonPointer(stack, key.String()), true
			}
			keys = append(keys, key)
			top.key = key
		}
	}
	return "", false
}

// jsonLevel is an object or array that duplicateKey is in.
type jsonLevel struct {
	object bool
	key    jsonKey             // the member being read, in an object
	keys   int                 // where the object's keys start on duplicateKey's stack of keys
	set    map[string]struct{} // the same keys, once there are more than a few
	index  int                 // the element being read, in an array
}

// jsonKey is a key of an object, as the decoded map holds it: its bytes in the document when they
// are the key (no escapes, valid UTF-8, as nearly every key is), decoded otherwise.
type jsonKey struct {
	raw     []byte // the key's bytes, between its quotes
	decoded string // the key, when raw is not
	plain   bool   // raw is the key
}

// newJSONKey returns the key of quoted, a key's JSON string, quotes included.
func newJSONKey(quoted []byte) jsonKey {
	raw := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return jsonKey{raw: raw, plain: true}
	}
	// "\u0061" is the key "a", and a byte of no UTF-8 sequence is U+FFFD, as in the decoded
	// map. Valid JSON, as encoding/json has read it.
	var s string
	_ = json.Unmarshal(quoted, &s)
	return jsonKey{decoded: s}
}

// String returns the key.
func (k jsonKey) String() string {
	if k.plain {
		return string(k.raw)
	}
	return k.decoded
}

func (k jsonKey) equal(o jsonKey) bool {
	if k.plain && o.plain {
		return bytes.Equal(k.raw, o.raw)
	}
	return k.String() == o.String()
}

// has reports whether key is among before, the keys of the object before it. An object's first
// keys are compared in turn, the rest looked up in a map: linear in the keys, whatever their
// number.
func (l *jsonLevel) has(before []jsonKey, key jsonKey) bool {
	if len(before) < 16 {
		for _, k := range before {
			if k.equal(key) {
				return true
			}
		}
		return false
	}
	if l.set == nil {
		l.set = make(map[string]struct{}, 2*len(before))
		for _, k := range before {
			l.set[k.String()] = struct{}{}
		}
	} else {
		l.set[before[len(before)-1].String()] = struct{}{}
	}
	_, ok := l.set[key.String()]
	return ok
}

// jsonPointer is the JSON Pointer of the member key of the innermost level of stack.
func jsonPointer(stack []jsonLevel, key string) string {
	var b []byte
	for _, l := range stack[:len(stack)-1] {
		b = append(b, '/')
		if l.object {
			b = append(b, escapeToken(l.key.String())...)
		} else {
			b = strconv.AppendInt(b, int64(l.index), 10)
		}
	}
	return string(b) + "/" + escapeToken(key)
}
