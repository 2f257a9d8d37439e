package lexicon

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzDuplicateKey: duplicateKey, which walks the bytes, finds the same first duplicate key, at
// the same pointer, as duplicateKeyTokens, a reading by encoding/json's tokens (its first
// version), on every valid JSON value.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{
		`{"a": 1, "b": {"a": [1, {"c": 2, "c": 3}]}}`,
		`{"k": 1, "\u006b": 2}`,
		`{"a\"": 1, "a\\": 2, "a\"": 3}`,
		`[{"x": [], "y": {}}, {"x": "a:b", "y": ":", "x": 0}]`,
		`{"s": "\"", "t": "}", "u": "]", "v": ",", "s": 1}`,
		`{"x~/": {"y": 1}, "z": {"y": 1, "y": 2}}`,
		` [ 1 , "a" , { "b" : 1 , "c" :2, "b":3 } ] `,
		`"just a string"`,
		`""}`, `"a"]`, `{"a": 1}}`, `{"a`, `"a":`, `,`, `{"a\`,
	} {
		f.Add([]byte(s))
	}
	docs, _ := filepath.Glob(filepath.Join("..", "..", "shared", "lexicons", "app", "bsky", "feed", "*.json"))
	for _, p := range docs {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	// Many keys, past the slice into the map.
	var many bytes.Buffer
	many.WriteString("{")
	for i := range 40 {
		many.WriteString(`"k` + strconv.Itoa(i) + `": 1, `)
	}
	many.WriteString(`"k7": 2}`)
	f.Add(many.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		ptr, dup := duplicateKey(data) // never a panic, whatever data is
		if !json.Valid(data) {
			return
		}
		wantPtr, wantDup := duplicateKeyTokens(data)
		if ptr != wantPtr || dup != wantDup {
			t.Errorf("%s:\nduplicateKey %q, %v\nby tokens    %q, %v", data, ptr, dup, wantPtr, wantDup)
		}
	})
}

// duplicateKeyTokens is duplicateKey's first version, which reads data as encoding/json's tokens:
// FuzzDuplicateKey's reference.
func duplicateKeyTokens(data []byte) (string, bool) {
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
