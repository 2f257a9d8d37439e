package datamodel

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// jsonSamePaths decodes in with the quick object path (UnmarshalJSON) and with the careful path
// alone, and fails unless both give the same value or the same error, down to offset, path and
// detail.
func jsonSamePaths(t *testing.T, in []byte, limits Limits) {
	t.Helper()
	quick, qerr := unmarshalJSON(in, limits, false)
	careful, cerr := unmarshalJSON(in, limits, true)
	if !reflect.DeepEqual(quick, careful) {
		t.Fatalf("values differ:\nquick   %#v\ncareful %#v", quick, careful)
	}
	if (qerr == nil) != (cerr == nil) {
		t.Fatalf("errors differ: quick %v, careful %v", qerr, cerr)
	}
	if qerr == nil {
		return
	}
	var qe, ce *Error
	if !errors.As(qerr, &qe) || !errors.As(cerr, &ce) {
		t.Fatalf("errors are not *Error: %T %T", qerr, cerr)
	}
	if *qe != *ce {
		t.Fatalf("errors differ:\nquick   %+v\ncareful %+v", *qe, *ce)
	}
}

// The quick path hands over to the careful one (or starts the decode again with it) for every
// case it does not decide itself; each row is such a case, and results and errors must not
// depend on which path read them.
func TestUnmarshalJSONQuickPathMatchesCareful(t *testing.T) {
	link := `{"$link":"` + jsonTestCBORCID + `"}`
	blob := `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"a/b","size":1}`
	legacy := `{"cid":"` + jsonTestRawCID + `","mimeType":"image/png"}`
	small := Limits{MaxDepth: 3, MaxElements: 4, MaxKeyLen: 5, MaxJSONSize: 300}
	shortCIDs := DefaultLimits()
	shortCIDs.MaxCIDLen = 8
	tests := []struct {
		rule   string
		in     string
		limits *Limits
	}{
		{"empty object", `{}`, nil},
		{"nested objects and arrays", `{"a":{"b":[{"c":1},{"d":[]}]},"e":"f"}`, nil},
		{"rule 10: $link object is a Link", `{"x":` + link + `}`, nil},
		{"rule 10: $link with a second key", `{"x":{"$link":"` + jsonTestCBORCID + `","y":1}}`, nil},
		{"rule 10: $link as the second key", `{"x":{"y":1,"$link":"` + jsonTestCBORCID + `"}}`, nil},
		{"rule 10: $link then a syntax error", `{"x":{"$link":"` + jsonTestCBORCID + `" 1}}`, nil},
		{"rule 10: $link not a string", `{"x":{"$link":7}}`, nil},
		{"rule 10: $link bogus CID", `{"x":{"$link":"bafy"}}`, nil},
		{"rule 10: $bytes object is Bytes", `{"x":{"$bytes":"AQI"}}`, nil},
		{"rule 10: $bytes with padding", `{"x":{"$bytes":"AQI="}}`, nil},
		{"rule 10: $bytes empty", `{"x":{"$bytes":""}}`, nil},
		{"rule 10: $bytes spelled with escapes", `{"x":{"$bytes":"\/w\u0041"}}`, nil},
		{"rule 10: $bytes with an escaped newline", `{"x":{"$bytes":"AQ\nI"}}`, nil},
		{"rule 10: $bytes with an escaped carriage return", `{"x":{"$bytes":"AQ\rI"}}`, nil},
		{"rule 10: $bytes not base64", `{"x":{"$bytes":"A"}}`, nil},
		{"rule 10: $bytes not a string", `{"x":{"$bytes":[1]}}`, nil},
		{"rule 10: $bytes unterminated", `{"x":{"$bytes":"AQI`, nil},
		{"rule 10: $bytes then spaces", `{"x":{"$bytes":"AQI"  }}`, nil},
		{"rule 10: $link spelled with escapes", `{"x":{"$link":"\u0062` + jsonTestCBORCID[1:] + `"}}`, nil},
		{"rule 10: $link then spaces", `{"x":{"$link":"` + jsonTestCBORCID + `" }}`, nil},
		{"rule 10: $link longer than MaxCIDLen", `{"x":` + link + `}`, &shortCIDs},
		{"rule 10: $bytes with a second key", `{"x":{"$bytes":"AQI","y":1}}`, nil},
		{"rule 10: $bytes as the second key", `[{"y":1,"$bytes":"AQI"}]`, nil},
		{"rule 10: duplicate $link", `{"$link":"` + jsonTestCBORCID + `","$link":"` + jsonTestCBORCID + `"}`, nil},
		{"rule 11: $type valid", `{"$type":"app.bsky.feed.like","a":1}`, nil},
		{"rule 11: $type empty", `{"a":[{"b":{"$type":""}}]}`, nil},
		{"rule 11: $type number, later key", `{"a":1,"$type":7}`, nil},
		{"rule 11: $type invalid, then a syntax error", `{"$type":7,"a":tru}`, nil},
		{"rule 13: blob", `{"image":` + blob + `}`, nil},
		{"rule 13: blob with $type not first", `{"ref":{"$link":"` + jsonTestRawCID + `"},"$type":"blob","mimeType":"a/b","size":1}`, nil},
		{"rule 13: blob with an extra key", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"a/b","size":1,"x":{}}`, nil},
		{"rule 13: blob inside a blob", `{"$type":"blob","ref":` + blob + `,"mimeType":"a/b","size":1}`, nil},
		{"rule 13: legacy blob", `{"avatar":` + legacy + `}`, nil},
		{"rule 13: legacy shape with a non-canonical CID stays a map", `{"cid":"bafy","mimeType":"image/png"}`, nil},
		{"rule 13: cid and another key stays a map", `{"cid":"` + jsonTestRawCID + `","x":"image/png"}`, nil},
		{"RFC 8259: duplicate key", `{"a":1,"a":2}`, nil},
		{"RFC 8259: duplicate key, then a syntax error", `{"a":1,"a":2,"b":}`, nil},
		{"RFC 8259: duplicate key deep inside", `[1,{"x":{"y":{"a":1,"b":2,"a":3}}}]`, nil},
		{"RFC 8259: duplicate key in a large object", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10}`, nil},
		{"RFC 8259: duplicate key among the members past the eighth", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"i":11}`, nil},
		{"large objects nested in the members past the eighth", jsonWide(12, jsonWide(10, jsonWide(9, "[]"))), nil},
		{"large object, then a syntax error", jsonWide(20, "1")[:60] + "}", nil},
		{"large object, then a duplicate in an inner one", jsonWide(11, `{"x":1,"x":2}`), nil},
		{"RFC 8259: duplicate key in every level", jsonNested(`{"a":1,"a":`, "}", 30, "{}"), nil},
		{"RFC 8259: duplicate spelled with an escape", `{"a":1,"\u0061":2}`, nil},
		{"RFC 8259: missing colon", `{"a" 1}`, nil},
		{"RFC 8259: trailing comma", `{"a":1,}`, nil},
		{"RFC 8259: unterminated object", `{"a":1`, nil},
		{"rule 14: depth 32 objects", jsonNested(`{"a":`, "}", 31, "{}"), nil},
		{"rule 14: depth 33 objects", jsonNested(`{"a":`, "}", 32, "{}"), nil},
		{"rule 14: $link just below the depth limit", jsonNested(`{"a":`, "}", 32, link), nil},
		{"rule 14: blob at the depth limit", jsonNested("[", "]", 31, blob), nil},
		{"rule 14: custom limits, too many members", `{"a":1,"b":2,"c":3,"d":4,"e":5}`, &small},
		{"rule 14: custom limits, key too long", `{"a":{"abcdef":1}}`, &small},
		{"rule 14: custom limits, depth", `{"a":{"b":{"c":{}}}}`, &small},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			limits := DefaultLimits()
			if tc.limits != nil {
				limits = *tc.limits
			}
			jsonSamePaths(t, []byte(tc.in), limits)
		})
	}
	for _, name := range recordNames {
		t.Run("record "+name, func(t *testing.T) {
			js, _ := readRecord(t, name)
			jsonSamePaths(t, js, DefaultLimits())
		})
	}
	for _, file := range []string{"data-model-fixtures.json", "data-model-valid.json", "data-model-invalid.json"} {
		for _, c := range interopCases(t, file) {
			t.Run(file+" "+c.Note, func(t *testing.T) { jsonSamePaths(t, c.JSON, DefaultLimits()) })
		}
	}
}

// jsonWide is an object of n members k0, k1, … whose values are all v.
func jsonWide(n int, v string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + v)
	}
	b.WriteByte('}')
	return b.String()
}

// Map keys come from a cache that outlives one decode and overwrites its slots: many distinct
// keys, keys that collide and keys read again must all come back as written.
func TestUnmarshalJSONKeyCache(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("[")
	for round := range 3 {
		if round > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("{")
		for i := range 1000 {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
		}
		sb.WriteString("}")
	}
	sb.WriteString("]")
	for range 2 { // the second decode may reuse the first one's cache
		v, err := UnmarshalJSON([]byte(sb.String()))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range v.([]any) {
			m := m.(map[string]any)
			if len(m) != 1000 {
				t.Fatalf("%d keys, want 1000", len(m))
			}
			for i := range 1000 {
				if got := m["k"+strconv.Itoa(i)]; got != int64(i) {
					t.Fatalf("k%d = %v", i, got)
				}
			}
		}
	}
}

// A key read again within one decode costs no allocation: 100 objects with the same key cost
// their maps (the map and its first group: 2 allocations each) and a few slabs, not a key each.
func TestUnmarshalJSONRepeatedKeysAllocs(t *testing.T) {
	in := []byte("[" + strings.Repeat(`{"createdAt":1},`, 99) + `{"createdAt":1}]`)
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := UnmarshalJSON(in); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2*100+8 {
		t.Errorf("%v allocations for 100 one-key objects, want at most %d", allocs, 2*100+8)
	}
}

// An object with thousands of distinct keys (a wide map) is re-made larger as it is read
// (regrow), and its keys past the caches' budget are carved from the arena: the result is the
// careful path's, a duplicate key is found before and after each re-make, and the keys cost no
// allocation each.
func TestUnmarshalJSONWideObject(t *testing.T) {
	wide := func(n int, dup int) []byte {
		var sb strings.Builder
		sb.WriteString(`{"before":[1,2],"m":{`)
		for i := range n {
			if i > 0 {
				sb.WriteString(",")
			}
			k := i
			if i == n-1 && dup >= 0 {
				k = dup
			}
			// Short keys, 9-to-15-byte keys and escaped keys take the three key paths.
			switch k % 3 {
			case 0:
				sb.WriteString(`"k` + strconv.Itoa(k) + `"`)
			case 1:
				sb.WriteString(`"long-key-` + strconv.Itoa(k) + `"`)
			default:
				sb.WriteString(`"\u00e9-` + strconv.Itoa(k) + `"`)
			}
			sb.WriteString(":" + strconv.Itoa(k*1000))
		}
		sb.WriteString(`},"after":"x"}`)
		return []byte(sb.String())
	}
	for _, n := range []int{127, 128, 129, 1025, 5000} {
		jsonSamePaths(t, wide(n, -1), DefaultLimits())
		for _, dup := range []int{0, n / 2, n - 2} {
			in := wide(n, dup)
			jsonSamePaths(t, in, DefaultLimits())
			if _, err := UnmarshalJSON(in); !errors.Is(err, ErrDuplicateKey) {
				t.Fatalf("n=%d, key %d twice: %v, want ErrDuplicateKey", n, dup, err)
			}
		}
	}
	in := wide(4096, -1)
	v, err := UnmarshalJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	if m := v.(map[string]any)["m"].(map[string]any); len(m) != 4096 || m["long-key-4093"] != int64(4093000) || m["é-4094"] != int64(4094000) {
		t.Fatalf("%d keys; long-key-4093 = %v, é-4094 = %v", len(m), m["long-key-4093"], m["é-4094"])
	}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := UnmarshalJSON(in); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4096/8 {
		t.Errorf("%v allocations for an object of 4096 distinct keys, want at most %d", allocs, 4096/8)
	}
}

// The decoded strings share chunks of a string arena (carve): neighbouring strings, escaped or
// not, keys included, and strings read twice (a blob read again by the careful path) must come
// back as written, and overwriting the input after the decode must change nothing in the result
// (UnmarshalJSON's doc). TestUnmarshalJSONNoAlias does the same across chunks and paths.
func TestUnmarshalJSONStringsShareArena(t *testing.T) {
	inputs := []string{
		`["a\"b","c","\u00e9\u00e9","x\\y","\ud83d\ude00!","plain","\n"]`,
		`{"k\u0031":"v\u0031","k2":"v2","long-key-\u0041BC":"\t\"q\"","\u00e9":["\u00e8",{"x":"\/"}]}`,
		`{"a":"\u00e9t\u00e9","b":"ok","c":{"d":"\"","e":"again"}}`,
		`{"$type":"app.example.\u0074ype","text":"h\u00e9llo","cid":"bafy\u0020x","mimeType":"image/png"}`,
	}
	for _, in := range inputs {
		var want any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		buf := []byte(in)
		got, err := UnmarshalJSON(buf)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		for i := range buf {
			buf[i] = 'Z'
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v (encoding/json), after overwriting the input", in, got, want)
		}
	}
	// A blob whose size is written 1.0 is read again by the careful path, mime type included.
	in := []byte(`[{"$type":"blob","mimeType":"image\/p\u006eg","ref":{"$link":"` + jsonTestRawCID + `"},"size":1.0},"n\u00e9xt"]`)
	got, err := UnmarshalJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i] = 'Z'
	}
	if b, ok := got.([]any)[0].(Blob); !ok || b.MimeType != "image/png" || b.Size != 1 || got.([]any)[1] != "néxt" {
		t.Errorf("got %#v", got)
	}
}

// jsonSpecial8 flags, as its lowest flag, exactly the first byte of a word that the byte-wise
// scan (jsonPlain) would stop at: every byte value, at every position, behind plain bytes (and
// the other fills of eachTestWord) or in front of any other byte.
func TestJSONSpecial8(t *testing.T) {
	special := func(b byte) bool { return !jsonPlain[b] }
	eachTestWord(wordEdgeFills, func(w [8]byte) {
		if got, want := firstFlagged(jsonSpecial8(binary.LittleEndian.Uint64(w[:]))), firstOf(w, special); got != want {
			t.Fatalf("word %q: first special byte at %d, want %d", w[:], got, want)
		}
	})
}
