package datamodel

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/tid"
)

// Go types for the Go-value rows: what a Lexicon code generator, or a hand-written service,
// holds records in.
type (
	goTestLang   string
	goTestByte   uint8
	goTestCount  uint16
	goTestRecord struct {
		Type    string            `cbor:"$type"`
		Text    string            `json:"text"` // the json tag, when there is no cbor tag
		Langs   []goTestLang      `cbor:"langs,omitempty"`
		Counts  map[string]int32  `cbor:"counts,omitempty"`
		Views   goTestCount       `cbor:"views"`
		Avatar  *Blob             `cbor:"avatar,omitempty"`
		Links   []Link            `cbor:"links,omitempty"`
		Rev     tid.TID           `cbor:"rev"`
		Hash    [2]byte           `cbor:"hash"`
		Nested  *goTestRecord     `cbor:"nested,omitempty"`
		Extra   any               `cbor:"extra,omitempty"`
		Skipped string            `cbor:"-"`
		hidden  string            //nolint:unused // unexported: never written
		Unknown UnknownFields     `cbor:"-" json:"-"`
		Tags    map[string]string `cbor:"tags,omitempty"`
	}
	goTestEmbedded struct {
		goTestBase
		*goTestPtrBase
		Own string `cbor:"own"`
	}
	goTestBase struct {
		Base int64 `cbor:"base"`
	}
	goTestPtrBase struct {
		Promoted string `cbor:"promoted"`
	}
	goTestNode struct {
		Name string      `cbor:"name"`
		Next *goTestNode `cbor:"next,omitempty"`
		Alt  *goTestNode `cbor:"alt,omitempty"`
	}
	goTestCycleMap   map[string]goTestCycleMap
	goTestCycleSlice []any
	goTestFunc       struct {
		F func() `cbor:"f"`
	}
	goTestPair struct {
		_ struct{} `cbor:",toarray"`
		A int64    `cbor:"a"`
	}
	goTestCollide struct {
		Text    string        `cbor:"text"`
		Unknown UnknownFields `cbor:"-"`
	}
	// goTestBlobShaped has the blob shape through Go types other than the generic ones.
	goTestBlobShaped struct {
		Type     goTestLang  `cbor:"$type"`
		Ref      *Link       `cbor:"ref"`
		MimeType goTestLang  `cbor:"mimeType"`
		Size     goTestCount `cbor:"size"`
	}
	goTestPtrType struct {
		Type *string `cbor:"$type"`
		Ref  Link    `cbor:"ref,omitzero"`
	}
	// goTestText is a string through encoding.TextMarshaler, goTestCBORText and goTestCBORInt a
	// string and an integer through fxamacker's Marshaler: a "$type" of each kind of Go type.
	goTestText     struct{ s string }
	goTestCBORText string
	goTestCBORInt  int64
	// goTestAnyType is a struct whose "$type" field is held in an interface.
	goTestAnyType struct {
		Type any    `json:"$type"`
		Alt  string `json:"alt,omitempty"`
	}
	goTestTextType struct {
		Type goTestText `json:"$type"`
		Alt  string     `json:"alt,omitempty"`
	}
	goTestCBORType struct {
		Type goTestCBORText `json:"$type"`
		Alt  string         `json:"alt,omitempty"`
	}
	goTestNSIDType struct {
		Type nsid.NSID `json:"$type"`
		Text string    `json:"text"`
	}
	// goTestTypedBlob has the blob shape, its "$type" of the Go type T.
	goTestTypedBlob[T any] struct {
		Type     T      `json:"$type"`
		Ref      Link   `json:"ref"`
		MimeType string `json:"mimeType"`
		Size     int64  `json:"size"`
	}
)

func (t goTestText) MarshalText() ([]byte, error)     { return []byte(t.s), nil }
func (t goTestCBORText) MarshalCBOR() ([]byte, error) { return MarshalCBOR(string(t)) }
func (n goTestCBORInt) MarshalCBOR() ([]byte, error)  { return MarshalCBOR(int64(n)) }

// goTestRows pairs Go values with the generic trees they stand for.
func goTestRows(t *testing.T) []struct {
	name    string
	v       any // the Go value
	generic any // the equal generic tree
} {
	raw := cborTestLink(t, cborTestBlobLinkString)
	blob := Blob{Ref: raw, MimeType: "image/png", Size: 3}
	rev := tid.MustParse("3jzfcijpj2z2a")
	rec := goTestRecord{Type: "app.example.record", Text: "hi", Langs: []goTestLang{"en", "fr"},
		Counts: map[string]int32{"a": -1, "b": 2}, Views: 7, Avatar: &blob, Links: []Link{raw}, Rev: rev,
		Hash: [2]byte{1, 2}, Nested: &goTestRecord{Type: "app.example.inner", Rev: rev}, Extra: []string{"x"},
		Skipped: "never", hidden: "never", Unknown: UnknownFields{"zzz": int64(1), "newField": []any{"kept"}},
		Tags: map[string]string{"k": "v"}}
	genericRec := map[string]any{"$type": "app.example.record", "text": "hi", "langs": []any{"en", "fr"},
		"counts": map[string]any{"a": int64(-1), "b": int64(2)}, "views": int64(7), "avatar": blob,
		"links": []any{raw}, "rev": rev.String(), "hash": Bytes{1, 2},
		"nested": map[string]any{"$type": "app.example.inner", "text": "", "views": int64(0), "rev": rev.String(), "hash": Bytes{0, 0}},
		"extra":  []any{"x"}, "zzz": int64(1), "newField": []any{"kept"}, "tags": map[string]any{"k": "v"}}
	post := cborTestPost{Type: "app.bsky.feed.post", Text: "hello", Langs: []string{"en"}, CreatedAt: "2024-01-01T00:00:00Z",
		Embed: &cborTestEmbedImage{Type: "app.bsky.embed.images", Images: []cborTestImage{{Alt: "a", Image: blob}}}}
	genericPost := map[string]any{"$type": "app.bsky.feed.post", "text": "hello", "langs": []any{"en"}, "createdAt": "2024-01-01T00:00:00Z",
		"embed": map[string]any{"$type": "app.bsky.embed.images", "images": []any{map[string]any{"alt": "a", "image": blob}}}}
	blobMap := map[string]any{"$type": "blob", "ref": raw, "mimeType": "image/png", "size": int64(3)}
	c := cid.Cid(raw)
	return []struct {
		name    string
		v       any
		generic any
	}{
		{"[]string", []string{"en"}, []any{"en"}},
		{"[]string in a map[string]any (the issue's example)", map[string]any{"langs": []string{"en"}}, map[string]any{"langs": []any{"en"}}},
		{"[]int64", []int64{1, -2}, []any{int64(1), int64(-2)}},
		{"[]uint8 is bytes", []uint8{1, 2}, Bytes{1, 2}},
		{"[]int32 and a named uint", []any{[]int32{-3}, goTestCount(4)}, []any{[]any{int64(-3)}, int64(4)}},
		{"map[string]string", map[string]string{"a": "b"}, map[string]any{"a": "b"}},
		{"map of a named string type", map[goTestLang]goTestLang{"a": "b"}, map[string]any{"a": "b"}},
		{"[]map[string]any", []map[string]any{{"a": int64(1)}}, []any{map[string]any{"a": int64(1)}}},
		{"map[string][]string", map[string][]string{"a": {"x", "y"}}, map[string]any{"a": []any{"x", "y"}}},
		{"[2][]bool", [2][]bool{{true}, {}}, []any{[]any{true}, []any{}}},
		{"nil Go slice is null", map[string]any{"a": []string(nil)}, map[string]any{"a": nil}},
		{"nil Go map is null", []any{map[string]int64(nil)}, []any{nil}},
		{"Post", post, genericPost},
		{"*Post", &post, genericPost},
		{"**Post", func() any { p := &post; return &p }(), genericPost},
		{"struct in a map[string]any", map[string]any{"post": post}, map[string]any{"post": genericPost}},
		{"struct in an []any", []any{post}, []any{genericPost}},
		{"nil struct pointer is null", []any{(*cborTestPost)(nil)}, []any{nil}},
		{"[]Link", []Link{raw, raw}, []any{raw, raw}},
		{"[]cid.Cid are links", []cid.Cid{c}, []any{raw}},
		{"*Blob field and []*Blob", struct {
			B  *Blob   `cbor:"b"`
			Bs []*Blob `cbor:"bs"`
		}{&blob, []*Blob{&blob}}, map[string]any{"b": blob, "bs": []any{blob}}},
		{"[]Blob", []Blob{blob}, []any{blob}},
		{"blob-shaped struct", struct {
			Type     string `cbor:"$type"`
			Ref      Link   `cbor:"ref"`
			MimeType string `cbor:"mimeType"`
			Size     int    `cbor:"size"`
		}{"blob", raw, "image/png", 3}, map[string]any{"$type": "blob", "ref": raw, "mimeType": "image/png", "size": int64(3)}},
		{"tid.TID", []tid.TID{rev}, []any{rev.String()}},
		{"[N]byte is bytes", [3]byte{7, 8, 9}, Bytes{7, 8, 9}},
		{"slices and arrays of a named uint8 kind are bytes", []any{[2]goTestByte{1, 2}, []goTestByte{3}}, []any{Bytes{1, 2}, Bytes{3}}},
		{"every kind, UnknownFields merged, - and unexported left out", rec, genericRec},
		{"embedded structs promote their fields", goTestEmbedded{goTestBase{1}, &goTestPtrBase{"p"}, "o"},
			map[string]any{"base": int64(1), "promoted": "p", "own": "o"}},
		{"a nil embedded pointer's fields are left out", goTestEmbedded{Own: "o"}, map[string]any{"base": int64(0), "own": "o"}},
		{"*any", func() any { var x any = []string{"a"}; return &x }(), []any{"a"}},
		{"recursive type", &goTestNode{Name: "a", Next: &goTestNode{Name: "b"}},
			map[string]any{"name": "a", "next": map[string]any{"name": "b"}}},
		// The map rules (DECISIONS rules 11, 13) look at the equal generic values.
		{"rule 11: a $type of a named string type in a Go map", map[string]goTestLang{"$type": "app.x"}, map[string]any{"$type": "app.x"}},
		{"rule 11: a *string $type field", goTestPtrType{Type: func() *string { s := "app.x"; return &s }()},
			map[string]any{"$type": "app.x"}},
		{"rule 13: a blob-shaped struct with a *Link ref and named types", goTestBlobShaped{"blob", &raw, "image/png", 3},
			map[string]any{"$type": "blob", "ref": raw, "mimeType": "image/png", "size": int64(3)}},
		{"rule 11: a $type of a named string type in a map[string]any", map[string]any{"$type": goTestLang("app.x")},
			map[string]any{"$type": "app.x"}},
		{"rule 11: a *string $type in a map[string]any", map[string]any{"$type": func() *string { s := "app.x"; return &s }()},
			map[string]any{"$type": "app.x"}},
		{"rule 11: a $type field of a TextMarshaler struct type (nsid.NSID)", goTestNSIDType{nsid.MustParse("app.bsky.feed.post"), "hi"},
			map[string]any{"$type": "app.bsky.feed.post", "text": "hi"}},
		{"rule 11: a $type field of a TextMarshaler type, in a slice", []any{goTestTextType{Type: goTestText{"app.x"}}},
			[]any{map[string]any{"$type": "app.x"}}},
		{"rule 11: a $type field with a MarshalCBOR method", &goTestCBORType{Type: "app.x"}, map[string]any{"$type": "app.x"}},
		{"rule 11: a $type field typed any, holding a string", goTestAnyType{Type: "app.x", Alt: "a"},
			map[string]any{"$type": "app.x", "alt": "a"}},
		{"rule 11: a $type field typed any, holding a *string", goTestAnyType{Type: func() *string { s := "app.x"; return &s }()},
			map[string]any{"$type": "app.x"}},
		{"rule 13: a blob whose $type field is typed any", goTestTypedBlob[any]{"blob", raw, "image/png", 3}, blobMap},
		{"rule 13: a blob whose $type field is a *string", goTestTypedBlob[*string]{func() *string { s := "blob"; return &s }(), raw, "image/png", 3}, blobMap},
		{"rule 13: a blob whose $type field is a TextMarshaler", []any{goTestTypedBlob[goTestText]{goTestText{"blob"}, raw, "image/png", 3}}, []any{blobMap}},
		{"rule 13: a blob whose $type field has a MarshalCBOR method", goTestTypedBlob[goTestCBORText]{"blob", raw, "image/png", 3}, blobMap},
		{"rule 11: a $type of a named string type in a field typed any", struct {
			Type any `cbor:"$type"`
		}{goTestLang("app.x")}, map[string]any{"$type": "app.x"}},
		{"rule 11: a $type of a named string type in UnknownFields", goTestCollide{Text: "t", Unknown: UnknownFields{"$type": goTestLang("app.x")}},
			map[string]any{"$type": "app.x", "text": "t"}},
		{"rule 13: a map[string]any blob of Go values", map[string]any{"$type": goTestLang("blob"), "ref": &raw, "mimeType": goTestLang("image/png"), "size": goTestCount(3)},
			map[string]any{"$type": "blob", "ref": raw, "mimeType": "image/png", "size": int64(3)}},
	}
}

// TestGoValueEntryPoints: for each Go value, every generic entry point gives what it gives on the
// equal generic tree: MarshalCBOR and MarshalJSON the same bytes, Validate the same verdict, Blobs
// and Links the same lists, RecordCID and ValidateRecord the same answer.
func TestGoValueEntryPoints(t *testing.T) {
	for _, r := range goTestRows(t) {
		t.Run(r.name, func(t *testing.T) {
			wantCBOR, err := MarshalCBOR(r.generic)
			if err != nil {
				t.Fatalf("MarshalCBOR(generic): %v (the row is wrong)", err)
			}
			got, err := MarshalCBOR(r.v)
			if err != nil || !bytes.Equal(got, wantCBOR) {
				t.Errorf("MarshalCBOR = %x, %v; want %x", got, err, wantCBOR)
			}
			got, err = AppendCBOR([]byte{0xff}, r.v)
			if err != nil || !bytes.Equal(got[1:], wantCBOR) {
				t.Errorf("AppendCBOR = %x, %v; want ff%x", got, err, wantCBOR)
			}
			wantJSON, _ := MarshalJSON(r.generic)
			if got, err := MarshalJSON(r.v); err != nil || !bytes.Equal(got, wantJSON) {
				t.Errorf("MarshalJSON = %s, %v; want %s", got, err, wantJSON)
			}
			wantIndent, _ := MarshalJSONIndent(r.generic, "", "  ")
			if got, err := MarshalJSONIndent(r.v, "", "  "); err != nil || !bytes.Equal(got, wantIndent) {
				t.Errorf("MarshalJSONIndent = %s, %v; want %s", got, err, wantIndent)
			}
			if err := Validate(r.v); err != nil {
				t.Errorf("Validate = %v", err)
			}
			if got, want := Blobs(r.v), Blobs(r.generic); !reflect.DeepEqual(got, want) {
				t.Errorf("Blobs = %v, want %v", got, want)
			}
			if got, want := Links(r.v), Links(r.generic); !reflect.DeepEqual(got, want) {
				t.Errorf("Links = %v, want %v", got, want)
			}
			gotCID, gotErr := RecordCID(r.v)
			wantCID, wantErr := RecordCID(r.generic)
			if !gotCID.Equals(wantCID) || !sameError(gotErr, wantErr) {
				t.Errorf("RecordCID = %v, %v; want %v, %v", gotCID, gotErr, wantCID, wantErr)
			}
			if wantErr == nil {
				if c := cidutil.SumCBOR(wantCBOR); !gotCID.Equals(c) {
					t.Errorf("RecordCID = %v, the CID of MarshalCBOR's bytes is %v", gotCID, c)
				}
			}
			if got, want := ValidateRecord(r.v), ValidateRecord(r.generic); !sameError(got, want) {
				t.Errorf("ValidateRecord = %v, want %v", got, want)
			}
			// What the encoders write reads back as the generic tree.
			back, err := UnmarshalCBOR(wantCBOR)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := MarshalCBOR(back); err != nil || !bytes.Equal(again, wantCBOR) {
				t.Errorf("read back and written again: %x, %v", again, err)
			}
		})
	}
}

// sameError reports whether a and b are both nil or both *Error with the same sentinel and path.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var ea, eb *Error
	return errors.As(a, &ea) && errors.As(b, &eb) && ea.Err == eb.Err && ea.Path == eb.Path && ea.Offset == eb.Offset
}

// TestGoValueErrors: a Go value the data model refuses is refused by every entry point with the
// error of the equal generic tree (sentinel, JSON Pointer through struct keys and slice indexes,
// Offset -1), or, for Go types with no generic equal, with the sentinel at the path given.
func TestGoValueErrors(t *testing.T) {
	raw := cborTestLink(t, cborTestBlobLinkString)
	long := strings.Repeat("k", DefaultMaxKeyLen+1)
	chain := func(n int) (*goTestNode, any) {
		var node *goTestNode
		var generic any
		for range n {
			node = &goTestNode{Name: "n", Next: node}
			m := map[string]any{"name": "n"}
			if generic != nil {
				m["next"] = generic
			}
			generic = m
		}
		return node, generic
	}
	deepNode, deepGeneric := chain(DefaultMaxDepth + 1)
	rows := []struct {
		rule    string
		v       any
		generic any   // nil: no generic equal; want and path say what is expected
		want    error // the sentinel
		path    string
	}{
		{"rule 9: a float field", struct {
			F float64 `cbor:"f"`
		}{1.5}, map[string]any{"f": 1.5}, ErrFloat, "/f"},
		{"rule 9: a named float in a slice", []any{"a", []goTestFloat{1}}, []any{"a", []any{1.0}}, ErrFloat, "/1/0"},
		{"rule 9: a uint64 beyond int64", map[string][]uint64{"u": {1, 1 << 63}}, map[string]any{"u": []any{int64(1), uint64(1 << 63)}}, ErrIntegerRange, "/u/1"},
		{"rule 9: invalid UTF-8 in a []string", []string{"ok", "\xff"}, []any{"ok", "\xff"}, ErrInvalidUTF8, "/1"},
		{"rule 9: invalid UTF-8 in a Go map key", map[string]int64{"\xff": 1}, map[string]any{"\xff": int64(1)}, ErrInvalidUTF8, "/\xff"},
		{"rule 11: $type left empty, in a *struct in a map", map[string]any{"p": &cborTestPost{Text: "x"}},
			map[string]any{"p": map[string]any{"$type": "", "text": "x", "createdAt": ""}}, ErrType, "/p/$type"},
		{"rule 10: $link key in a []map[string]any", []map[string]any{{}, {"$link": "x"}}, []any{map[string]any{}, map[string]any{"$link": "x"}}, ErrLink, "/1/$link"},
		{"rule 10: a field tagged $bytes", struct {
			B Bytes `cbor:"$bytes"`
		}{Bytes{1}}, map[string]any{"$bytes": Bytes{1}}, ErrBytes, "/$bytes"},
		{"rule 12: an undefined Link in a []Link", []Link{raw, {}}, []any{raw, Link{}}, ErrInvalidCID, "/1"},
		{"rule 13: a Blob with an empty MimeType in a []Blob", []Blob{{Ref: raw}}, []any{Blob{Ref: raw}}, ErrBlob, "/0/mimeType"},
		{"rule 13: a blob-typed struct without the blob shape", struct {
			Type string `cbor:"$type"`
			Ref  Link   `cbor:"ref"`
		}{"blob", raw}, map[string]any{"$type": "blob", "ref": raw}, ErrBlob, ""},
		{"rule 11: an empty $type of a named string type in a Go map", map[string]goTestLang{"$type": ""},
			map[string]any{"$type": ""}, ErrType, "/$type"},
		{"rule 13: a Go map typed blob of a named string type", map[string]goTestLang{"$type": "blob", "ref": "x"},
			map[string]any{"$type": "blob", "ref": "x"}, ErrBlob, ""},
		{"rule 13: a *string $type field typed blob without the blob shape", goTestPtrType{Type: func() *string { s := "blob"; return &s }(), Ref: raw},
			map[string]any{"$type": "blob", "ref": raw}, ErrBlob, ""},
		{"rule 13: a blob-shaped struct with a nil *Link ref", goTestBlobShaped{"blob", nil, "image/png", 3},
			map[string]any{"$type": "blob", "ref": nil, "mimeType": "image/png", "size": int64(3)}, ErrBlob, "/ref"},
		{"rule 13: a blob-shaped struct with an empty mimeType of a named type", goTestBlobShaped{"blob", &raw, "", 3},
			map[string]any{"$type": "blob", "ref": raw, "mimeType": "", "size": int64(3)}, ErrBlob, "/mimeType"},
		{"rule 13: a $type field typed any holding blob, without the blob shape", &goTestAnyType{Type: "blob", Alt: "x"},
			map[string]any{"$type": "blob", "alt": "x"}, ErrBlob, "/alt"},
		{"rule 13: the same, in a slice", []any{&goTestAnyType{Type: "blob", Alt: "x"}},
			[]any{map[string]any{"$type": "blob", "alt": "x"}}, ErrBlob, "/0/alt"},
		{"rule 13: a TextMarshaler $type field writing blob, without the blob shape", goTestTextType{goTestText{"blob"}, "x"},
			map[string]any{"$type": "blob", "alt": "x"}, ErrBlob, "/alt"},
		{"rule 13: a $type field whose MarshalCBOR writes blob, without the blob shape", []any{goTestCBORType{"blob", "x"}},
			[]any{map[string]any{"$type": "blob", "alt": "x"}}, ErrBlob, "/0/alt"},
		{"rule 13: a *string $type field typed blob with a blob's fields but one", goTestTypedBlob[*string]{func() *string { s := "blob"; return &s }(), raw, "", 3},
			map[string]any{"$type": "blob", "ref": raw, "mimeType": "", "size": int64(3)}, ErrBlob, "/mimeType"},
		{"rule 11: a nil *string $type field", goTestTypedBlob[*string]{nil, raw, "a/b", 3},
			map[string]any{"$type": nil, "ref": raw, "mimeType": "a/b", "size": int64(3)}, ErrType, "/$type"},
		{"rule 11: a $type field typed any holding an integer", goTestAnyType{Type: 1},
			map[string]any{"$type": int64(1)}, ErrType, "/$type"},
		{"rule 11: a $type field typed any holding nil", []any{goTestAnyType{}},
			[]any{map[string]any{"$type": nil}}, ErrType, "/0/$type"},
		{"rule 11: a TextMarshaler $type field writing an empty string", goTestTextType{},
			map[string]any{"$type": ""}, ErrType, "/$type"},
		{"rule 11: a $type field whose MarshalCBOR writes an integer", struct {
			Type goTestCBORInt `json:"$type"`
		}{1}, map[string]any{"$type": int64(1)}, ErrType, "/$type"},
		{"rule 11: an empty $type of a named string type in a map[string]any", map[string]any{"$type": goTestLang("")},
			map[string]any{"$type": ""}, ErrType, "/$type"},
		{"rule 11: a nil *string $type in a map[string]any", map[string]any{"$type": (*string)(nil)},
			map[string]any{"$type": nil}, ErrType, "/$type"},
		{"rule 13: a map[string]any typed blob of a named string type, without the blob shape", map[string]any{"$type": goTestLang("blob")},
			map[string]any{"$type": "blob"}, ErrBlob, ""},
		{"rule 13: a map[string]any blob with a nil *Link ref", map[string]any{"$type": "blob", "ref": (*Link)(nil), "mimeType": goTestLang("a/b"), "size": goTestCount(1)},
			map[string]any{"$type": "blob", "ref": nil, "mimeType": "a/b", "size": int64(1)}, ErrBlob, "/ref"},
		{"rule 13: a map[string]any blob with an empty mimeType of a named type", map[string]any{"$type": "blob", "ref": &raw, "mimeType": goTestLang(""), "size": goTestCount(1)},
			map[string]any{"$type": "blob", "ref": raw, "mimeType": "", "size": int64(1)}, ErrBlob, "/mimeType"},
		{"rule 14: a key longer than MaxKeyLen", map[string]string{long: "v"}, map[string]any{long: "v"}, ErrKeyTooLong, "/" + long},
		{"rule 14: deeper than MaxDepth through struct pointers", deepNode, deepGeneric, ErrTooDeep, strings.Repeat("/next", DefaultMaxDepth)},
		{"rule 14: more elements than MaxElements", make([]bool, DefaultMaxElements+1), nil, ErrTooManyElements, ""},
		{"Go types: a chan in a struct, at its field", map[string]any{"s": struct {
			A string   `cbor:"a"`
			C chan int `cbor:"c"`
		}{"x", nil}}, nil, ErrUnsupported, "/s/c"},
		{"Go types: a func field", []goTestFunc{{}}, nil, ErrUnsupported, "/0/f"},
		{"Go types: a map with int keys in a struct", struct {
			M map[int]string `cbor:"m"`
		}{}, nil, ErrKeyNotString, "/m"},
		{"Go types: a toarray struct", []any{goTestPair{A: 1}}, nil, ErrUnsupported, "/0"},
		{"Go types: a toarray struct at the top", goTestPair{A: 1}, nil, ErrUnsupported, ""},
		{"Go types: a toarray struct in a struct", struct {
			P *goTestPair `cbor:"p"`
		}{&goTestPair{A: 1}}, nil, ErrUnsupported, "/p"},
		{"UnknownFields: an entry with a field's key", goTestCollide{Text: "a", Unknown: UnknownFields{"text": "b"}}, nil, ErrGoType, "/text"},
		{"UnknownFields: an entry outside the data model", goTestCollide{Unknown: UnknownFields{"x": []any{1.5}}}, map[string]any{"text": "", "x": []any{1.5}}, ErrFloat, "/x/0"},
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			want := &Error{Err: r.want, Offset: -1, Path: r.path}
			if r.generic != nil {
				_, gerr := MarshalCBOR(r.generic)
				if !sameError(gerr, want) {
					t.Fatalf("MarshalCBOR(generic) = %v (path %q); the row is wrong", gerr, errPath(gerr))
				}
			}
			entry := map[string]func(any) error{
				"MarshalCBOR": func(v any) error { _, err := MarshalCBOR(v); return err },
				"MarshalJSON": func(v any) error { _, err := MarshalJSON(v); return err },
				"Validate":    func(v any) error { return Validate(v) },
			}
			if !strings.HasPrefix(r.rule, "Go types: a toarray struct") { // which the Struct functions write as an array
				// The Struct functions keep the rules of the generic entry points (their docs), so
				// they refuse the same values with the same error.
				entry["MarshalCBORStruct"] = func(v any) error { _, err := MarshalCBORStruct(v); return err }
				entry["MarshalJSONStruct"] = func(v any) error { _, err := MarshalJSONStruct(v); return err }
			}
			for name, f := range entry {
				if err := f(r.v); !sameError(err, want) {
					t.Errorf("%s = %v (path %q), want %v at %q", name, err, errPath(err), r.want, r.path)
				}
				if r.generic != nil {
					if got, gen := f(r.v), f(r.generic); !sameError(got, gen) {
						t.Errorf("%s: Go value %v, generic %v", name, got, gen)
					}
				}
			}
			// A record refused for its content: RecordCID and ValidateRecord agree.
			if _, isMap := recordMap(r.v, DefaultMaxDepth); isMap {
				_, cerr := RecordCID(r.v)
				if verr := ValidateRecord(r.v); !sameError(cerr, want) || !sameError(verr, want) {
					t.Errorf("RecordCID = %v, ValidateRecord = %v; want %v at %q", cerr, verr, r.want, r.path)
				}
			}
			// The walks skip what is outside the data model, without a panic.
			_, _ = Blobs(r.v), Links(r.v)
		})
	}
}

type goTestFloat float32

func errPath(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Path
	}
	return ""
}

// TestMarshalCBORStructSameBytes: MarshalCBOR of a struct writes MarshalCBORStruct's bytes, and
// MarshalJSON MarshalJSONStruct's, for
// the realistic records decoded into Lexicon-style structs and for every Go-value row (a cid.Cid
// included: both write it as a link).
func TestMarshalCBORStructSameBytes(t *testing.T) {
	vals := []any{}
	for _, r := range []struct {
		name string
		into any
	}{{"post", new(cborTestPost)}, {"profile", new(cborTestProfile)}} {
		if err := UnmarshalCBORStruct(cborTestRecord(t, r.name), r.into); err != nil {
			t.Fatal(err)
		}
		vals = append(vals, r.into, reflect.ValueOf(r.into).Elem().Interface())
	}
	for _, r := range goTestRows(t) {
		vals = append(vals, r.v)
	}
	for _, v := range vals {
		want, err := MarshalCBORStruct(v)
		if err != nil {
			t.Fatalf("%#v: MarshalCBORStruct: %v", v, err)
		}
		if got, err := cborGeneric(nil, v, nil); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%#v:\ngeneric MarshalCBOR %x, %v\nMarshalCBORStruct   %x", v, got, err, want)
		}
		if got, err := MarshalCBOR(v); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%#v:\nMarshalCBOR       %x, %v\nMarshalCBORStruct %x", v, got, err, want)
		}
		if got, err := AppendCBOR([]byte("x"), v); err != nil || !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("%#v:\nAppendCBOR        %x, %v\nMarshalCBORStruct %x", v, got, err, want)
		}
		wantJSON, err := MarshalJSONStruct(v)
		if err != nil {
			t.Fatalf("%#v: MarshalJSONStruct: %v", v, err)
		}
		if got, err := MarshalJSON(v); err != nil || !bytes.Equal(got, wantJSON) {
			t.Errorf("%#v:\nMarshalJSON       %s, %v\nMarshalJSONStruct %s", v, got, err, wantJSON)
		}
	}
}

// goTestTextStruct is a struct written as text (encoding.TextMarshaler): not a record, though a
// struct.
type goTestTextStruct struct{ s string }

func (x goTestTextStruct) MarshalText() ([]byte, error) { return []byte(x.s), nil }

// TestRecordCIDStructNotMap: RecordCID writes a Go struct with the typed encoder (isGoStruct), but
// a struct whose type writes it as something other than a map is still no record, as
// ValidateRecord says, and MarshalCBOR writes it as the text it is.
func TestRecordCIDStructNotMap(t *testing.T) {
	v := goTestTextStruct{"hello"}
	_, err := RecordCID(v)
	if verr := ValidateRecord(v); !errors.Is(err, ErrNotRecord) || !sameError(err, verr) {
		t.Errorf("RecordCID = %v; ValidateRecord = %v; want ErrNotRecord from both", err, verr)
	}
	if out, err := MarshalCBOR(v); err != nil || string(out) != "\x65hello" {
		t.Errorf("MarshalCBOR = %x, %v; want the text string hello", out, err)
	}
}

// TestNilArrayAndMapAreNull: a nil []any or map[string]any is null, as every nil Go slice and
// map is (MarshalCBOR's doc), wherever it sits and whichever path writes it: the generic
// walker, the typed encoders (MarshalCBORStruct, and MarshalCBOR's path for a struct), CBOR and
// JSON alike; Validate accepts it at any depth, since it is no container.
func TestNilArrayAndMapAreNull(t *testing.T) {
	type anyField struct {
		A any `cbor:"a"`
	}
	rows := []struct {
		rule     string
		v        any
		cborHex  string
		wantJSON string
	}{
		{"nil []any at the top", []any(nil), "f6", `null`},
		{"nil map[string]any at the top", map[string]any(nil), "f6", `null`},
		{"nil []any in a map[string]any", map[string]any{"a": []any(nil)}, "a1 6161 f6", `{"a":null}`},
		{"nil map[string]any in an []any", []any{map[string]any(nil)}, "81 f6", `[null]`},
		{"nil []any in a field typed any", anyField{[]any(nil)}, "a1 6161 f6", `{"a":null}`},
		{"nil map[string]any in a field typed any", &anyField{map[string]any(nil)}, "a1 6161 f6", `{"a":null}`},
		{"the struct with it, in an []any", []any{anyField{[]any(nil)}}, "81 a1 6161 f6", `[{"a":null}]`},
		{"the struct with it, in a map[string]any", map[string]any{"s": anyField{map[string]any(nil)}}, "a1 6173 a1 6161 f6", `{"s":{"a":null}}`},
		{"nil map[string]any in UnknownFields", goTestCollide{Text: "t", Unknown: UnknownFields{"x": map[string]any(nil)}},
			"a2 6178 f6 6474657874 6174", `{"text":"t","x":null}`},
		{"nil []any below MaxDepth levels is null, not too deep", jsonNestedWrap(DefaultMaxDepth, []any(nil)),
			strings.Repeat("81", DefaultMaxDepth) + "f6", strings.Repeat("[", DefaultMaxDepth) + "null" + strings.Repeat("]", DefaultMaxDepth)},
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			want := cborHex(t, r.cborHex)
			for name, f := range map[string]func(any) ([]byte, error){
				"MarshalCBOR":       func(v any) ([]byte, error) { return MarshalCBOR(v) },
				"generic walker":    func(v any) ([]byte, error) { return cborGeneric(nil, v, nil) },
				"MarshalCBORStruct": func(v any) ([]byte, error) { return MarshalCBORStruct(v) },
			} {
				if got, err := f(r.v); err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s = %x, %v; want %x", name, got, err, want)
				}
			}
			for name, f := range map[string]func(any) ([]byte, error){
				"MarshalJSON":       func(v any) ([]byte, error) { return MarshalJSON(v) },
				"AppendJSON":        func(v any) ([]byte, error) { return AppendJSON(nil, v) },
				"generic walker":    func(v any) ([]byte, error) { e := newJSONEncoder(nil); return e.value(nil, v, 1) },
				"MarshalJSONStruct": func(v any) ([]byte, error) { return MarshalJSONStruct(v) },
			} {
				if got, err := f(r.v); err != nil || string(got) != r.wantJSON {
					t.Errorf("%s = %s, %v; want %s", name, got, err, r.wantJSON)
				}
			}
			if err := Validate(r.v); err != nil {
				t.Errorf("Validate = %v", err)
			}
			if err := validateGeneric(r.v, nil); err != nil {
				t.Errorf("generic Validate = %v", err)
			}
			// A record's CID is that of the bytes written; null is no record.
			c, err := RecordCID(r.v)
			if want[0]&0xe0 == cborMajorMap {
				if err != nil || !c.Equals(cidutil.SumCBOR(want)) || ValidateRecord(r.v) != nil {
					t.Errorf("RecordCID = %v, %v; ValidateRecord = %v; want the CID of %x", c, err, ValidateRecord(r.v), want)
				}
			} else if !errors.Is(err, ErrNotRecord) || !errors.Is(ValidateRecord(r.v), ErrNotRecord) {
				t.Errorf("RecordCID = %v, ValidateRecord = %v; want ErrNotRecord", err, ValidateRecord(r.v))
			}
		})
	}
}

func (r goTestRaw) MarshalCBOR() ([]byte, error) { return r.b, nil }
