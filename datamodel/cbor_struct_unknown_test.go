package datamodel

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// structUnknownOuter nests structs in every way a key can be reached: a pointer field, a slice
// of structs, a map of structs, a promoted embedded field, and a field typed map[string]any,
// which has no unknown keys.
type (
	structUnknownOuter struct {
		structUnknownBase
		Type  string                        `cbor:"$type"`
		Embed *cborTestEmbedImage           `cbor:"embed,omitempty"`
		Refs  map[string]cborTestStrongRef  `cbor:"refs,omitempty"`
		Kids  []structUnknownOuter          `cbor:"kids,omitempty"`
		Free  map[string]any                `cbor:"free,omitempty"`
		Byref map[string]*cborTestStrongRef `cbor:"byref,omitempty"`
	}
	structUnknownBase struct {
		Note string `cbor:"note,omitempty"`
	}
)

// TestUnmarshalCBORStructUnknownFields: a key the Go type has no field for is ignored by default,
// as the Lexicon spec asks ("Unexpected fields in data which otherwise conforms to the Lexicon
// should be ignored", https://atproto.com/specs/lexicon); under DisallowUnknownFields it is
// ErrGoType, at the key's offset, with the member's JSON Pointer and the key in the detail.
func TestUnmarshalCBORStructUnknownFields(t *testing.T) {
	raw := cborTestLink(t, cborTestBlobLinkString)
	image := func(extra map[string]any) map[string]any {
		m := map[string]any{"alt": "a", "image": Blob{Ref: raw, MimeType: "image/png", Size: 3}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	ref := map[string]any{"uri": "at://did:plc:x/a.b.c/1", "cid": "bafy"}
	base := func() map[string]any {
		return map[string]any{"$type": "a.b.c", "note": "n",
			"embed": map[string]any{"$type": "app.bsky.embed.images", "images": []any{image(nil), image(nil)}},
			"refs":  map[string]any{"r": ref}, "byref": map[string]any{"r": ref},
			"free": map[string]any{"anything": int64(1)},
			"kids": []any{map[string]any{"$type": "a.b.c"}}}
	}
	rows := []struct {
		rule string
		edit func(m map[string]any) // adds one unknown key
		path string                 // of the unknown member
		key  string
	}{
		{"Lexicon: a field a newer revision added, at the top", func(m map[string]any) { m["newField"] = "x" }, "/newField", "newField"},
		{"Lexicon: a field in a struct behind a pointer", func(m map[string]any) { m["embed"].(map[string]any)["video"] = int64(1) }, "/embed/video", "video"},
		{"Lexicon: a field in the second struct of a slice", func(m map[string]any) {
			m["embed"].(map[string]any)["images"].([]any)[1] = image(map[string]any{"aspectRatioX": []any{int64(1)}})
		}, "/embed/images/1/aspectRatioX", "aspectRatioX"},
		{"Lexicon: a field in a struct held in a map", func(m map[string]any) {
			m["refs"] = map[string]any{"r": map[string]any{"uri": "u", "cid": "c", "extra": nil}}
		}, "/refs/r/extra", "extra"},
		{"Lexicon: a field in a struct behind a pointer held in a map", func(m map[string]any) {
			m["byref"] = map[string]any{"r": map[string]any{"uri": "u", "cid": "c", "x~/": true}}
		}, "/byref/r/x~0~1", "x~/"},
		{"Lexicon: a field in a recursive struct", func(m map[string]any) {
			m["kids"] = []any{map[string]any{"$type": "a.b.c", "kids": []any{map[string]any{"$type": "a.b.c", "z": int64(0)}}}}
		}, "/kids/0/kids/0/z", "z"},
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			m := base()
			r.edit(m)
			data, err := MarshalCBOR(m)
			if err != nil {
				t.Fatal(err)
			}
			// Default: ignored, and the known fields read as without the key.
			var got, want structUnknownOuter
			if err := UnmarshalCBORStruct(data, &got); err != nil {
				t.Fatalf("default: %v, want the key ignored", err)
			}
			without := base()
			r.edit(without)
			structDeleteAt(t, without, r.path)
			plain, err := MarshalCBOR(without)
			if err != nil {
				t.Fatal(err)
			}
			if err := UnmarshalCBORStruct(plain, &want, DisallowUnknownFields()); err != nil {
				t.Fatalf("without the key: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("default: %+v\nwant %+v", got, want)
			}
			// Refused on request, located.
			for _, opts := range [][]Option{
				{DisallowUnknownFields()},
				{DisallowUnknownFields(), WithLimits(Limits{MaxDepth: 20})},
				{WithLimits(Limits{MaxDepth: 20}), DisallowUnknownFields()},
			} {
				var into structUnknownOuter
				err := UnmarshalCBORStruct(data, &into, opts...)
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, ErrGoType) {
					t.Fatalf("%d options: %v, want ErrGoType", len(opts), err)
				}
				keyHead := append(cborAppendHead(nil, cborMajorText, uint64(len(r.key))), r.key...)
				if e.Path != r.path || e.Offset != bytes.Index(data, keyHead) || !strings.Contains(e.Detail, `"`+r.key+`"`) {
					t.Errorf("%d options: %v (path %q, offset %d); want path %q, offset %d, the key named",
						len(opts), err, e.Path, e.Offset, r.path, bytes.Index(data, keyHead))
				}
			}
		})
	}
	// Keys the type has: a promoted field, and any key of a map[string]any field.
	data, err := MarshalCBOR(base())
	if err != nil {
		t.Fatal(err)
	}
	var v structUnknownOuter
	if err := UnmarshalCBORStruct(data, &v, DisallowUnknownFields()); err != nil || v.Note != "n" || v.Free["anything"] != int64(1) {
		t.Errorf("no unknown key: %+v, %v", v, err)
	}
	// Into any or map[string]any, no key is unknown.
	for _, into := range []any{new(any), new(map[string]any)} {
		if err := UnmarshalCBORStruct(data, into, DisallowUnknownFields()); err != nil {
			t.Errorf("%T: %v", into, err)
		}
	}
}

// structDeleteAt deletes the member at the JSON Pointer path of the tree v.
func structDeleteAt(t *testing.T, v any, path string) {
	t.Helper()
	toks := strings.Split(path[1:], "/")
	for i, tok := range toks {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			if i == len(toks)-1 {
				delete(x, tok)
				return
			}
			v = x[tok]
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || i == len(toks)-1 {
				t.Fatalf("bad path %q", path)
			}
			v = x[n]
		default:
			t.Fatalf("bad path %q", path)
		}
	}
}

// TestUnmarshalCBORStructUnknownRecords: every record of testdata/records, with a field no
// Lexicon has added at the top, decodes into the Lexicon-like types by default, and is refused
// under DisallowUnknownFields.
func TestUnmarshalCBORStructUnknownRecords(t *testing.T) {
	posts := 0
	defer func() {
		if posts == 0 {
			t.Error("no app.bsky.feed.post record in testdata/records")
		}
	}()
	for _, rec := range cborTestRecords(t) {
		v, err := UnmarshalCBOR(rec.cbor)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := v.(map[string]any)
		if !ok || m["$type"] != "app.bsky.feed.post" {
			continue
		}
		posts++
		m["zzFuture"] = []any{int64(1), "two"}
		data, err := MarshalCBOR(m)
		if err != nil {
			t.Fatal(err)
		}
		var p cborTestPost
		if err := UnmarshalCBORStruct(data, &p); err != nil || p.Text != m["text"] {
			t.Errorf("%s: default: %+v, %v", rec.name, p, err)
		}
		var e *Error
		if err := UnmarshalCBORStruct(data, new(cborTestPost), DisallowUnknownFields()); !errors.As(err, &e) || e.Path != "/zzFuture" {
			t.Errorf("%s: DisallowUnknownFields: %v, want the key at /zzFuture", rec.name, err)
		}
	}
}

// TestUnmarshalCBORStructMethodErrors: an error of a Link or Blob field's UnmarshalCBOR method
// is located in the whole input, at the field's path and offset (it used to have Offset -1 and
// only the path inside the item, "/ref" rather than "/b/ref"), as UnmarshalCBOR locates errors.
func TestUnmarshalCBORStructMethodErrors(t *testing.T) {
	type holder struct {
		Type  string          `cbor:"$type"`
		Links []Link          `cbor:"links"`
		Opt   *Link           `cbor:"opt"`
		Image *cborTestImage  `cbor:"image,omitempty"`
		Blobs map[string]Blob `cbor:"blobs,omitempty"`
	}
	raw := cborTestLink(t, cborTestBlobLinkString)
	blob := Blob{Ref: raw, MimeType: "a/b", Size: 1}
	base := func() map[string]any {
		return map[string]any{"$type": "a.b.c", "links": []any{raw, raw}, "opt": nil,
			"image": map[string]any{"alt": "x", "image": blob}, "blobs": map[string]any{"k": blob}}
	}
	rows := []struct {
		rule string
		edit func(m map[string]any)
		want error
		path string
		at   func(data []byte) int // the offset wanted
	}{
		{"rule 12: a string for the second Link of a slice", func(m map[string]any) { m["links"] = []any{raw, "bafy"} },
			ErrGoType, "/links/1", func(d []byte) int { return bytes.Index(d, []byte("\x64bafy")) }},
		{"rule 13: a string for a Blob field", func(m map[string]any) { m["image"].(map[string]any)["image"] = "blob" },
			ErrBlob, "/image/image", func(d []byte) int { return bytes.Index(d, []byte("\x64blob\x65")) }},
		{"rule 13: a plain map for a Blob in a map", func(m map[string]any) { m["blobs"] = map[string]any{"k": map[string]any{"a": int64(1)}} },
			ErrBlob, "/blobs/k", func(d []byte) int { return bytes.Index(d, []byte("\xa1\x61a\x01")) }},
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			m := base()
			r.edit(m)
			data, err := MarshalCBOR(m)
			if err != nil {
				t.Fatal(err)
			}
			var h holder
			err = UnmarshalCBORStruct(data, &h)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%v (%T), want an *Error", err, err)
			}
			if !errors.Is(err, r.want) || e.Path != r.path || e.Offset != r.at(data) || r.at(data) < 0 {
				t.Errorf("%v (path %q, offset %d); want %v at %q, offset %d", err, e.Path, e.Offset, r.want, r.path, r.at(data))
			}
		})
	}
	// A null *Link is nil, no error; the input without faults decodes.
	data, err := MarshalCBOR(base())
	if err != nil {
		t.Fatal(err)
	}
	var h holder
	if err := UnmarshalCBORStruct(data, &h); err != nil || h.Opt != nil || len(h.Links) != 2 {
		t.Errorf("%+v, %v", h, err)
	}
}

// TestUnknownFieldsClash: a struct whose UnknownFields has the key of one of its fields is refused
// by every entry point with one error, ErrGoType at the first such key in canonical key order,
// before anything else inside the struct is looked at, the same on every run whatever the order
// in which Go ranges over the map.
func TestUnknownFieldsClash(t *testing.T) {
	type clash struct {
		Type string        `json:"$type"`
		A    string        `json:"a"`
		BB   string        `json:"bb"`
		C    string        `json:"c,omitempty"`
		U    UnknownFields `json:"-"`
	}
	rows := []struct {
		rule string
		v    any
		path string
	}{
		{"two clashes: the first in canonical key order", &clash{Type: "app.x", U: UnknownFields{"c": "x", "bb": "y"}}, "/c"},
		{"a clash with a field left out by omitempty", &clash{Type: "app.x", U: UnknownFields{"c": "x"}}, "/c"},
		{"a clash before a bad field", &clash{Type: "app.x", A: "\xff", U: UnknownFields{"bb": "y"}}, "/bb"},
		{"a clash before a bad entry", &clash{Type: "app.x", U: UnknownFields{"bb": "y", "zz": 1.5}}, "/bb"},
		{"a clash on $type", &clash{Type: "app.x", U: UnknownFields{"$type": "app.y"}}, "/$type"},
		{"a clash before the map rules", &clash{Type: "blob", U: UnknownFields{"a": "y"}}, "/a"},
		{"in a slice", []any{&clash{Type: "app.x", U: UnknownFields{"c": "x", "bb": "y"}}}, "/0/c"},
		{"in a field typed any", map[string]any{"k": clash{Type: "app.x", U: UnknownFields{"bb": "x", "c": "y"}}}, "/k/c"},
	}
	want := func(path string) error { return &Error{Err: ErrGoType, Offset: -1, Path: path} }
	for _, r := range rows {
		for range 20 {
			errs := map[string]error{"Validate": Validate(r.v)}
			_, errs["MarshalCBOR"] = MarshalCBOR(r.v)
			_, errs["MarshalCBORStruct"] = MarshalCBORStruct(r.v)
			_, errs["MarshalJSON"] = MarshalJSON(r.v)
			_, errs["MarshalJSONStruct"] = MarshalJSONStruct(r.v)
			if _, ok := recordMap(r.v, DefaultMaxDepth); ok {
				_, errs["RecordCID"] = RecordCID(r.v)
				errs["ValidateRecord"] = ValidateRecord(r.v)
			}
			for name, err := range errs {
				if !sameError(err, want(r.path)) {
					t.Fatalf("%s: %s: %v, want ErrGoType at %q", r.rule, name, err, r.path)
				}
			}
		}
	}
}
