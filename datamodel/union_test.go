package datamodel

// Union on every path: encoding, its fxamacker methods, a blob member, the generic entry points,
// toarray members.

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestUnionEncode(t *testing.T) {
	r := regTestRegistry(t)
	img := &cborTestEmbedImage{Type: "app.bsky.embed.images", Images: []cborTestImage{}}
	u, err := r.Union(img)
	if err != nil {
		t.Fatal(err)
	}
	if u.Type() != "app.bsky.embed.images" || u.Value() != img {
		t.Errorf("Union: %q %v", u.Type(), u.Value())
	}
	if _, err := r.Union(&cborTestEmbedImage{Type: "app.bsky.embed.external"}); !errors.Is(err, ErrType) {
		t.Errorf("Union with another $type: %v", err)
	}
	if _, err := r.Union(&regLike{Type: "app.bsky.feed.like"}); !errors.Is(err, ErrGoType) {
		t.Errorf("Union of an unregistered type: %v", err)
	}
	tests := []struct {
		name string
		u    Union
		err  error
	}{
		{"a registered struct", u, nil},
		{"a generic member", UnionOf(map[string]any{"$type": "app.example.x", "n": int64(1)}), nil},
		{"a struct made into a Union by hand", UnionOf(&regExternal{Type: "app.bsky.embed.external"}), nil},
		{"the zero Union is null", Union{}, nil},
		{"a struct whose $type changed since the registry made it", func() Union {
			u, _ := r.Union(&cborTestEmbedImage{Type: "app.bsky.embed.images"})
			u.Value().(*cborTestEmbedImage).Type = "app.bsky.embed.video"
			return u
		}(), ErrType},
		{"a struct with its $type left empty", UnionOf(&regExternal{}), ErrType},
		{"a map without $type", UnionOf(map[string]any{"n": int64(1)}), ErrType},
		{"a Go value that has no $type", UnionOf("app.bsky.embed.images"), ErrType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &regPost{Type: "app.bsky.feed.post", Embed: tt.u}
			out, err := MarshalCBORStruct(rec)
			if !errors.Is(err, tt.err) {
				t.Fatalf("got %v, want %v", err, tt.err)
			}
			if err != nil {
				if e := err.(*Error); e.Path != "/embed" || e.Offset != -1 {
					t.Errorf("error at %q, offset %d; want \"/embed\", -1", e.Path, e.Offset)
				}
				return
			}
			back, err := r.DecodeCBOR(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := back.(*regPost).Embed.Type(); got != tt.u.Type() {
				t.Errorf("read back $type %q, want %q", got, tt.u.Type())
			}
		})
	}
}

// A member typed "blob" is read as a Blob, as the data model reads that object anywhere, and
// every path writes it back to the same bytes: the struct paths, fxamacker's and encoding/json's
// through the Union's methods.
func TestUnionBlobMember(t *testing.T) {
	type holder struct {
		E Union `cbor:"e" json:"e"`
	}
	js := []byte(`{"e":{"$type":"blob","mimeType":"image/png","ref":{"$link":"` + cborTestBlobLinkString + `"},"size":7}}`)
	cb, err := JSONToCBOR(js)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON, fromCBOR, fromStd holder
	if err := UnmarshalJSONStruct(js, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := UnmarshalCBORStruct(cb, &fromCBOR); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &fromStd); err != nil {
		t.Fatal(err)
	}
	for _, h := range []holder{fromJSON, fromCBOR, fromStd} {
		if b, ok := h.E.Value().(Blob); !ok || b.Size != 7 || h.E.Type() != "blob" {
			t.Fatalf("decoded %#v (type %q), want a Blob", h.E.Value(), h.E.Type())
		}
		if out, err := MarshalJSONStruct(h); err != nil || !bytes.Equal(out, js) {
			t.Errorf("MarshalJSONStruct: %s, %v", out, err)
		}
		if out, err := MarshalCBORStruct(h); err != nil || !bytes.Equal(out, cb) {
			t.Errorf("MarshalCBORStruct: %x, %v", out, err)
		}
		if out, err := json.Marshal(h); err != nil || !bytes.Equal(out, js) {
			t.Errorf("encoding/json: %s, %v", out, err)
		}
	}
	// A map member whose "$type" is a Go value of a string kind: the equal generic tree's.
	type nsidString string
	m := UnionOf(map[string]any{"$type": nsidString("app.example.x"), "n": int64(1)})
	if m.Type() != "app.example.x" {
		t.Errorf("Type of a map member with a named-string $type: %q", m.Type())
	}
	if out, err := MarshalJSONStruct(holder{E: m}); err != nil || string(out) != `{"e":{"$type":"app.example.x","n":1}}` {
		t.Errorf("MarshalJSONStruct of it: %s, %v", out, err)
	}
	// A legacy blob has no "$type": no union member.
	var u Union
	legacy := []byte(`{"cid":"` + cborTestBlobLinkString + `","mimeType":"image/png"}`)
	if err := u.UnmarshalJSON(legacy); !errors.Is(err, ErrType) {
		t.Errorf("a legacy blob as a union member: %v, want ErrType", err)
	}
}

// TestUnionMethods checks the fxamacker methods of Union, for codecs that know no registry: the
// generic form in, what it holds out.
func TestUnionMethods(t *testing.T) {
	member := regTestRecord(t, `{"$type":"app.example.embed.poll","options":["yes","no"]}`)
	var u Union
	if err := u.UnmarshalCBOR(member); err != nil {
		t.Fatal(err)
	}
	if u.Type() != "app.example.embed.poll" {
		t.Errorf("Type %q", u.Type())
	}
	out, err := u.MarshalCBOR()
	if err != nil || !bytes.Equal(out, member) {
		t.Errorf("MarshalCBOR: %x, %v; want %x", out, err, member)
	}
	if err := u.UnmarshalCBOR([]byte{cborNull}); err != nil || !u.IsZero() {
		t.Errorf("null: %v, %v", u, err)
	}
	if out, err := u.MarshalCBOR(); err != nil || !bytes.Equal(out, []byte{cborNull}) {
		t.Errorf("zero Union: %x, %v", out, err)
	}
	for _, bad := range []struct {
		data []byte
		err  error
	}{
		{regTestRecord(t, `{"options":[]}`), ErrType},
		{regTestRecord(t, `"app.example.embed.poll"`), ErrGoType},
		{[]byte{0xa1, 0x61}, ErrTruncated},
	} {
		if err := u.UnmarshalCBOR(bad.data); !errors.Is(err, bad.err) {
			t.Errorf("%x: %v, want %v", bad.data, err, bad.err)
		}
	}
	// encoding/json, through MarshalJSON and UnmarshalJSON.
	var uj Union
	if err := json.Unmarshal([]byte(`{"options":["yes","no"],"$type":"app.example.embed.poll"}`), &uj); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(struct {
		Embed Union `json:"embed"`
	}{uj})
	if want := `{"embed":{"$type":"app.example.embed.poll","options":["yes","no"]}}`; err != nil || string(js) != want {
		t.Errorf("encoding/json: %s, %v; want %s", js, err, want)
	}
	if err := json.Unmarshal([]byte(`{"options":[]}`), &uj); !errors.Is(err, ErrType) {
		t.Errorf("encoding/json, no $type: %v", err)
	}
	img, _ := UnionOf(&cborTestEmbedImage{Type: "app.bsky.embed.images", Images: []cborTestImage{}}).MarshalCBOR()
	if want := regTestRecord(t, `{"$type":"app.bsky.embed.images","images":[]}`); !bytes.Equal(img, want) {
		t.Errorf("struct member: %x, want %x", img, want)
	}
}

// TestUnionGenericEntryPoints: MarshalCBOR, MarshalJSON, Validate and Blobs take a struct with a
// Union field as the equal generic tree, the member included.
func TestUnionGenericEntryPoints(t *testing.T) {
	r := regTestRegistry(t)
	postJSON, post := readRecord(t, "post")
	v, err := r.DecodeCBOR(post)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := MarshalCBOR(v); err != nil || !bytes.Equal(out, post) {
		t.Errorf("MarshalCBOR: %v (same bytes: %v)", err, bytes.Equal(out, post))
	}
	g, _ := UnmarshalJSON(postJSON)
	if out, err := MarshalJSON(v); err != nil {
		t.Error(err)
	} else if back, _ := UnmarshalJSON(out); !reflect.DeepEqual(back, g) {
		t.Errorf("MarshalJSON wrote %s", out)
	}
	if err := Validate(v); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if blobs := Blobs(v); len(blobs) != 1 {
		t.Errorf("Blobs: %v", blobs)
	}
	bad := &regPost{Type: "app.bsky.feed.post", Embed: UnionOf(map[string]any{"n": int64(1)})}
	for name, f := range map[string]func() error{
		"MarshalCBOR": func() error { _, err := MarshalCBOR(bad); return err },
		"MarshalJSON": func() error { _, err := MarshalJSON(bad); return err },
		"Validate":    func() error { return Validate(bad) },
	} {
		if err := f(); !errors.Is(err, ErrType) || err.(*Error).Path != "/embed" {
			t.Errorf("%s of a member without $type: %v", name, err)
		}
	}
}

// TestUnionToArrayMember: a struct with fxamacker's toarray option is written as an array, and a
// union member is a map: every encoder refuses such a member as the generic ones do
// (ErrUnsupported, at the union field), where MarshalCBORStruct wrote the array.
func TestUnionToArrayMember(t *testing.T) {
	type arrayMember struct {
		_    struct{} `cbor:",toarray"`
		Type string   `cbor:"$type"`
		N    int64    `cbor:"n"`
	}
	rec := &regPost{Type: "app.bsky.feed.post", Embed: UnionOf(&arrayMember{Type: "app.example.arr", N: 1})}
	errs := map[string]error{"Validate": Validate(rec)}
	_, errs["MarshalCBORStruct"] = MarshalCBORStruct(rec)
	_, errs["MarshalCBOR"] = MarshalCBOR(rec)
	_, errs["MarshalJSONStruct"] = MarshalJSONStruct(rec)
	_, errs["MarshalJSON"] = MarshalJSON(rec)
	_, errs["RecordCID"] = RecordCID(rec)
	for name, err := range errs {
		if e, ok := err.(*Error); !ok || !errors.Is(err, ErrUnsupported) || e.Path != "/embed" {
			t.Errorf("%s: %v, want ErrUnsupported at /embed", name, err)
		}
	}
}
