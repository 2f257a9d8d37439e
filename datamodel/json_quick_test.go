package datamodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The quick blob path (quickBlob) decodes a blob without a map; whatever it meets, the result or
// the error must be the careful path's. Each row is a blob spelled the way quickBlob takes, or
// one of the ways it must hand over; want is the Blob expected at /b when the input is valid.
func TestUnmarshalJSONQuickBlob(t *testing.T) {
	ref := `{"$link":"` + jsonTestRawCID + `"}`
	want := Blob{Ref: jsonTestLink(t, jsonTestRawCID), MimeType: "image/png", Size: 42}
	tiny := func(f func(*Limits)) *Limits { l := DefaultLimits(); f(&l); return &l }
	tests := []struct {
		rule   string
		blob   string // the value at /b
		limits *Limits
		want   *Blob // nil: the careful path decides (error or other value)
	}{
		{"rule 13: blob, writer's order", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42}`, nil, &want},
		{"rule 13: blob, sorted order", `{"$type":"blob","mimeType":"image/png","ref":` + ref + `,"size":42}`, nil, &want},
		{"rule 13: blob, size before ref", `{"$type":"blob","size":42,"mimeType":"image/png","ref":` + ref + `}`, nil, &want},
		{"rule 13: blob, pretty-printed", "{\n  \"$type\" : \"blob\" ,\n  \"ref\" : { \"$link\" : \"" + jsonTestRawCID +
			"\" } ,\n\t\"mimeType\":\"image/png\",\r\n  \"size\": 42\n}", nil, &want},
		{"rule 13: size 0", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":0}`, nil,
			&Blob{Ref: want.Ref, MimeType: "image/png"}},
		{"rule 13: size of 18 digits", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":999999999999999999}`, nil,
			&Blob{Ref: want.Ref, MimeType: "image/png", Size: 999999999999999999}},
		{"rule 10: size of 19 digits is exact", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":9223372036854775807}`, nil,
			&Blob{Ref: want.Ref, MimeType: "image/png", Size: 9223372036854775807}},
		{"rule 10: size beyond int64", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":9223372036854775808}`, nil, nil},
		{"rule 10: size 42.0 is an integer", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42.0}`, nil, &want},
		{"rule 10: size 4.2e1 is an integer", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":4.2e1}`, nil, &want},
		{"rule 10: size 4.25", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":4.25}`, nil, nil},
		{"RFC 8259: size with a leading zero", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":042}`, nil, nil},
		{"rule 13: negative size", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":-1}`, nil, nil},
		{"rule 13: size a string", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":"42"}`, nil, nil},
		{"RFC 8259: escaped key and mimeType", `{"$type":"blob","r\u0065f":` + ref + `,"mimeType":"image\/png","size":42}`, nil, &want},
		{"RFC 8259: escaped $link key", `{"$type":"blob","ref":{"\u0024link":"` + jsonTestRawCID + `"},"mimeType":"image/png","size":42}`, nil, &want},
		{"rule 13: empty mimeType", `{"$type":"blob","ref":` + ref + `,"mimeType":"","size":42}`, nil, nil},
		{"rule 13: mimeType not a string", `{"$type":"blob","ref":` + ref + `,"mimeType":7,"size":42}`, nil, nil},
		{"rule 13: missing size", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png"}`, nil, nil},
		{"rule 13: extra key", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42,"x":1}`, nil, nil},
		{"rule 13: other key instead of one", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","sizes":42}`, nil, nil},
		{"RFC 8259: duplicate ref", `{"$type":"blob","ref":` + ref + `,"ref":` + ref + `,"mimeType":"image/png","size":42}`, nil, nil},
		{"RFC 8259: duplicate ref in place of size", `{"$type":"blob","ref":` + ref + `,"ref":` + ref + `,"mimeType":"image/png"}`, nil, nil},
		{"RFC 8259: duplicate size", `{"$type":"blob","size":1,"size":42,"ref":` + ref + `}`, nil, nil},
		{"RFC 8259: duplicate mimeType", `{"$type":"blob","mimeType":"a/b","mimeType":"image/png","ref":` + ref + `}`, nil, nil},
		{"RFC 8259: trailing comma", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42,}`, nil, nil},
		{"RFC 8259: missing colon", `{"$type":"blob","ref":` + ref + `,"mimeType" "image/png","size":42}`, nil, nil},
		{"rule 13: ref a string", `{"$type":"blob","ref":"` + jsonTestRawCID + `","mimeType":"image/png","size":42}`, nil, nil},
		{"rule 10: ref with a second key", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `","x":1},"mimeType":"image/png","size":42}`, nil, nil},
		{"rule 10: ref $link not a string", `{"$type":"blob","ref":{"$link":1},"mimeType":"image/png","size":42}`, nil, nil},
		{"rule 12: ref an invalid CID", `{"$type":"blob","ref":{"$link":"bafy"},"mimeType":"image/png","size":42}`, nil, nil},
		{"rule 13: ref a $bytes object", `{"$type":"blob","ref":{"$bytes":"AQI"},"mimeType":"image/png","size":42}`, nil, nil},
		{"rule 13: ref a blob", `{"$type":"blob","ref":{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42},"mimeType":"image/png","size":42}`, nil, nil},
		{"rule 14: mimeType longer than MaxKeyLen", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42}`,
			tiny(func(l *Limits) { l.MaxKeyLen = 7 }), nil},
		{"rule 14: four members above MaxElements", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42}`,
			tiny(func(l *Limits) { l.MaxElements = 3 }), nil},
		{"rule 14: CID longer than MaxCIDLen", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42}`,
			tiny(func(l *Limits) { l.MaxCIDLen = 10 }), nil},
		{"rule 14: blob at the depth limit", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42}`,
			tiny(func(l *Limits) { l.MaxDepth = 2 }), &want},
		{"rule 14: blob below the depth limit", `{"$type":"blob","ref":` + ref + `,"mimeType":"image/png","size":42}`,
			tiny(func(l *Limits) { l.MaxDepth = 1 }), nil},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			limits := DefaultLimits()
			if tc.limits != nil {
				limits = *tc.limits
			}
			in := `{"a":1,"b":` + tc.blob + `}`
			jsonSamePaths(t, []byte(in), limits)
			v, err := unmarshalJSON([]byte(in), limits, false)
			if tc.want == nil {
				if err == nil {
					if _, isBlob := v.(map[string]any)["b"].(Blob); isBlob {
						t.Fatalf("decoded as a blob: %#v", v)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := v.(map[string]any)["b"]; !reflect.DeepEqual(got, *tc.want) {
				t.Fatalf("got %#v, want %#v", got, *tc.want)
			}
			// Every truncation of a valid blob fails as the careful path fails.
			for n := range len(in) {
				jsonSamePaths(t, []byte(in[:n]), limits)
			}
		})
	}
}

// memberKey reads keys of 1 to 8 plain bytes with one word load and a word-tagged cache, and
// quickLongKey those of 9 to 15 with two; every other key goes the long way (keyLongWay: string,
// then the key cache). Each key here is spelled as a JSON
// string in objects whose ends fall at every distance from the key, so that the word load meets
// the end of the input too; encoding/json is the oracle for the key (RFC 8259 §7).
func TestUnmarshalJSONQuickKeys(t *testing.T) {
	var keys []string
	for n := 0; n <= 17; n++ {
		keys = append(keys, `"`+strings.Repeat("k", n)+`"`, `"$`+strings.Repeat("x", max(n-1, 0))+`"`)
		if n > 0 {
			for i := 0; i < n; i++ { // one special byte at each position
				for _, special := range []string{`\u0041`, `\"`, `\\`, `é`, `\n`, "\x01", "\t", " "} {
					keys = append(keys, `"`+strings.Repeat("a", i)+special+strings.Repeat("b", n-1-i)+`"`)
				}
			}
		}
	}
	for _, key := range keys {
		for _, tail := range []string{"", " ", "       ", "\n  "} {
			for _, doc := range []string{`{` + key + `:1` + tail + `}`, `{` + key + `:` + tail + `1}`, `{"z":2,` + key + tail + `:1}`} {
				var want map[string]any
				wantErr := json.Unmarshal([]byte(doc), &want)
				got, err := UnmarshalJSON([]byte(doc))
				if (err != nil) != (wantErr != nil) {
					t.Fatalf("%q: error %v, encoding/json's %v", doc, err, wantErr)
				}
				if err != nil {
					continue
				}
				m := got.(map[string]any)
				if len(m) != len(want) {
					t.Fatalf("%q: %d keys, want %d", doc, len(m), len(want))
				}
				for k := range want {
					if m[k] == nil {
						t.Fatalf("%q: key %q missing from %v", doc, k, m)
					}
				}
			}
		}
		// MaxKeyLen counts the decoded bytes, on the quick path as on the long one.
		var name string
		if json.Unmarshal([]byte(key), &name) == nil && len(name) > 2 {
			lim := DefaultLimits()
			lim.MaxKeyLen = len(name) - 1
			_, err := UnmarshalJSON([]byte(`{`+key+`:1}`), WithLimits(lim))
			if !errors.Is(err, ErrKeyTooLong) {
				t.Fatalf("key %s with MaxKeyLen %d: got %v, want ErrKeyTooLong", key, lim.MaxKeyLen, err)
			}
			lim.MaxKeyLen = len(name)
			if _, err := UnmarshalJSON([]byte(`{`+key+`:1}`), WithLimits(lim)); err != nil {
				t.Fatalf("key %s with MaxKeyLen %d: %v", key, lim.MaxKeyLen, err)
			}
		}
	}
}

// Thousands of distinct short keys share the short-key cache's 256 slots, and as many keys of 9
// to 15 bytes the long-key cache's 64: a key must come back as itself whatever the cache held
// before (no stale or colliding entry is ever returned).
func TestUnmarshalJSONShortKeyCacheChurn(t *testing.T) {
	for round := 0; round < 3; round++ {
		for i := 0; i < 5000; i++ {
			key := strconv.FormatInt(int64(i)*7919+int64(round), 36)
			long := key + "-" + key + "-" + key // 5 to 17 bytes: either cache, or neither
			doc := `{"` + key + `":1,"` + key + `x":2,"` + long + `":3}`
			v, err := UnmarshalJSON([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			m := v.(map[string]any)
			if len(m) != 3 || m[key] != int64(1) || m[key+"x"] != int64(2) || m[long] != int64(3) {
				t.Fatalf("%s decoded as %v", doc, m)
			}
		}
	}
}

// The whitespace skipping takes shortcuts for pretty-printed JSON (a newline and a short indent,
// one space after a colon, a comma straight after a value). Every record, indented every way RFC
// 8259 §2 allows and some it does not, must decode to the same value as its compact form, or be
// refused as encoding/json refuses it.
func TestUnmarshalJSONWhitespace(t *testing.T) {
	for _, name := range recordNames {
		js, _ := readRecord(t, name)
		var compact bytes.Buffer
		if err := json.Compact(&compact, js); err != nil {
			t.Fatal(err)
		}
		want, err := UnmarshalJSON(compact.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, ws := range []struct{ prefix, indent string }{
			{"", " "}, {"", "  "}, {"", "       "}, {"", "        "}, {"", "         "},
			{"", strings.Repeat(" ", 17)}, {"", "\t"}, {"", " \t"}, {"\r", "  "}, {" ", " "},
			{"", strings.Repeat(" ", 8) + "\t"}, {"", "   \t  \r"}, {"", "\n"}, {"", "\r\n"}, {"", "\v"}, {"", "\f"}, {"", "\u00a0"}, {"", "\x00"},
		} {
			var indented bytes.Buffer
			if err := json.Indent(&indented, compact.Bytes(), ws.prefix, ws.indent); err != nil {
				t.Fatal(err)
			}
			// A space before each colon and after each comma too, where the input has none.
			spaced := strings.NewReplacer(`":`, `" :  `, `,`+"\n", ` ,`+"\n").Replace(indented.String())
			for _, doc := range []string{indented.String(), spaced, "\n" + spaced + "\n\t "} {
				wantOK := json.Valid([]byte(doc))
				got, err := UnmarshalJSON([]byte(doc))
				if (err == nil) != wantOK {
					t.Fatalf("%s indented with %q: error %v, encoding/json valid %v", name, ws.indent, err, wantOK)
				}
				if err == nil && !reflect.DeepEqual(got, want) {
					t.Fatalf("%s indented with %q: the value differs from the compact form's", name, ws.indent)
				}
			}
		}
	}
}

// Non-negative integers of up to 18 digits are read by a short loop in value; a fraction, an
// exponent or a 19th digit sends them to number. Every length around that boundary, followed by
// every kind of byte, must decode to the exact integer that math/big reads (DECISIONS rule 10:
// integers exactly, 1.0e2 is 100, a real fraction or a value beyond int64 is refused), and
// anything RFC 8259 refuses (encoding/json as the oracle) must be refused.
func TestUnmarshalJSONQuickInteger(t *testing.T) {
	for n := 1; n <= 21; n++ {
		for _, digits := range []string{strings.Repeat("9", n), "1" + strings.Repeat("0", n-1), strings.Repeat("7", n)} {
			for _, suffix := range []string{"", ".0", ".5", "e0", "E2", "e-1", "0", "x", "-", " "} {
				number := digits + suffix
				for _, doc := range []string{`{"n":` + number + `}`, `[` + number + `,1]`} {
					got, err := UnmarshalJSON([]byte(doc))
					if !json.Valid([]byte(doc)) {
						if err == nil {
							t.Fatalf("%s: accepted as %v, not JSON", doc, got)
						}
						continue
					}
					r, _ := new(big.Rat).SetString(strings.TrimSpace(number))
					if !r.IsInt() || !r.Num().IsInt64() {
						if err == nil {
							t.Fatalf("%s: accepted as %v, not an int64", doc, got)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s: %v", doc, err)
					}
					var v any
					switch g := got.(type) {
					case map[string]any:
						v = g["n"]
					case []any:
						v = g[0]
					}
					if want := r.Num().Int64(); v != want {
						t.Fatalf("%s: got %v, want %d", doc, v, want)
					}
				}
			}
		}
	}
}

// The quick path's maps are clones of one empty map the decoder keeps (newMap): each must be a
// map of its own, and the one they are cloned from must stay empty, whatever a decode or its
// caller writes. Objects of jsonRegrowFrom members and more are re-made (regrow) and must keep
// every member.
func TestUnmarshalJSONMapsIndependent(t *testing.T) {
	d := &jsonDecoder{}
	in := []byte(`{"a":{"x":1},"b":{"x":2},"c":[{"x":3},{}]}`)
	first, err := d.decode(in, DefaultLimits(), false)
	if err != nil {
		t.Fatal(err)
	}
	second, err := d.decode(in, DefaultLimits(), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.mapProto) != 0 || d.mapProto == nil {
		t.Fatalf("the decoder's map to clone holds %v (nil %v), want an empty map", d.mapProto, d.mapProto == nil)
	}
	a := first.(map[string]any)["a"].(map[string]any)
	a["y"] = int64(9)
	first.(map[string]any)["b"].(map[string]any)["x"] = int64(7)
	first.(map[string]any)["c"].([]any)[1].(map[string]any)["z"] = true
	want := map[string]any{"a": map[string]any{"x": int64(1)}, "b": map[string]any{"x": int64(2)},
		"c": []any{map[string]any{"x": int64(3)}, map[string]any{}}}
	if !reflect.DeepEqual(second, want) {
		t.Errorf("after writes to the first decode's maps, the second decode's value is %v, want %v", second, want)
	}
	if len(d.mapProto) != 0 {
		t.Errorf("after writes to decoded maps, the decoder's map to clone holds %v", d.mapProto)
	}
	third, err := d.decode(in, DefaultLimits(), false)
	if err != nil || !reflect.DeepEqual(third, want) {
		t.Errorf("third decode: %v, %v; want %v", third, err, want)
	}

	// Members around the first regrow, with little input after them (the guess is below twice
	// as many, and the first regrow re-makes the map anyway) and with much (the guess is above).
	for _, n := range []int{jsonRegrowFrom - 1, jsonRegrowFrom, jsonRegrowFrom + 1, 2*jsonRegrowFrom + 3} {
		for _, tail := range []string{"", strings.Repeat(" ", 1<<16)} {
			var b strings.Builder
			want := map[string]any{}
			b.WriteString("[{")
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `"k%d":%d`, i, i)
				want["k"+strconv.Itoa(i)] = int64(i)
			}
			b.WriteString("}" + tail + "]")
			v, err := d.decode([]byte(b.String()), DefaultLimits(), false)
			if err != nil {
				t.Fatalf("%d members: %v", n, err)
			}
			if got := v.([]any)[0]; !reflect.DeepEqual(got, want) {
				t.Errorf("%d members (tail %d bytes): got %d members, want %d", n, len(tail), len(got.(map[string]any)), n)
			}
		}
	}
}
