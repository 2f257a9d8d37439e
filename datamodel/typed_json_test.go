package datamodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
	"github.com/atcore/atcore/tid"
)

// Lexicon-like Go types for the records of testdata/records that cbor_struct_test.go has no type
// for, tagged for encoding/json as a generator might write them (the plans read json tags too).
type (
	typedTestLike struct {
		Type      string            `json:"$type"`
		Subject   cborTestStrongRef `json:"subject"`
		CreatedAt string            `json:"createdAt"`
	}
	typedTestFollow struct {
		Type      string `json:"$type"`
		Subject   string `json:"subject"`
		CreatedAt string `json:"createdAt"`
	}
	typedTestList struct {
		Type        string            `json:"$type"`
		List        cborTestStrongRef `json:"list"`
		Name        string            `json:"name"`
		Purpose     string            `json:"purpose"`
		Description string            `json:"description,omitempty"`
		Avatar      *Blob             `json:"avatar,omitempty"`
		Items       []struct {
			Subject  string `json:"subject"`
			ListItem string `json:"listItem"`
			AddedAt  string `json:"addedAt"`
		} `json:"items"`
		CreatedAt string `json:"createdAt"`
	}
	typedTestThread struct {
		Type      string        `json:"$type"`
		Root      typedTestNode `json:"root"`
		CreatedAt string        `json:"createdAt"`
	}
	typedTestNode struct {
		Type   string  `json:"$type"`
		Author string  `json:"author"`
		Text   string  `json:"text"`
		Likes  int32   `json:"likes"`
		Flags  []*bool `json:"flags"`
		Quoted *struct {
			Record *typedTestNode `json:"record"`
		} `json:"quoted,omitempty"`
	}
	// typedTestAnyRecord takes every record: its $type and everything else kept.
	typedTestAnyRecord struct {
		Type string        `json:"$type,omitempty"`
		Rest UnknownFields `cbor:"-" json:"-"`
	}
)

// typedTestLexicon returns a new value of the Lexicon type of the record name.
func typedTestLexicon(name string) any {
	switch name {
	case "post":
		return new(cborTestPost)
	case "like":
		return new(typedTestLike)
	case "follow":
		return new(typedTestFollow)
	case "profile":
		return new(cborTestProfile)
	case "list":
		return new(typedTestList)
	case "deep":
		return new(typedTestThread)
	}
	return nil
}

// TestJSONStructRecords: every record of testdata/records read with UnmarshalJSONStruct into its
// Lexicon type (refusing unknown keys, so the type covers the record) gives the record's CBOR
// through MarshalCBORStruct, and MarshalJSONStruct writes what MarshalJSON writes of the generic
// value; read into a struct that keeps its unknown keys, it writes the same JSON back.
func TestJSONStructRecords(t *testing.T) {
	for _, r := range cborTestRecords(t) {
		generic, err := UnmarshalJSON(r.json)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, err := MarshalJSON(generic)
		if err != nil {
			t.Fatal(err)
		}
		v := typedTestLexicon(r.name)
		if err := UnmarshalJSONStruct(r.json, v, DisallowUnknownFields()); err != nil {
			t.Errorf("%s: UnmarshalJSONStruct: %v", r.name, err)
			continue
		}
		if got, err := MarshalCBORStruct(v); err != nil || !bytes.Equal(got, r.cbor) {
			t.Errorf("%s: MarshalCBORStruct after UnmarshalJSONStruct: %v\n got %x\nwant %x", r.name, err, got, r.cbor)
		}
		if got, err := MarshalJSONStruct(v); err != nil || !bytes.Equal(got, wantJSON) {
			t.Errorf("%s: MarshalJSONStruct: %v\n got %s\nwant %s", r.name, err, got, wantJSON)
		}
		var a typedTestAnyRecord
		if err := UnmarshalJSONStruct(r.json, &a); err != nil {
			t.Errorf("%s: into UnknownFields: %v", r.name, err)
			continue
		}
		if got, err := MarshalJSONStruct(&a); err != nil || !bytes.Equal(got, wantJSON) {
			t.Errorf("%s: MarshalJSONStruct with UnknownFields: %v\n got %s\nwant %s", r.name, err, got, wantJSON)
		}
		var x any
		if err := UnmarshalJSONStruct(r.json, &x); err != nil || !reflect.DeepEqual(x, generic) {
			t.Errorf("%s: into any: %v, differs from UnmarshalJSON: %v", r.name, err, !reflect.DeepEqual(x, generic))
		}
	}
}

// typedTestAgree checks that UnmarshalJSONStruct agrees with UnmarshalJSON on data, with opts:
// the same error (sentinel, offset, path, detail) when UnmarshalJSON refuses data; otherwise,
// read into a struct of generic fields (a $type and UnknownFields), MarshalJSONStruct and
// MarshalCBORStruct write what MarshalJSON and MarshalCBOR write of the generic tree. It returns the generic decoder's error.
func typedTestAgree(t *testing.T, name string, data []byte, opts ...Option) error {
	t.Helper()
	generic, gerr := UnmarshalJSON(data, opts...)
	var x any
	xerr := UnmarshalJSONStruct(data, &x, opts...)
	var s typedTestAnyRecord
	serr := UnmarshalJSONStruct(data, &s, opts...)
	if gerr != nil {
		for _, err := range []error{xerr, serr} {
			if !reflect.DeepEqual(err, gerr) {
				t.Errorf("%s: UnmarshalJSONStruct: %v; UnmarshalJSON: %v", name, err, gerr)
			}
		}
		return gerr
	}
	if xerr != nil || !reflect.DeepEqual(x, generic) {
		t.Errorf("%s: into any: %v, %#v; want %#v", name, xerr, x, generic)
	}
	m, isMap := generic.(map[string]any)
	// A blob is an object too (a map in CBOR, rule 13), which UnmarshalJSON gives as a Blob: a
	// struct holds its keys as it holds any object's ($type "blob", or none in the legacy form).
	_, isBlob := generic.(Blob)
	if generic == nil {
		// null leaves a struct as it was, as UnmarshalCBORStruct does.
		if serr != nil || !reflect.DeepEqual(s, typedTestAnyRecord{}) {
			t.Errorf("%s: null into a struct: %v, %#v", name, serr, s)
		}
		return nil
	}
	if !isMap && !isBlob || m["$type"] != nil && reflect.TypeOf(m["$type"]) != typedJSONStringType {
		// Not an object, or one whose $type no string field holds: the Go side refuses it.
		if !errors.Is(serr, ErrGoType) {
			t.Errorf("%s: into a struct: %v, want ErrGoType", name, serr)
		}
		return nil
	}
	if serr != nil {
		t.Errorf("%s: into a struct: %v", name, serr)
		return nil
	}
	wantJSON, err := MarshalJSON(generic, opts...)
	if err != nil {
		t.Fatalf("%s: MarshalJSON: %v", name, err)
	}
	if got, err := MarshalJSONStruct(&s, opts...); err != nil || !bytes.Equal(got, wantJSON) {
		t.Errorf("%s: MarshalJSONStruct: %v\n got %s\nwant %s", name, err, got, wantJSON)
	}
	// MarshalCBORStruct writes the CBOR that MarshalCBOR writes of the generic tree.
	got, err := MarshalCBORStruct(&s, opts...)
	want, werr := MarshalCBOR(generic, opts...)
	if err != nil || werr != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: MarshalCBORStruct: %v %v\n got %x\nwant %x", name, err, werr, got, want)
	}
	return nil
}

// TestJSONStructInterop: the interop vectors, valid and invalid, read by UnmarshalJSONStruct as
// UnmarshalJSON reads them (typedTestAgree).
func TestJSONStructInterop(t *testing.T) {
	n := 0
	for _, file := range []string{"data-model-valid.json", "data-model-fixtures.json"} {
		for _, c := range interopCases(t, file) {
			n++
			if err := typedTestAgree(t, file+" "+c.Note, c.JSON); err != nil {
				t.Errorf("%s %q: %v", file, c.Note, err)
			}
		}
	}
	for _, c := range interopCases(t, "data-model-invalid.json") {
		n++
		typedTestAgree(t, "invalid "+c.Note, c.JSON)
	}
	type record struct {
		Name string          `json:"name"`
		Data json.RawMessage `json:"data"`
	}
	for _, file := range []string{"lexicon/record-data-valid.json", "lexicon/record-data-invalid.json"} {
		var recs []record
		if err := json.Unmarshal(testvec.File(t, file), &recs); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			n++
			if err := typedTestAgree(t, file+" "+r.Name, r.Data); err != nil {
				t.Errorf("%s %q: %v", file, r.Name, err)
			}
		}
	}
	t.Logf("%d vectors", n)
}

// typedTestFields has a field of each kind the typed codec handles.
type typedTestFields struct {
	Type   string           `json:"$type,omitempty"`
	S      string           `json:"s,omitempty"`
	I8     int8             `json:"i8,omitempty"`
	U16    uint16           `json:"u16,omitempty"`
	I      int              `json:"i,omitempty"`
	U64    uint64           `json:"u64,omitempty"`
	B      bool             `json:"b,omitempty"`
	Link   Link             `json:"link,omitzero"`
	PLink  *Link            `json:"plink,omitempty"`
	Bytes  Bytes            `json:"bytes,omitempty"`
	Raw    []byte           `json:"raw,omitempty"`
	Arr    [4]byte          `json:"arr,omitzero"`
	Blob   *Blob            `json:"blob,omitempty"`
	Rev    tid.TID          `json:"rev,omitzero"`
	Langs  []string         `json:"langs,omitempty"`
	Pair   [2]int64         `json:"pair,omitzero"`
	Tags   map[string]int   `json:"tags,omitempty"`
	Any    any              `json:"any,omitempty"`
	Inner  *typedTestFields `json:"inner,omitempty"`
	Float  float64          `json:"float,omitempty"`
	Hidden string           `json:"-"`
}

const (
	typedTestCID     = "bafyreihc3nqam3jekojph32ubr62vdz6ev62lhhuwnbljurrx4g3laa45i"
	typedTestBlobCID = "bafkreidablcns4xgypckn6raftypvbb5dtwjxpbyrw4xt74gt6pyo6gdfe"
)

// TestJSONStructDecode: values into each kind of field, and the errors, located, that the rules
// give (rows named by the rule).
func TestJSONStructDecode(t *testing.T) {
	blob := `{"$type":"blob","ref":{"$link":"` + typedTestBlobCID + `"},"mimeType":"image/png","size":12}`
	tests := []struct {
		name, in string
		opts     []Option
		err      error  // nil: decodes, and check holds
		path     string // of the error
		offset   int
		detail   string // a part of the error's detail
		check    func(v *typedTestFields) bool
	}{
		{name: "string", in: `{"s":"h\u00e9llo"}`, check: func(v *typedTestFields) bool { return v.S == "héllo" }},
		{name: "integers of each size", in: `{"i8":-128,"u16":65535,"i":` + strconv.Itoa(math.MinInt) + `,"u64":9223372036854775807}`,
			check: func(v *typedTestFields) bool {
				return v.I8 == -128 && v.U16 == 65535 && v.I == math.MinInt && v.U64 == 1<<63-1
			}},
		{name: "rule 10: a zero fraction is an integer", in: `{"i":12.0,"i8":1e2}`, check: func(v *typedTestFields) bool { return v.I == 12 && v.I8 == 100 }},
		{name: "rule 10: a fraction", in: `{"i":1.5}`, err: ErrFraction, path: "/i", offset: 5},
		{name: "rule 10: beyond int64", in: `{"u64":9223372036854775808}`, err: ErrIntegerRange, path: "/u64", offset: 7},
		{name: "rule 10: safe integers", in: `{"i":9007199254740992}`, opts: []Option{WithSafeIntegers()}, err: ErrUnsafeInteger, path: "/i", offset: 5},
		{name: "Go range of int8", in: `{"i8":128}`, err: ErrGoType, path: "/i8", offset: 6, detail: "typedTestFields.I8 of type int8 (128 is out of its range)"},
		{name: "Go range of uint16", in: `{"u16":-1}`, err: ErrGoType, path: "/u16", offset: 7, detail: "out of its range"},
		{name: "Go type: string for int", in: `{"i":"1"}`, err: ErrGoType, path: "/i", offset: 5, detail: "typedTestFields.I of type int"},
		{name: "Go type: link for string", in: `{"s":{"$link":"` + typedTestCID + `"}}`, err: ErrGoType, path: "/s", offset: 5, detail: "found a link for"},
		{name: "Go type: float field", in: `{"float":1}`, err: ErrGoType, path: "/float", offset: 9, detail: "float64"},
		{name: "Go type: object for slice", in: `{"langs":{}}`, err: ErrGoType, path: "/langs", offset: 9},
		{name: "Go type: nested element", in: `{"inner":{"langs":["en",1]}}`, err: ErrGoType, path: "/inner/langs/1", offset: 24},
		{name: "bool", in: `{"b":true}`, check: func(v *typedTestFields) bool { return v.B }},
		{name: "rule 10: link", in: `{"link":{"$link":"` + typedTestCID + `"},"plink":{"$link":"` + typedTestCID + `"}}`,
			check: func(v *typedTestFields) bool {
				return v.Link.String() == typedTestCID && v.PLink.String() == typedTestCID
			}},
		{name: "rule 10: $link object with another key", in: `{"link":{"$link":"` + typedTestCID + `","a":1}}`, err: ErrLink, path: "/link", offset: 8},
		{name: "rule 12: CIDv0", in: `{"link":{"$link":"QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR"}}`, err: ErrInvalidCID, path: "/link/$link", offset: 17},
		{name: "rule 14: MaxCIDLen on a nested link", in: `{"link":{"$link":"` + typedTestCID + `"}}`, opts: []Option{WithLimits(Limits{MaxCIDLen: 30})},
			err: ErrInvalidCID, path: "/link/$link", offset: 17, detail: "36 bytes, limit 30"},
		{name: "null link", in: `{"link":null}`, err: ErrGoType, path: "/link", offset: 8, detail: "found null"},
		{name: "rule 10: bytes", in: `{"bytes":{"$bytes":"AQID"},"raw":{"$bytes":"AQ=="},"arr":{"$bytes":"AQIDBA"}}`,
			check: func(v *typedTestFields) bool {
				return string(v.Bytes) == "\x01\x02\x03" && string(v.Raw) == "\x01" && v.Arr == [4]byte{1, 2, 3, 4}
			}},
		{name: "bytes too long for an array", in: `{"arr":{"$bytes":"AQIDBAU"}}`, err: ErrGoType, path: "/arr", offset: 7, detail: "5 bytes"},
		{name: "rule 10: bad base64", in: `{"bytes":{"$bytes":"A"}}`, err: ErrBytes, path: "/bytes/$bytes", offset: 19},
		{name: "rule 13: blob", in: `{"blob":` + blob + `}`, check: func(v *typedTestFields) bool {
			return v.Blob != nil && v.Blob.Size == 12 && v.Blob.MimeType == "image/png"
		}},
		{name: "rule 13: legacy blob", in: `{"blob":{"cid":"` + typedTestBlobCID + `","mimeType":"image/png"}}`,
			check: func(v *typedTestFields) bool { return v.Blob.Legacy && v.Blob.Ref.String() == typedTestBlobCID }},
		{name: "rule 13: blob with a negative size", in: `{"blob":` + strings.Replace(blob, "12", "-1", 1) + `}`, err: ErrBlob, path: "/blob/size"},
		{name: "rule 13: not a blob", in: `{"blob":"x"}`, err: ErrBlob, path: "/blob", offset: 8, detail: "expected a blob, found a string"},
		{name: "rule 13: a struct typed blob", in: `{"$type":"blob","s":"x"}`, err: ErrBlob, path: "/s", offset: 16, detail: `unexpected key "s"`},
		{name: "rule 11: $type", in: `{"$type":"app.test"}`, check: func(v *typedTestFields) bool { return v.Type == "app.test" }},
		{name: "rule 11: empty $type", in: `{"$type":""}`, err: ErrType, path: "/$type", offset: 9},
		{name: "rule 11: $type not a string", in: `{"inner":{"$type":3}}`, err: ErrType, path: "/inner/$type", offset: 18},
		{name: "rule 10: a $link key in a struct", in: `{"$link":"` + typedTestCID + `"}`, err: ErrGoType, offset: 0, detail: "found a link for a Go value of type datamodel.typedTestFields"},
		{name: "TID", in: `{"rev":"3kxnlhr3gxq23"}`, check: func(v *typedTestFields) bool { return v.Rev.String() == "3kxnlhr3gxq23" }},
		{name: "bad TID", in: `{"rev":"3kxnlhr3gxq2"}`, err: ErrGoType, path: "/rev", offset: 7},
		{name: "array and map fields", in: `{"langs":["en","fr"],"pair":[1,2],"tags":{"a":1,"b":2}}`,
			check: func(v *typedTestFields) bool {
				return reflect.DeepEqual(v.Langs, []string{"en", "fr"}) && v.Pair == [2]int64{1, 2} && v.Tags["b"] == 2
			}},
		{name: "empty array is not nil", in: `{"langs":[]}`, check: func(v *typedTestFields) bool { return v.Langs != nil && len(v.Langs) == 0 }},
		{name: "any field gets the generic value", in: `{"any":{"a":[1,{"$bytes":"AQ"}],"b":` + blob + `}}`,
			check: func(v *typedTestFields) bool {
				m := v.Any.(map[string]any)
				_, isBlob := m["b"].(Blob)
				return isBlob && reflect.DeepEqual(m["a"], []any{int64(1), Bytes{1}})
			}},
		{name: "null leaves scalars, clears pointers", in: `{"s":null,"inner":null,"langs":null}`, check: func(v *typedTestFields) bool {
			return v.S == "" && v.Inner == nil && v.Langs == nil
		}},
		{name: "ErrDuplicateKey: a field", in: `{"s":"a","s":"b"}`, err: ErrDuplicateKey, path: "/s", offset: 9},
		{name: "ErrDuplicateKey: an ignored key", in: `{"x":1,"s":"a","x":2}`, err: ErrDuplicateKey, path: "/x", offset: 15},
		{name: "ErrDuplicateKey: in a map field", in: `{"tags":{"a":1,"a":1}}`, err: ErrDuplicateKey, path: "/tags/a", offset: 15},
		{name: "ErrDuplicateKey after a later error: the later error, as UnmarshalJSON", in: `{"s":"a","s":"b","i":1.5}`, err: ErrFraction, path: "/i", offset: 21},
		{name: "unknown key ignored", in: `{"zz":{"deep":[1,2]},"s":"x"}`, check: func(v *typedTestFields) bool { return v.S == "x" }},
		{name: "unknown key still checked", in: `{"zz":{"deep":[1,2.5]}}`, err: ErrFraction, path: "/zz/deep/1", offset: 17},
		{name: "unknown key refused", in: `{"s":"x","zz":1}`, opts: []Option{DisallowUnknownFields()}, err: ErrGoType, path: "/zz", offset: 9,
			detail: `no field of Go type datamodel.typedTestFields for the key "zz"`},
		{name: "a field tagged - has no key", in: `{"Hidden":"x"}`, opts: []Option{DisallowUnknownFields()}, err: ErrGoType, path: "/Hidden"},
		{name: "keys are case-sensitive", in: `{"S":"x"}`, opts: []Option{DisallowUnknownFields()}, err: ErrGoType, path: "/S"},
		{name: "rule 14: MaxDepth", in: `{"inner":{"inner":{"inner":{}}}}`, opts: []Option{WithLimits(Limits{MaxDepth: 3})}, err: ErrTooDeep, path: "/inner/inner/inner", offset: 27},
		{name: "rule 14: a link may sit one below MaxDepth", in: `{"inner":{"link":{"$link":"` + typedTestCID + `"}}}`, opts: []Option{WithLimits(Limits{MaxDepth: 2})},
			check: func(v *typedTestFields) bool { return v.Inner.Link.Defined() }},
		{name: "rule 14: MaxElements", in: `{"langs":["a","b","c"]}`, opts: []Option{WithLimits(Limits{MaxElements: 2})}, err: ErrTooManyElements, path: "/langs", offset: 18},
		{name: "rule 14: MaxElements of a struct", in: `{"s":"","i":1,"b":true}`, opts: []Option{WithLimits(Limits{MaxElements: 2})}, err: ErrTooManyElements},
		{name: "rule 14: MaxKeyLen", in: `{"inner":{"langs":[]}}`, opts: []Option{WithLimits(Limits{MaxKeyLen: 4})}, err: ErrKeyTooLong, offset: 1},
		{name: "rule 14: MaxValues", in: `{"langs":["a","b","c"]}`, opts: []Option{WithLimits(Limits{MaxValues: 4})}, err: ErrTooManyValues},
		{name: "rule 14: MaxJSONSize", in: `{"s":"abcdefgh"}`, opts: []Option{WithLimits(Limits{MaxJSONSize: 10})}, err: ErrTooLarge, offset: 10},
		{name: "syntax: trailing comma", in: `{"s":"a",}`, err: ErrSyntax, offset: 9},
		{name: "syntax: trailing bytes", in: `{} {}`, err: ErrTrailingBytes, offset: 3},
		{name: "UTF-8: lone surrogate", in: `{"s":"\ud800"}`, err: ErrInvalidUTF8, path: "/s", offset: 6},
		{name: "top level not an object", in: `[1]`, err: ErrGoType, offset: 0, detail: "found an array for a Go value of type datamodel.typedTestFields"},
	}
	for _, tt := range tests {
		var v typedTestFields
		err := UnmarshalJSONStruct([]byte(tt.in), &v, tt.opts...)
		if tt.err == nil {
			if err != nil || !tt.check(&v) {
				t.Errorf("%s: %v, %+v", tt.name, err, v)
			}
			continue
		}
		var e *Error
		if !errors.Is(err, tt.err) || !errors.As(err, &e) || e.Path != tt.path || tt.offset != 0 && e.Offset != tt.offset ||
			!strings.Contains(e.Detail, tt.detail) {
			t.Errorf("%s: %v, want %v at %q offset %d with %q", tt.name, err, tt.err, tt.path, tt.offset, tt.detail)
		}
		if tt.offset == 0 && e != nil && e.Offset < 0 {
			t.Errorf("%s: no offset: %v", tt.name, err)
		}
	}
}

// TestJSONStructToArray: a struct marked toarray (fxamacker's marker, which the plans honour) is
// the array of its fields in JSON as in CBOR.
func TestJSONStructToArray(t *testing.T) {
	type pair struct {
		_    struct{} `cbor:",toarray"`
		Name string
		N    int32
		L    *Link
	}
	var v struct {
		P pair `json:"p"`
	}
	in := `{"p":["a",7,{"$link":"` + typedTestCID + `"},"extra"]}`
	if err := UnmarshalJSONStruct([]byte(in), &v); err != nil || v.P.Name != "a" || v.P.N != 7 || v.P.L == nil {
		t.Fatalf("%v %+v", err, v)
	}
	out, err := MarshalJSONStruct(&v)
	if want := `{"p":["a",7,{"$link":"` + typedTestCID + `"}]}`; err != nil || string(out) != want {
		t.Errorf("%s %v", out, err)
	}
	cb, err := MarshalCBORStruct(&v)
	if fromJSON, jerr := JSONToCBOR(out); err != nil || jerr != nil || !bytes.Equal(cb, fromJSON) {
		t.Errorf("MarshalCBORStruct %x %v; from JSON %x %v", cb, err, fromJSON, jerr)
	}
	if err := UnmarshalJSONStruct([]byte(`{"p":{"Name":"a"}}`), &v); !errors.Is(err, ErrGoType) || err.(*Error).Path != "/p" {
		t.Errorf("an object: %v", err)
	}
	if err := UnmarshalJSONStruct([]byte(`{"p":["a","b"]}`), &v); !errors.Is(err, ErrGoType) || err.(*Error).Path != "/p/1" {
		t.Errorf("a bad element: %v", err)
	}
}

// TestJSONStructRestart: a map field that holds entries already, and a decode read again with the
// generic decoder's careful path (a blob whose "$type" is not its first key, in a field typed
// any), find no duplicate that is not in the input.
func TestJSONStructRestart(t *testing.T) {
	in := `{"tags":{"a":1,"b":2},"any":{"mimeType":"a/b","$type":"blob","ref":{"$link":"` + typedTestBlobCID + `"},"size":1}}`
	v := typedTestFields{Tags: map[string]int{"a": 0, "c": 3}}
	if err := UnmarshalJSONStruct([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if _, ok := v.Any.(Blob); !ok || !reflect.DeepEqual(v.Tags, map[string]int{"a": 1, "b": 2, "c": 3}) {
		t.Errorf("got %#v, %v", v.Any, v.Tags)
	}
}

// TestJSONStructUnknownFields: a record read with a key its type lacks, kept in UnknownFields,
// written back in place, JSON and CBOR alike; and the default and DisallowUnknownFields.
func TestJSONStructUnknownFields(t *testing.T) {
	type like struct {
		Type      string            `json:"$type"`
		CreatedAt string            `json:"createdAt"`
		Extra     UnknownFields     `cbor:"-" json:"-"`
		Subject   cborTestStrongRef `json:"subject"`
	}
	in := `{"$type":"app.bsky.feed.like","createdAt":"2024-11-08T09:43:02.118Z","subject":{"cid":"` + typedTestCID +
		`","uri":"at://x"},"via":{"$link":"` + typedTestCID + `"},"a":[1]}`
	var v like
	if err := UnmarshalJSONStruct([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Extra) != 2 || v.Extra["via"] == nil {
		t.Fatalf("UnknownFields: %#v", v.Extra)
	}
	got, err := MarshalJSONStruct(&v)
	if err != nil {
		t.Fatal(err)
	}
	generic, _ := UnmarshalJSON([]byte(in))
	want, _ := MarshalJSON(generic)
	if !bytes.Equal(got, want) {
		t.Errorf("written back:\n got %s\nwant %s", got, want)
	}
	// A struct that keeps unknown keys keeps them under DisallowUnknownFields too.
	if err := UnmarshalJSONStruct([]byte(in), &v, DisallowUnknownFields()); err != nil {
		t.Errorf("DisallowUnknownFields with UnknownFields: %v", err)
	}
	var plain typedTestLike
	if err := UnmarshalJSONStruct([]byte(in), &plain); err != nil || plain.Subject.URI != "at://x" {
		t.Errorf("ignored: %v", err)
	}
	err = UnmarshalJSONStruct([]byte(in), &plain, DisallowUnknownFields())
	var e *Error
	if !errors.As(err, &e) || e.Err != ErrGoType || e.Path != "/via" || e.Offset != strings.Index(in, `"via"`) {
		t.Errorf("refused: %v", err)
	}
	// An entry with the key of a field is not written twice.
	v.Extra["subject"] = "x"
	if _, err := MarshalJSONStruct(&v); !errors.Is(err, ErrGoType) || err.(*Error).Path != "/subject" {
		t.Errorf("colliding entry: %v", err)
	}
}

// TestJSONStructEncode: MarshalJSONStruct's layout and refusals, checked against MarshalJSON of
// the same value as a generic tree.
func TestJSONStructEncode(t *testing.T) {
	link := cborTestLink(t, typedTestCID)
	blobLink := cborTestLink(t, typedTestBlobCID)
	tr := true
	tests := []struct {
		name string
		v    any
		want string // the JSON, or "" for an error
		err  error
		path string
	}{
		{name: "omitempty leaves out empty values", v: typedTestFields{}, want: `{}`},
		{name: "keys in bytewise order", v: typedTestFields{Type: "a.b", S: "x", I: -1, B: true, Langs: []string{"en"}},
			want: `{"$type":"a.b","b":true,"i":-1,"langs":["en"],"s":"x"}`},
		{name: "nil pointer, slice and map are null", v: struct {
			P *int            `json:"p"`
			S []string        `json:"s"`
			M map[string]bool `json:"m"`
			B Bytes           `json:"b"`
		}{}, want: `{"b":null,"m":null,"p":null,"s":null}`},
		{name: "links, bytes, blobs, TIDs", v: typedTestFields{Link: link, Bytes: Bytes{1, 2, 3}, Arr: [4]byte{1}, Rev: tid.MustParse("3kxnlhr3gxq23"),
			Blob: &Blob{Ref: blobLink, MimeType: "image/png", Size: 3}},
			want: `{"arr":{"$bytes":"AQAAAA"},"blob":{"$type":"blob","mimeType":"image/png","ref":{"$link":"` + typedTestBlobCID + `"},"size":3},"bytes":{"$bytes":"AQID"},"link":{"$link":"` + typedTestCID + `"},"rev":"3kxnlhr3gxq23"}`},
		{name: "escaping as MarshalJSON", v: typedTestFields{S: "a\"\\\n\x01é<"}, want: `{"s":"a\"\\\n\u0001é<"}`},
		{name: "maps sorted", v: typedTestFields{Tags: map[string]int{"b": 2, "a": 1}}, want: `{"tags":{"a":1,"b":2}}`},
		{name: "pointers followed", v: struct {
			B **bool `json:"b"`
		}{B: func() **bool { p := &tr; return &p }()}, want: `{"b":true}`},
		{name: "rule 11: empty $type", v: struct {
			Type string `json:"$type"`
		}{}, err: ErrType, path: "/$type"},
		{name: "rule 11: $type not a string", v: struct {
			Type int `json:"$type"`
		}{Type: 1}, err: ErrType, path: "/$type"},
		{name: "rule 10: a $link field", v: struct {
			L string `json:"$link"`
		}{L: "x"}, err: ErrLink, path: "/$link"},
		{name: "rule 13: a struct typed blob, of the wrong shape", v: struct {
			Type string `json:"$type"`
			Ref  string `json:"ref"`
		}{Type: "blob", Ref: "x"}, err: ErrBlob, path: ""},
		{name: "rule 13: a struct typed blob, of the blob shape", v: struct {
			Type     string `json:"$type"`
			Ref      Link   `json:"ref"`
			MimeType string `json:"mimeType"`
			Size     int32  `json:"size"`
		}{Type: "blob", Ref: blobLink, MimeType: "a/b", Size: 1},
			want: `{"$type":"blob","mimeType":"a/b","ref":{"$link":"` + typedTestBlobCID + `"},"size":1}`},
		{name: "rule 12: undefined link", v: struct {
			L Link `json:"l"`
		}{}, err: ErrInvalidCID, path: "/l"},
		{name: "rule 13: blob without a mime type", v: typedTestFields{Blob: &Blob{Ref: blobLink}}, err: ErrBlob, path: "/blob/mimeType"},
		{name: "UTF-8 of a string", v: typedTestFields{Langs: []string{"ok", "\xff"}}, err: ErrInvalidUTF8, path: "/langs/1"},
		{name: "rule 9: uint64 beyond int64", v: typedTestFields{U64: 1 << 63}, err: ErrIntegerRange, path: "/u64"},
		{name: "floats", v: typedTestFields{Float: 1.5}, err: ErrFloat, path: "/float"},
		{name: "any holds Go values, written by their plans", v: typedTestFields{Any: map[string]any{"x": []any{[]string{"a"}, &cborTestStrongRef{URI: "u", CID: "c"}, map[string]any(nil)}}},
			want: `{"any":{"x":[["a"],{"cid":"c","uri":"u"},null]}}`},
		{name: "a cid.Cid in any is the link it is in a generic tree", v: typedTestFields{Any: link.CID()},
			want: `{"any":{"$link":"` + typedTestCID + `"}}`},
		{name: "map rules inside any", v: typedTestFields{Any: map[string]any{"$type": "blob", "ref": []string{}}}, err: ErrBlob, path: "/any"},
		{name: "any holds a generic value", v: typedTestFields{Any: map[string]any{"$bytes": "x"}}, err: ErrBytes, path: "/any/$bytes"},
		// At the top, as in a field typed any: the value MarshalJSON and MarshalCBORStruct write
		// (empty bytes, not the null of a nil []byte field).
		{name: "nil Bytes at the top", v: Bytes(nil), want: `{"$bytes":""}`},
		{name: "nil []byte at the top", v: []byte(nil), want: `{"$bytes":""}`},
	}
	for _, tt := range tests {
		got, err := MarshalJSONStruct(tt.v)
		if tt.err == nil {
			if err != nil || string(got) != tt.want {
				t.Errorf("%s: %s, %v; want %s", tt.name, got, err, tt.want)
			}
			continue
		}
		var e *Error
		if !errors.Is(err, tt.err) || !errors.As(err, &e) || e.Path != tt.path || e.Offset != -1 {
			t.Errorf("%s: %v; want %v at %q", tt.name, err, tt.err, tt.path)
		}
	}
	// Limits, as MarshalJSON's, and a cycle.
	deep := &typedTestFields{}
	for range 40 {
		deep = &typedTestFields{Inner: deep}
	}
	if _, err := MarshalJSONStruct(deep); !errors.Is(err, ErrTooDeep) {
		t.Errorf("depth: %v", err)
	}
	if _, err := MarshalJSONStruct(deep, WithLimits(Limits{MaxDepth: 100})); err != nil {
		t.Errorf("raised depth: %v", err)
	}
	cyc := &typedTestFields{}
	cyc.Inner = cyc
	if _, err := MarshalJSONStruct(cyc, WithLimits(Limits{MaxDepth: MaxDepthCeiling})); !errors.Is(err, ErrTooDeep) || !strings.Contains(err.Error(), "cyclic") {
		t.Errorf("cycle: %v", err)
	}
	if _, err := MarshalJSONStruct(typedTestFields{Langs: []string{"a", "b", "c"}}, WithLimits(Limits{MaxElements: 2})); !errors.Is(err, ErrTooManyElements) {
		t.Errorf("elements: %v", err)
	}
	if _, err := MarshalJSONStruct(typedTestFields{U64: 1 << 60}, WithSafeIntegers()); !errors.Is(err, ErrUnsafeInteger) {
		t.Errorf("safe integers: %v", err)
	}
}

// TestJSONStructDepth: a recursive Go type read from input nested far deeper than the ceiling is
// refused at the limit, without recursing further (a stack overflow would kill the test binary).
func TestJSONStructDepth(t *testing.T) {
	const n = 100_000
	in := strings.Repeat(`{"inner":`, n) + `{}` + strings.Repeat(`}`, n)
	var v typedTestFields
	lim := Limits{MaxDepth: MaxDepthCeiling, MaxJSONSize: 1 << 30}
	err := UnmarshalJSONStruct([]byte(in), &v, WithLimits(lim))
	// The generic decoder's error, at the first object beyond the limit (a leaf, $link or
	// $bytes, could sit there, but an object holding an object is none).
	if !errors.Is(err, ErrTooDeep) || err.(*Error).Offset != 9*MaxDepthCeiling {
		t.Errorf("got %v", err.(*Error).Err)
	}
	in = strings.Repeat(`[`, n) + strings.Repeat(`]`, n)
	var nested []any
	if err := UnmarshalJSONStruct([]byte(in), &nested, WithLimits(lim)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("arrays: %v", err)
	}
}

// TestJSONStructEntry: what v must be.
func TestJSONStructEntry(t *testing.T) {
	var s typedTestFields
	for _, v := range []any{nil, s, (*typedTestFields)(nil)} {
		if err := UnmarshalJSONStruct([]byte(`{}`), v); !errors.Is(err, ErrGoType) {
			t.Errorf("%T: %v", v, err)
		}
	}
	if got, err := MarshalJSONStruct(nil); err != nil || string(got) != "null" {
		t.Errorf("nil: %s %v", got, err)
	}
	if got, err := MarshalJSONStruct((*typedTestFields)(nil)); err != nil || string(got) != "null" {
		t.Errorf("nil pointer: %s %v", got, err)
	}
}
