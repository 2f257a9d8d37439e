package datamodel

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

// CIDs from the data-model fixtures (testdata/interop/data-model/data-model-fixtures.json).
const (
	jsonTestCBORCID = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a" // dag-cbor
	jsonTestRawCID  = "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity" // raw
)

func jsonTestLink(t testing.TB, s string) Link {
	t.Helper()
	c, err := cidutil.ParseString(s)
	if err != nil {
		t.Fatalf("ParseString(%q): %v", s, err)
	}
	return Link(c)
}

func TestUnmarshalJSONValues(t *testing.T) {
	link := jsonTestLink(t, jsonTestCBORCID)
	raw := jsonTestLink(t, jsonTestRawCID)
	tests := []struct {
		rule string
		in   string
		want any
	}{
		{"null", `null`, nil},
		{"true", `true`, true},
		{"false", ` false `, false},
		{"integer", `123`, int64(123)},
		{"negative integer", `-42`, int64(-42)},
		{"zero", `0`, int64(0)},
		{"minus zero is the integer zero", `-0`, int64(0)},
		{"string", `"abc"`, "abc"},
		{"empty string", `""`, ""},
		{"escapes", `"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{"\\u escape", `"\u00e9\u4e2D"`, "é中"},
		{"\\u0000 is a character", `"a\u0000b"`, "a\x00b"},
		{"surrogate pair", `"\ud83d\ude00"`, "😀"},
		{"raw UTF-8", `"a~öñ©⽘☎𓋓😀👨‍👩‍👧‍👧"`, "a~öñ©⽘☎𓋓😀👨‍👩‍👧‍👧"},
		{"DEL is allowed raw", "\"\x7f\"", "\x7f"},
		{"empty array is not null", `[]`, []any{}},
		{"empty object is not null", `{}`, map[string]any{}},
		{"array", `[1, "a", null, [true]]`, []any{int64(1), "a", nil, []any{true}}},
		{"object", "{\"a\":1,\n\t\"b\" : {\"c\":[]}}", map[string]any{"a": int64(1), "b": map[string]any{"c": []any{}}}},
		{"null and missing differ (rule 15)", `{"a":null}`, map[string]any{"a": nil}},
		{"rule 10: $link", `{"$link":"` + jsonTestCBORCID + `"}`, link},
		{"rule 10: $bytes without padding", `{"$bytes":"nFERjvLLiw9qm45JrqH9QTzyC2Lu1Xb4ne6+sBrCzI0"}`,
			Bytes{0x9c, 0x51, 0x11, 0x8e, 0xf2, 0xcb, 0x8b, 0x0f, 0x6a, 0x9b, 0x8e, 0x49, 0xae, 0xa1, 0xfd, 0x41,
				0x3c, 0xf2, 0x0b, 0x62, 0xee, 0xd5, 0x76, 0xf8, 0x9d, 0xee, 0xbe, 0xb0, 0x1a, 0xc2, 0xcc, 0x8d}},
		{"rule 10: $bytes with padding", `{"$bytes":"AQI="}`, Bytes{1, 2}},
		{"rule 10: $bytes with two pad characters", `{"$bytes":"AQ=="}`, Bytes{1}},
		{"rule 10: $bytes empty", `{"$bytes":""}`, Bytes{}},
		{"rule 10: escaped slash in $bytes", `{"$bytes":"\/w"}`, Bytes{0xff}},
		{"rule 10: $bytes unused bits need not be zero (interop record-data-valid \"full\")", `{"$bytes":"123"}`, Bytes{0xd7, 0x6d}},
		{"rule 10: $bytes unused bits need not be zero, padded", `{"$bytes":"AR=="}`, Bytes{0x01}},
		{"rule 10: $bytes unused bits need not be zero, two bytes", `{"$bytes":"AQJ"}`, Bytes{1, 2}},
		{"rule 13: blob", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/jpeg","size":10000}`,
			Blob{Ref: raw, MimeType: "image/jpeg", Size: 10000}},
		{"rule 13: blob keys in any order, size 0", `{"size":0,"mimeType":"a/b","ref":{"$link":"` + jsonTestRawCID + `"},"$type":"blob"}`,
			Blob{Ref: raw, MimeType: "a/b", Size: 0}},
		{"rule 13: legacy blob", `{"cid":"` + jsonTestRawCID + `","mimeType":"image/png"}`,
			Blob{Ref: raw, MimeType: "image/png", Legacy: true}},
		{"rule 13: legacy blob, mimeType first", `{"mimeType":"image/png","cid":"` + jsonTestRawCID + `"}`,
			Blob{Ref: raw, MimeType: "image/png", Legacy: true}},
		{"rule 13: legacy blob, escaped keys", `{"\u0063id":"` + jsonTestRawCID + `","mime\u0054ype":"image/png"}`,
			Blob{Ref: raw, MimeType: "image/png", Legacy: true}},
		{"rule 13: legacy shape with a null cid stays a map", `{"cid":null,"mimeType":"image/png"}`,
			map[string]any{"cid": nil, "mimeType": "image/png"}},
		{"rule 13: legacy shape with a non-canonical CID string stays a map", `{"cid":"B` + strings.ToUpper(jsonTestRawCID[1:]) + `","mimeType":"image/png"}`,
			map[string]any{"cid": "B" + strings.ToUpper(jsonTestRawCID[1:]), "mimeType": "image/png"}},
		{"rule 13: legacy shape with a non-CID stays a map", `{"cid":"x","mimeType":"image/png"}`,
			map[string]any{"cid": "x", "mimeType": "image/png"}},
		{"rule 13: cid and mimeType with a third key stay a map", `{"cid":"` + jsonTestRawCID + `","mimeType":"a/b","x":1}`,
			map[string]any{"cid": jsonTestRawCID, "mimeType": "a/b", "x": int64(1)}},
		{"rule 11: other $ keys pass through", `{"$type":"app.bsky.feed.post","$foo":{"$bar":1}}`,
			map[string]any{"$type": "app.bsky.feed.post", "$foo": map[string]any{"$bar": int64(1)}}},
		{"nested links", `{"a":[{"$link":"` + jsonTestCBORCID + `"}]}`, map[string]any{"a": []any{link}}},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			got, err := UnmarshalJSON([]byte(tc.in))
			if err != nil {
				t.Fatalf("UnmarshalJSON(%s): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("UnmarshalJSON(%s)\n got %#v\nwant %#v", tc.in, got, tc.want)
			}
			if err := Validate(got); err != nil {
				t.Errorf("Validate rejects the decoder's output: %v", err)
			}
		})
	}
}

func TestUnmarshalJSONNumbers(t *testing.T) {
	tests := []struct {
		rule string
		in   string
		want int64
		err  error
	}{
		{"rule 10: 2^53+1 is exact, no float64 rounding", "9007199254740993", 1<<53 + 1, nil},
		{"rule 10: -(2^53+1)", "-9007199254740993", -(1<<53 + 1), nil},
		{"rule 10: MaxInt64", "9223372036854775807", math.MaxInt64, nil},
		{"rule 10: MinInt64", "-9223372036854775808", math.MinInt64, nil},
		{"rule 10: MaxInt64+1 overflows", "9223372036854775808", 0, ErrIntegerRange},
		{"rule 10: MinInt64-1 overflows", "-9223372036854775809", 0, ErrIntegerRange},
		{"rule 10: 20 digits overflow", "12345678901234567890", 0, ErrIntegerRange},
		{"rule 10: long zero-padded integer is in range", "100000000000000000.0000000000000", 100000000000000000, nil},
		{"rule 10: 123.0 is 123", "123.0", 123, nil},
		{"rule 10: 123.000 is 123", "123.000", 123, nil},
		{"rule 10: 1e2 is 100", "1e2", 100, nil},
		{"rule 10: 1.0e2 is 100", "1.0e2", 100, nil},
		{"rule 10: 1E+2 is 100", "1E+2", 100, nil},
		{"rule 10: 1.5e1 is 15", "1.5e1", 15, nil},
		{"rule 10: 1500e-2 is 15", "1500e-2", 15, nil},
		{"rule 10: -0.0 is 0", "-0.0", 0, nil},
		{"rule 10: 0e999999999999 is 0", "0e999999999999", 0, nil},
		{"rule 10: 0.000e-5 is 0", "0.000e-5", 0, nil},
		{"rule 10: 9.223372036854775807e18 is MaxInt64", "9.223372036854775807e18", math.MaxInt64, nil},
		{"rule 10: -9.223372036854775808e18 is MinInt64", "-9.223372036854775808e18", math.MinInt64, nil},
		{"rule 10: 9.223372036854775808e18 overflows", "9.223372036854775808e18", 0, ErrIntegerRange},
		{"rule 10: 1e19 overflows", "1e19", 0, ErrIntegerRange},
		{"rule 10: 1e999999999999999999 overflows", "1e999999999999999999", 0, ErrIntegerRange},
		{"rule 10: 1.5 is a fraction", "1.5", 0, ErrFraction},
		{"rule 10: 123.456 is a fraction", "123.456", 0, ErrFraction},
		{"rule 10: 0.1 is a fraction", "0.1", 0, ErrFraction},
		{"rule 10: 1e-1 is a fraction", "1e-1", 0, ErrFraction},
		{"rule 10: 1500e-4 is a fraction", "1500e-4", 0, ErrFraction},
		{"rule 10: 1e-999999999999 is a fraction", "1e-999999999999", 0, ErrFraction},
		{"rule 10: 9007199254740993.5 is a fraction", "9007199254740993.5", 0, ErrFraction},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			for _, in := range []string{tc.in, "[" + tc.in + "]", `{"n":` + tc.in + `}`} {
				got, err := UnmarshalJSON([]byte(in))
				if tc.err != nil {
					if !errors.Is(err, tc.err) {
						t.Fatalf("UnmarshalJSON(%s) = %v, %v; want %v", in, got, err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("UnmarshalJSON(%s): %v", in, err)
				}
				switch g := got.(type) {
				case []any:
					got = g[0]
				case map[string]any:
					got = g["n"]
				}
				if got != tc.want {
					t.Fatalf("UnmarshalJSON(%s) = %#v, want %d", in, got, tc.want)
				}
			}
		})
	}
	// Every integer near the edges of int64 and of float64's exact range reads back exactly.
	for _, n := range []int64{math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1,
		1 << 53, 1<<53 + 1, 1<<53 - 1, -(1 << 53) - 1, 999999999999999999, 1000000000000000000} {
		s := strconv.FormatInt(n, 10)
		got, err := UnmarshalJSON([]byte(s))
		if err != nil || got != n {
			t.Errorf("UnmarshalJSON(%s) = %#v, %v", s, got, err)
		}
	}
}

func TestUnmarshalJSONRejects(t *testing.T) {
	tests := []struct {
		rule string
		in   string
		err  error
	}{
		// RFC 8259 grammar.
		{"RFC 8259: empty input", ``, ErrTruncated},
		{"RFC 8259: only whitespace", " \n", ErrTruncated},
		{"RFC 8259: trailing comma in array", `[1,]`, ErrSyntax},
		{"RFC 8259: trailing comma in object", `{"a":1,}`, ErrSyntax},
		{"RFC 8259: missing comma", `[1 2]`, ErrSyntax},
		{"RFC 8259: missing colon", `{"a" 1}`, ErrSyntax},
		{"RFC 8259: unquoted key", `{a:1}`, ErrSyntax},
		{"RFC 8259: single quotes", `'a'`, ErrSyntax},
		{"RFC 8259: leading zero", `01`, ErrSyntax},
		{"RFC 8259: negative leading zero", `-01`, ErrSyntax},
		{"RFC 8259: leading plus", `+1`, ErrSyntax},
		{"RFC 8259: lone minus", `-`, ErrTruncated},
		{"RFC 8259: minus then letter", `-a`, ErrSyntax},
		{"RFC 8259: fraction needs digits", `1.`, ErrTruncated},
		{"RFC 8259: fraction needs digits before exponent", `1.e2`, ErrSyntax},
		{"RFC 8259: leading dot", `.5`, ErrSyntax},
		{"RFC 8259: exponent needs digits", `1e`, ErrTruncated},
		{"RFC 8259: exponent sign needs digits", `1e+`, ErrTruncated},
		{"RFC 8259: NaN", `NaN`, ErrSyntax},
		{"RFC 8259: Infinity", `-Infinity`, ErrSyntax},
		{"RFC 8259: hex number", `0x10`, ErrTrailingBytes},
		{"RFC 8259: capitalised literal", `True`, ErrSyntax},
		{"RFC 8259: truncated literal", `nul`, ErrTruncated},
		{"RFC 8259: truncated true", `tru`, ErrTruncated},
		{"RFC 8259: misspelt false", `[fals]`, ErrSyntax},
		{"RFC 8259: misspelled literal", `nulL`, ErrSyntax},
		{"RFC 8259: unterminated string", `"abc`, ErrTruncated},
		{"RFC 8259: unterminated array", `[1`, ErrTruncated},
		{"RFC 8259: unterminated object", `{"a":1`, ErrTruncated},
		{"RFC 8259: raw newline in string", "\"a\nb\"", ErrSyntax},
		{"RFC 8259: raw tab in string", "\"a\tb\"", ErrSyntax},
		{"RFC 8259: raw NUL in string", "\"a\x00b\"", ErrSyntax},
		{"RFC 8259: invalid escape", `"\x41"`, ErrSyntax},
		{"RFC 8259: escaped single quote", `"\'"`, ErrSyntax},
		{"RFC 8259: short \\u escape", `"\u12"`, ErrSyntax},
		{"RFC 8259: truncated \\u escape", `"\u12`, ErrTruncated},
		{"RFC 8259: non-hex \\u escape", `"\u12g4"`, ErrSyntax},
		{"RFC 8259: comment", `{"a":1 /* c */}`, ErrSyntax},
		{"RFC 8259: byte order mark", "\uFEFF{}", ErrSyntax},
		{"RFC 8259: vertical tab is not whitespace", "\v1", ErrSyntax},
		{"RFC 8259: non-breaking space is not whitespace", "\u00a01", ErrSyntax},
		{"trailing value", `1 2`, ErrTrailingBytes},
		{"trailing bracket", `{}}`, ErrTrailingBytes},
		{"two top-level values", `{}{}`, ErrTrailingBytes},
		{"trailing NUL", "1\x00", ErrTrailingBytes},
		// Unicode.
		{"lone high surrogate", `"\ud800"`, ErrInvalidUTF8},
		{"lone high surrogate before text", `"\ud800abcdef"`, ErrInvalidUTF8},
		{"lone low surrogate", `"\udc00"`, ErrInvalidUTF8},
		{"high surrogate then non-surrogate escape", `"\ud800\u0041"`, ErrInvalidUTF8},
		{"two high surrogates", `"\ud800\ud800"`, ErrInvalidUTF8},
		{"invalid UTF-8 byte", "\"\xff\"", ErrInvalidUTF8},
		{"truncated UTF-8 sequence", "\"\xc3\"", ErrInvalidUTF8},
		{"overlong UTF-8", "\"\xc0\xaf\"", ErrInvalidUTF8},
		{"UTF-8-encoded surrogate", "\"\xed\xa0\x80\"", ErrInvalidUTF8},
		{"invalid UTF-8 in a key", "{\"\xff\":1}", ErrInvalidUTF8},
		{"invalid UTF-8 after an escape", "\"\\n\xff\"", ErrInvalidUTF8},
		// Duplicates.
		{"duplicate key", `{"a":1,"a":2}`, ErrDuplicateKey},
		{"duplicate key spelled with an escape", `{"a":1,"\u0061":2}`, ErrDuplicateKey},
		{"duplicate key in a large object", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10}`, ErrDuplicateKey},
		{"duplicate $link key", `{"$link":"` + jsonTestCBORCID + `","$link":"` + jsonTestCBORCID + `"}`, ErrDuplicateKey},
		// Rule 10: $link and $bytes.
		{"rule 10: $link with another key", `{"$link":"` + jsonTestCBORCID + `","a":1}`, ErrLink},
		{"rule 10: $link not a string", `{"$link":1234}`, ErrLink},
		{"rule 10: $link null", `{"$link":null}`, ErrLink},
		{"rule 10: $link bogus CID", `{"$link":"."}`, ErrInvalidCID},
		{"rule 12: $link CIDv0", `{"$link":"QmY7Yh4UquoXHLPFo2XbhXkhBvFoPwmQUSa92pxnxjQuPU"}`, ErrInvalidCID},
		{"rule 12: $link mixed-case base32", `{"$link":"` + jsonTestCBORCID[:10] + "D" + jsonTestCBORCID[11:] + `"}`, ErrInvalidCID},
		{"rule 10: $bytes with another key", `{"$bytes":"AQI","other":"blah"}`, ErrBytes},
		{"rule 10: $bytes not a string", `{"$bytes":[1,2,3]}`, ErrBytes},
		{"rule 10: $bytes URL-safe alphabet", `{"$bytes":"-_8"}`, ErrBytes},
		{"rule 10: $bytes with a newline escape", `{"$bytes":"AQ\nI"}`, ErrBytes},
		{"rule 10: $bytes with a carriage return escape", `{"$bytes":"AQ\rI"}`, ErrBytes},
		{"rule 10: $bytes with a space", `{"$bytes":"AQ I"}`, ErrBytes},
		{"rule 10: $bytes impossible length", `{"$bytes":"A"}`, ErrBytes},
		{"rule 10: $bytes wrong padding", `{"$bytes":"AQ="}`, ErrBytes},
		{"rule 10: $bytes padding only", `{"$bytes":"===="}`, ErrBytes},
		// Rule 11: $type.
		{"rule 11: $type null", `{"$type":null}`, ErrType},
		{"rule 11: $type number", `{"$type":123}`, ErrType},
		{"rule 11: $type empty", `{"$type":""}`, ErrType},
		{"rule 11: $type object", `{"$type":{}}`, ErrType},
		{"rule 11: nested $type empty", `{"a":[{"b":{"$type":""}}]}`, ErrType},
		// Rule 13: blobs.
		{"rule 13: blob size as a string", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/jpeg","size":"10000"}`, ErrBlob},
		{"rule 13: blob missing ref", `{"$type":"blob","mimeType":"image/jpeg","size":10000}`, ErrBlob},
		{"rule 13: blob extra key", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/jpeg","size":1,"x":1}`, ErrBlob},
		{"rule 13: blob negative size", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/jpeg","size":-1}`, ErrBlob},
		{"rule 13: blob fractional size", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/jpeg","size":1.5}`, ErrFraction},
		{"rule 13: blob empty mimeType", `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"","size":1}`, ErrBlob},
		{"rule 13: blob ref as a string", `{"$type":"blob","ref":"` + jsonTestRawCID + `","mimeType":"a/b","size":1}`, ErrBlob},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			v, err := UnmarshalJSON([]byte(tc.in))
			if !errors.Is(err, tc.err) || v != nil {
				t.Fatalf("UnmarshalJSON(%q) = %#v, %v; want nil, %v", tc.in, v, err, tc.err)
			}
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(tc.in) {
				t.Fatalf("error %#v: want an *Error with an offset inside the input", err)
			}
			if !strings.Contains(err.Error(), tc.err.Error()) {
				t.Errorf("message %q does not name the rule %q", err, tc.err)
			}
		})
	}
}

func TestUnmarshalJSONErrorLocation(t *testing.T) {
	blob := `{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"image/jpeg","size":"10"}`
	post := `{"embed":{"images":[{"image":` + blob + `}]}}`
	tests := []struct {
		rule   string
		in     string
		err    error
		path   string
		offset int
	}{
		{"blob size path", post, ErrBlob, "/embed/images/0/image/size", strings.Index(post, `"10"`)},
		{"array index path", `[0,1,{"a":[true,1.5]}]`, ErrFraction, "/2/a/1", 16},
		{"RFC 6901 escapes in the path", `{"a/b":{"m~n":01}}`, ErrSyntax, "/a~1b/m~0n", 14},
		{"$type path", `{"x":{"$type":7}}`, ErrType, "/x/$type", 14},
		{"duplicate key offset", `{"ab":1, "ab":2}`, ErrDuplicateKey, "/ab", 9},
		{"$link with extra keys points at the object", `{"l":{"$link":"` + jsonTestCBORCID + `","x":1}}`, ErrLink, "/l", 5},
		{"bad CID points at the string", `{"l":{"$link":"bafy"}}`, ErrInvalidCID, "/l/$link", 14},
		{"unterminated string points at its quote", `{"k":"abc`, ErrTruncated, "/k", 5},
		{"missing value", `{"k":}`, ErrSyntax, "/k", 5},
		{"trailing bytes", `{} x`, ErrTrailingBytes, "", 3},
		{"control character", "[\"ab\x01\"]", ErrSyntax, "/0", 4},
		{"lone surrogate points at its escape", `["ab\udc00"]`, ErrInvalidUTF8, "/0", 4},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			_, err := UnmarshalJSON([]byte(tc.in))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("UnmarshalJSON(%s) = %v, want *Error", tc.in, err)
			}
			if !errors.Is(err, tc.err) || e.Path != tc.path || e.Offset != tc.offset {
				t.Fatalf("UnmarshalJSON(%s) = %v (path %q, offset %d); want %v at path %q offset %d",
					tc.in, err, e.Path, e.Offset, tc.err, tc.path, tc.offset)
			}
			if tc.path != "" && !strings.Contains(err.Error(), strconv.Quote(tc.path)) {
				t.Errorf("message %q does not show the path", err)
			}
		})
	}
}

func jsonNested(open, close string, n int, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

func TestUnmarshalJSONLimits(t *testing.T) {
	link := `{"$link":"` + jsonTestCBORCID + `"}`
	small := Limits{MaxDepth: 3, MaxElements: 4, MaxKeyLen: 5, MaxJSONSize: 200}
	tests := []struct {
		rule   string
		in     string
		limits *Limits
		err    error // nil: accepted
	}{
		{"rule 14: depth 32 arrays accepted", jsonNested("[", "]", 32, ""), nil, nil},
		{"rule 14: depth 33 arrays rejected", jsonNested("[", "]", 33, ""), nil, ErrTooDeep},
		{"rule 14: depth 32 objects accepted", jsonNested(`{"a":`, "}", 31, "{}"), nil, nil},
		{"rule 14: depth 33 objects rejected", jsonNested(`{"a":`, "}", 32, "{}"), nil, ErrTooDeep},
		{"rule 14: a $link inside 32 levels is a leaf, as in CBOR", jsonNested("[", "]", 32, link), nil, nil},
		{"rule 14: a $bytes inside 32 levels is a leaf", jsonNested("[", "]", 32, `{"$bytes":""}`), nil, nil},
		{"rule 14: a blob is a map: 33 levels", jsonNested("[", "]", 32, `{"$type":"blob","ref":{"$link":"`+jsonTestRawCID+`"},"mimeType":"a/b","size":1}`), nil, ErrTooDeep},
		{"rule 14: a $link object at 34 levels", jsonNested("[", "]", 33, link), nil, ErrTooDeep},
		{"rule 14: 100000 nested arrays fail fast", jsonNested("[", "]", 100000, ""), nil, ErrTooDeep},
		{"rule 14: custom depth 3 accepted", `[[[1]]]`, &small, nil},
		{"rule 14: custom depth 3 exceeded", `[[[[1]]]]`, &small, ErrTooDeep},
		{"rule 14: 4 elements accepted", `[1,2,3,4]`, &small, nil},
		{"rule 14: 5 elements rejected", `[1,2,3,4,5]`, &small, ErrTooManyElements},
		{"rule 14: 5 members rejected", `{"a":1,"b":2,"c":3,"d":4,"e":5}`, &small, ErrTooManyElements},
		{"rule 14: default 131072 elements accepted", "[" + strings.Repeat("0,", 131071) + "0]", nil, nil},
		{"rule 14: default 131073 elements rejected", "[" + strings.Repeat("0,", 131072) + "0]", nil, ErrTooManyElements},
		{"rule 14: 5-byte key accepted", `{"abcde":1}`, &small, nil},
		{"rule 14: 6-byte key rejected", `{"abcdef":1}`, &small, ErrKeyTooLong},
		{"rule 14: key length counts bytes, not escapes", `{"\u00e9\u00e9\u00e9":1}`, &small, ErrKeyTooLong},
		{"rule 14: default 8192-byte key accepted", `{"` + strings.Repeat("k", 8192) + `":1}`, nil, nil},
		{"rule 14: default 8193-byte key rejected", `{"` + strings.Repeat("k", 8193) + `":1}`, nil, ErrKeyTooLong},
		{"rule 14: size limit", `"` + strings.Repeat("a", 199) + `"`, &small, ErrTooLarge},
		{"rule 14: CID over 100 bytes", `{"$link":"` + jsonLongCID(t) + `"}`, nil, ErrInvalidCID},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			var opts []Option
			if tc.limits != nil {
				opts = append(opts, WithLimits(*tc.limits))
			}
			v, err := UnmarshalJSON([]byte(tc.in), opts...)
			if tc.err == nil {
				if err != nil {
					t.Fatalf("UnmarshalJSON: %v", err)
				}
				if err := Validate(v, opts...); err != nil {
					t.Fatalf("Validate rejects what the decoder accepted: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("UnmarshalJSON = %v, want %v", err, tc.err)
			}
		})
	}
}

// jsonLongCID returns a well-formed CIDv1 of 101 bytes: an identity multihash of 97 bytes.
func jsonLongCID(t testing.TB) string {
	b := append([]byte{0x01, 0x55, 0x00, 97}, make([]byte, 97)...)
	c, err := cidutil.ParseBinary(b)
	if err != nil {
		t.Fatal(err)
	}
	return c.String()
}

// A 10 MB string is refused by the size limit before any of it is read.
func TestUnmarshalJSONHugeStringFailsFast(t *testing.T) {
	big := make([]byte, 10<<20)
	for i := range big {
		big[i] = 'a'
	}
	big[0], big[len(big)-1] = '"', '"'
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := UnmarshalJSON(big); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
	})
	if allocs > 10 {
		t.Errorf("%v allocations to refuse an oversize input, want a handful", allocs)
	}
}

// TestUnmarshalJSONNumberErrorBounded: a refused number is quoted in the error in part, as the
// identifier packages quote what they refuse, not whole: a megabyte of digits would make a
// megabyte of message for a log or an HTTP answer.
func TestUnmarshalJSONNumberErrorBounded(t *testing.T) {
	digits := strings.Repeat("9", 1<<20)
	for _, c := range []struct {
		in  string
		err error
	}{
		{digits, ErrIntegerRange},
		{"1." + digits, ErrFraction},
		{`{"n": -` + digits + `e-3}`, ErrFraction},
	} {
		_, err := UnmarshalJSON([]byte(c.in))
		var x struct {
			N int64 `json:"n"`
		}
		err2 := UnmarshalJSONStruct([]byte(`{"n":`+c.in[strings.IndexAny(c.in, "-0123456789"):strings.LastIndexAny(c.in, "0123456789")+1]+`}`), &x)
		for _, err := range []error{err, err2} {
			if !errors.Is(err, c.err) || len(err.Error()) > 200 || !strings.Contains(err.Error(), " bytes)") {
				t.Errorf("%.20s…: %d bytes of error, want %v in at most 200 that give the length: %.120s", c.in, len(err.Error()), c.err, err)
			}
		}
	}
}

func TestUnmarshalJSONInteropValid(t *testing.T) {
	for _, c := range interopCases(t, "data-model-valid.json") {
		t.Run(c.Note, func(t *testing.T) {
			v, err := UnmarshalJSON(c.JSON)
			if err != nil {
				t.Fatalf("UnmarshalJSON: %v", err)
			}
			if err := ValidateRecord(v); err != nil {
				t.Fatalf("ValidateRecord: %v", err)
			}
		})
	}
}

func TestUnmarshalJSONInteropInvalid(t *testing.T) {
	// The rule each invalid case breaks (testdata/interop/data-model/data-model-invalid.json).
	want := map[string]error{
		"top-level not an object":        ErrNotRecord,
		"float":                          ErrFraction,
		"record with $type null":         ErrType,
		"record with $type wrong type":   ErrType,
		"record with empty $type string": ErrType,
		"blob with string size":          ErrBlob,
		"blob with missing key":          ErrBlob,
		"bytes with wrong field type":    ErrBytes,
		"bytes with extra fields":        ErrBytes,
		"link with wrong field type":     ErrLink,
		"link with bogus CID":            ErrInvalidCID,
		"link with extra fields":         ErrLink,
	}
	cases := interopCases(t, "data-model-invalid.json")
	if len(cases) != len(want) {
		t.Errorf("%d invalid cases in the file, %d in the table", len(cases), len(want))
	}
	for _, c := range cases {
		t.Run(c.Note, func(t *testing.T) {
			sentinel, ok := want[c.Note]
			if !ok {
				t.Fatalf("no expected error for case %q", c.Note)
			}
			v, err := UnmarshalJSON(c.JSON)
			if err == nil {
				err = ValidateRecord(v)
			}
			if !errors.Is(err, sentinel) {
				t.Fatalf("got %v, want %v", err, sentinel)
			}
			if !strings.Contains(err.Error(), sentinel.Error()) {
				t.Errorf("message %q does not name the rule", err)
			}
		})
	}
}

// jsonDecodeBase64 refuses the line breaks that encoding/base64 would skip, at the first of
// them, whichever it is.
func TestJSONDecodeBase64LineBreaks(t *testing.T) {
	for _, tc := range []struct {
		in string
		at int64
	}{
		{"AB\rC\nDEF", 2},
		{"AB\nC\rDEF", 2},
		{"ABCDEF\r", 6},
		{"\nABC", 0},
		{"ABC\r=", 3},
	} {
		_, err := jsonDecodeBase64(tc.in)
		var corrupt base64.CorruptInputError
		if !errors.As(err, &corrupt) || int64(corrupt) != tc.at {
			t.Errorf("jsonDecodeBase64(%q) = %v, want a CorruptInputError at %d", tc.in, err, tc.at)
		}
	}
	if b, err := jsonDecodeBase64("AQI="); err != nil || !bytes.Equal(b, []byte{1, 2}) {
		t.Errorf(`jsonDecodeBase64("AQI=") = %v, %v`, b, err)
	}
}
