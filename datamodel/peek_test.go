package datamodel

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// peekSeeds are the inputs RecordTypeCBOR and RecordTypeJSON are checked against the full
// decoders on: the records of testdata/records, the interop data-model cases and the interop
// Lexicon records (JSON, and their DAG-CBOR made by JSONToCBOR), each in both forms where it has
// both.
func peekSeeds(t testing.TB) (cbors, jsons [][]byte) {
	t.Helper()
	for _, r := range cborTestRecords(t) {
		cbors, jsons = append(cbors, r.cbor), append(jsons, r.json)
	}
	for _, file := range []string{"data-model-fixtures.json", "data-model-valid.json", "data-model-invalid.json"} {
		for _, c := range interopCases(t, file) {
			jsons = append(jsons, []byte(c.JSON))
			if c.CBORBase64 != "" {
				cbors = append(cbors, c.cbor(t))
			}
		}
	}
	for _, file := range []string{"lexicon/record-data-valid.json", "lexicon/record-data-invalid.json"} {
		var recs []struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(testvec.File(t, file), &recs); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, r := range recs {
			jsons = append(jsons, r.Data)
			if cb, err := JSONToCBOR(r.Data); err == nil {
				cbors = append(cbors, cb)
			}
		}
	}
	return cbors, jsons
}

// decodedType is what a record type read from the decoded value v should be: the "$type" string
// of a map, "blob" for a Blob in its current form; ok is false when v has none.
func decodedType(v any) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		s, ok := v["$type"].(string)
		return s, ok
	case Blob:
		return "blob", !v.Legacy
	case *Blob:
		return "blob", v != nil && !v.Legacy
	}
	return "", false
}

// checkRecordType checks peek against decode on data: whenever decode accepts data, peek returns
// exactly the decoded value's "$type", or an error if it has none; whatever peek returns, an error
// is an *Error. It reports whether the full decode accepted data.
func checkRecordType(t *testing.T, form string, data []byte, peek func([]byte) ([]byte, error), decode func([]byte, ...Option) (any, error)) bool {
	t.Helper()
	got, err := peek(data)
	if err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("RecordType%s(%q): error %T %v is not an *Error", form, data, err, err)
		}
	}
	v, derr := decode(data)
	if derr != nil {
		return false
	}
	want, ok := decodedType(v)
	switch {
	case !ok && err == nil:
		t.Fatalf("RecordType%s(%q) = %q, but the decoded value has no $type: %#v", form, data, got, v)
	case ok && err != nil:
		t.Fatalf("RecordType%s(%q): %v; the decoded value's $type is %q", form, data, err, want)
	case ok && string(got) != want:
		t.Fatalf("RecordType%s(%q) = %q, the decoded value's $type is %q", form, data, got, want)
	}
	return true
}

func TestRecordTypeAgreesWithDecoders(t *testing.T) {
	cbors, jsons := peekSeeds(t)
	decodedC, decodedJ := 0, 0
	for _, c := range cbors {
		if checkRecordType(t, "CBOR", c, RecordTypeCBOR, UnmarshalCBOR) {
			decodedC++
		}
	}
	for _, j := range jsons {
		if checkRecordType(t, "JSON", j, RecordTypeJSON, UnmarshalJSON) {
			decodedJ++
		}
	}
	// Most seeds are valid: a loader that found none would make this test empty.
	if decodedC < 20 || decodedJ < 20 {
		t.Fatalf("only %d CBOR and %d JSON seeds decode", decodedC, decodedJ)
	}
	// The records of testdata/records all have a type (an NSID).
	for _, r := range cborTestRecords(t) {
		for form, f := range map[string]func([]byte) ([]byte, error){"CBOR": RecordTypeCBOR, "JSON": RecordTypeJSON} {
			in := r.cbor
			if form == "JSON" {
				in = r.json
			}
			if got, err := f(in); err != nil || !strings.Contains(string(got), ".") {
				t.Errorf("RecordType%s(%s) = %q, %v", form, r.name, got, err)
			}
		}
	}
}

// A peekRow is one input and what RecordTypeCBOR or RecordTypeJSON must return: the type, or an
// error with its sentinel, offset and path.
type peekRow struct {
	rule string
	in   []byte
	want string
	err  error
	off  int
	path string
}

func runPeekRows(t *testing.T, form string, peek func([]byte) ([]byte, error), rows []peekRow) {
	t.Helper()
	for _, r := range rows {
		got, err := peek(r.in)
		if r.err == nil {
			if err != nil || string(got) != r.want {
				t.Errorf("%s: RecordType%s(%q) = %q, %v; want %q", r.rule, form, r.in, got, err, r.want)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, r.err) || e.Offset != r.off || e.Path != r.path {
			t.Errorf("%s: RecordType%s(%q) = %q, %v; want %v at offset %d, path %q", r.rule, form, r.in, got, err, r.err, r.off, r.path)
		}
	}
}

func TestRecordTypeCBOR(t *testing.T) {
	h := cborMustHex
	typeA := "65 2474797065 6161" // "$type": "a"
	deep := "a2 6161 " + strings.Repeat("81", 5000) + "00 " + typeA
	rows := []peekRow{
		{rule: "$type alone", in: h("a1" + typeA), want: "a"},
		{rule: "shorter keys skipped, strings from their heads", in: h("a3 6161 63616263 6474657874 9f00 " + typeA), err: ErrIndefinite, off: 12, path: "/text"},
		{rule: "shorter keys skipped", in: h("a4 6161 63616263 6474657874 820102 " + typeA + " 6662797465735f 00"), want: "a"},
		{rule: "a five-byte key that sorts before $type", in: h("a2 652161626364 f6 " + typeA), want: "a"},
		{rule: "nesting skipped without recursion", in: h(deep), want: "a"},
		{rule: "link and map skipped", in: h("a3 6161 d82a58250001711220" + strings.Repeat("00", 32) + " 6162 a16178f5 " + typeA), want: "a"},
		{rule: "nothing after $type is read", in: h("a3" + typeA + "ff ff"), want: "a"},
		{rule: "empty input", in: nil, err: ErrTruncated, off: 0},
		{rule: "not a map", in: h("8100"), err: ErrNotRecord, off: 0},
		{rule: "not a map: a float", in: h("f93c00"), err: ErrFloat, off: 0},
		{rule: "indefinite map", in: h("bf" + typeA + "ff"), err: ErrIndefinite, off: 0},
		{rule: "map count beyond the input", in: h("a5" + typeA), err: ErrTruncated, off: 0},
		{rule: "no $type: empty map", in: h("a0"), err: ErrType, off: 0, path: "/$type"},
		{rule: "no $type: shorter keys only", in: h("a1 6161 01"), err: ErrType, off: 0, path: "/$type"},
		{rule: "no $type: a later key ends the search", in: h("a2 65247479706f 01" + typeA), err: ErrType, off: 0, path: "/$type"},
		{rule: "no $type: a longer key ends the search", in: h("a1 6624747970657a 01"), err: ErrType, off: 0, path: "/$type"},
		{rule: "$type not a string", in: h("a1 652474797065 01"), err: ErrType, off: 7, path: "/$type"},
		{rule: "$type empty", in: h("a1 652474797065 60"), err: ErrType, off: 7, path: "/$type"},
		{rule: "$type not UTF-8", in: h("a1 652474797065 61ff"), err: ErrInvalidUTF8, off: 7, path: "/$type"},
		{rule: "$type truncated", in: h("a1 652474797065 636162"), err: ErrTruncated, off: 7, path: "/$type"},
		{rule: "$type head not minimal", in: h("a1 652474797065 780161"), err: ErrNonMinimal, off: 7, path: "/$type"},
		{rule: "key not a string", in: h("a2 01 01" + typeA), err: ErrKeyNotString, off: 1},
		{rule: "key truncated", in: h("a2 6861 01 0000 00"), err: ErrTruncated, off: 1},
		{rule: "skipped string truncated", in: h("a2 6161 78ff" + typeA), err: ErrTruncated, off: 3, path: "/a"},
		{rule: "skipped head not minimal", in: h("a2 6161 1801" + typeA), err: ErrNonMinimal, off: 3, path: "/a"},
		{rule: "skipped float", in: h("a2 6161 f93c00" + typeA), err: ErrFloat, off: 3, path: "/a"},
		{rule: "skipped simple value", in: h("a2 6161 f7" + typeA), err: ErrSimpleValue, off: 3, path: "/a"},
		{rule: "skipped tag other than 42", in: h("a2 6161 c100" + typeA), err: ErrTag, off: 3, path: "/a"},
		{rule: "skipped array count beyond the input", in: h("a2 6161 9affffffff" + typeA), err: ErrTruncated, off: 3, path: "/a"},
		{rule: "skipped map count beyond the input", in: h("a2 6161 b820 00" + typeA), err: ErrTruncated, off: 3, path: "/a"},
		{rule: "skipped nesting cut short", in: h("a2 6161 " + strings.Repeat("81", 100)), err: ErrTruncated, off: 102, path: "/a"},
	}
	runPeekRows(t, "CBOR", RecordTypeCBOR, rows)
}

func TestRecordTypeJSON(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `,"$type":"a"}`
	rows := []peekRow{
		{rule: "$type first", in: []byte(`{"$type":"app.bsky.feed.like","subject":{}}`), want: "app.bsky.feed.like"},
		{rule: "$type last, members skipped", in: []byte(` { "a" : [1, -2.5e3, true, false, null, {"b": "}]\""}], "c": {} , "$type" : "x" } `), want: "x"},
		{rule: "escaped key", in: []byte(`{"\u0024type":"x"}`), want: "x"},
		{rule: "escaped value, unescaped", in: []byte(`{"$type":"a\u00e9\n"}`), want: "aé\n"},
		{rule: "a duplicate: the first wins", in: []byte(`{"$type":"x","$type":"y"}`), want: "x"},
		{rule: "nesting skipped without recursion", in: []byte(deep), want: "a"},
		{rule: "nothing after $type is read", in: []byte(`{"$type":"x",]`), want: "x"},
		{rule: "empty input", in: nil, err: ErrTruncated, off: 0},
		{rule: "not an object", in: []byte(` [1]`), err: ErrNotRecord, off: 1},
		{rule: "not a value", in: []byte(`x`), err: ErrSyntax, off: 0},
		{rule: "no $type: empty object", in: []byte(` {}`), err: ErrType, off: 1, path: "/$type"},
		{rule: "no $type", in: []byte(`{"a":1,"$typ":"x"}`), err: ErrType, off: 0, path: "/$type"},
		{rule: "$type not a string", in: []byte(`{"$type":1}`), err: ErrType, off: 9, path: "/$type"},
		{rule: "$type null", in: []byte(`{"$type": null}`), err: ErrType, off: 10, path: "/$type"},
		{rule: "$type empty", in: []byte(`{"$type":""}`), err: ErrType, off: 9, path: "/$type"},
		{rule: "$type truncated", in: []byte(`{"$type":"ab`), err: ErrTruncated, off: 9, path: "/$type"},
		{rule: "$type missing value", in: []byte(`{"$type":`), err: ErrTruncated, off: 9, path: "/$type"},
		{rule: "$type lone surrogate", in: []byte(`{"$type":"\ud800"}`), err: ErrInvalidUTF8, off: 10, path: "/$type"},
		{rule: "$type not UTF-8", in: []byte("{\"$type\":\"\xff\"}"), err: ErrInvalidUTF8, off: 10, path: "/$type"},
		{rule: "key not a string", in: []byte(`{1:2}`), err: ErrSyntax, off: 1},
		{rule: "no colon", in: []byte(`{"a" 1}`), err: ErrSyntax, off: 5},
		{rule: "no comma", in: []byte(`{"a":1 "$type":"x"}`), err: ErrSyntax, off: 7},
		{rule: "object cut short", in: []byte(`{"a":1`), err: ErrTruncated, off: 6},
		{rule: "bad literal skipped", in: []byte(`{"a":tru,"$type":"x"}`), err: ErrSyntax, off: 5, path: "/a"},
		{rule: "literal cut short: truncated, as UnmarshalJSON says", in: []byte(`{"a":tru`), err: ErrTruncated, off: 8, path: "/a"},
		{rule: "nested literal cut short", in: []byte(`{"a":[nul`), err: ErrTruncated, off: 9, path: "/a"},
		{rule: "bad string skipped", in: []byte(`{"a":"\x","$type":"x"}`), err: ErrSyntax, off: 6, path: "/a"},
		{rule: "no value", in: []byte(`{"a":,"$type":"x"}`), err: ErrSyntax, off: 5, path: "/a"},
		{rule: "stray bracket", in: []byte(`{"a":],"$type":"x"}`), err: ErrSyntax, off: 5, path: "/a"},
		{rule: "skipped nesting cut short", in: []byte(`{"a":[[`), err: ErrTruncated, off: 7, path: "/a"},
	}
	runPeekRows(t, "JSON", RecordTypeJSON, rows)
}

// TestRecordTypeAllocs: reading the type of a record costs no allocation (the JSON path takes a
// pooled decoder, which the race detector's sync.Pool drops at random: one more there).
func TestRecordTypeAllocs(t *testing.T) {
	want := 0.0
	if cborRaceEnabled {
		want = 1
	}
	for _, r := range cborTestRecords(t) {
		if n := testing.AllocsPerRun(100, func() { _, _ = RecordTypeCBOR(r.cbor) }); n != 0 {
			t.Errorf("RecordTypeCBOR(%s): %v allocations", r.name, n)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = RecordTypeJSON(r.json) }); n > want {
			t.Errorf("RecordTypeJSON(%s): %v allocations", r.name, n)
		}
	}
	// A long key ends the CBOR search without being copied: it costs what the error costs.
	long, empty := cborMustHex("a1 7828"+strings.Repeat("61", 40)+"01"), cborMustHex("a0")
	nLong := testing.AllocsPerRun(100, func() { _, _ = RecordTypeCBOR(long) })
	nEmpty := testing.AllocsPerRun(100, func() { _, _ = RecordTypeCBOR(empty) })
	if nLong != nEmpty {
		t.Errorf("RecordTypeCBOR with a long key: %v allocations, with none: %v", nLong, nEmpty)
	}
	// The type is compared and switched on without a copy.
	_, c := readRecord(t, "post")
	if n := testing.AllocsPerRun(100, func() {
		typ, _ := RecordTypeCBOR(c)
		switch string(typ) {
		case "app.bsky.feed.post":
		default:
			t.Fatal("not a post")
		}
	}); n != 0 {
		t.Errorf("switch string(RecordTypeCBOR(post)): %v allocations", n)
	}
}

// FuzzRecordTypeCBOR: RecordTypeCBOR never panics, its errors are *Error, and whenever
// UnmarshalCBOR accepts the input it returns the decoded map's "$type" (an error if there is
// none).
func FuzzRecordTypeCBOR(f *testing.F) {
	cbors, _ := peekSeeds(f)
	for _, c := range cbors {
		f.Add(c)
	}
	cborFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRecordType(t, "CBOR", data, RecordTypeCBOR, UnmarshalCBOR)
	})
}

// FuzzRecordTypeJSON is FuzzRecordTypeCBOR for RecordTypeJSON and UnmarshalJSON.
func FuzzRecordTypeJSON(f *testing.F) {
	_, jsons := peekSeeds(f)
	for _, j := range jsons {
		f.Add(j)
	}
	for _, s := range []string{`{"\u0024type":"x"}`, `{"$type":"a\u00e9"}`, `{"$type":"x","$type":"y"}`, `{"a":[{"b":"}"}],"$type":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRecordType(t, "JSON", data, RecordTypeJSON, UnmarshalJSON)
	})
}
