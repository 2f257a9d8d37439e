package lexicon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
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
// there is one. It reads data as tokens, with a stack of its own rather than recursion.
func duplicateKey(data []byte) (string, bool) {
	type level struct {
		keys    map[string]bool // nil in an array
		key     string          // the member being read, in an object
		index   int             // the element being read, in an array
		wantKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []level
	// pointer is the JSON Pointer of the value being read, with last as its final token.
	pointer := func(last string) string {
		var b []byte
		for _, l := range stack[:len(stack)-1] {
			b = append(b, '/')
			if l.keys != nil {
				b = append(b, escapeToken(l.key)...)
			} else {
				b = strconv.AppendInt(b, int64(l.index), 10)
			}
		}
		return string(b) + "/" + escapeToken(last)
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false // the end: Decode has reported any error already
		}
		if n := len(stack); n > 0 && stack[n-1].wantKey {
			top := &stack[n-1]
			if tok == json.Delim('}') {
				stack = stack[:n-1]
			} else {
				k, _ := tok.(string)
				if top.keys[k] {
					return pointer(k), true
				}
				top.keys[k], top.key, top.wantKey = true, k, false
				continue
			}
		} else {
			switch tok {
			case json.Delim('{'):
				stack = append(stack, level{keys: map[string]bool{}, wantKey: true})
				continue
			case json.Delim('['):
				stack = append(stack, level{})
				continue
			case json.Delim(']'):
				stack = stack[:len(stack)-1]
			}
		}
		// A value has ended (a scalar, or the container just closed): on to the next member
		// or element of the level around it.
		if n := len(stack); n > 0 {
			if stack[n-1].keys != nil {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
}
