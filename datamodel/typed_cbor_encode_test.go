package datamodel

import (
	"bytes"
	"errors"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

type (
	// typedPostKeep is cborTestPost with an UnknownFields field, at the top and in the images:
	// a Lexicon type of an older revision that keeps what it does not know.
	typedPostKeep struct {
		Type      string              `cbor:"$type"`
		Text      string              `cbor:"text"`
		Facets    []cborTestFacet     `cbor:"facets,omitempty"`
		Reply     *cborTestReplyRef   `cbor:"reply,omitempty"`
		Embed     *typedEmbedKeep     `cbor:"embed,omitempty"`
		Langs     []string            `cbor:"langs,omitempty"`
		Labels    any                 `cbor:"labels,omitempty"`
		CreatedAt string              `cbor:"createdAt"`
		Unknown   UnknownFields       `cbor:"-" json:"-"`
		_         struct{}            // unexported: no key
		Ignored   map[string]struct{} `cbor:"-"`
	}
	typedEmbedKeep struct {
		Type    string        `cbor:"$type"`
		Images  []any         `cbor:"images"`
		Unknown UnknownFields `cbor:"-" json:"-"`
	}
	// typedRecordKeep reads any record: everything but $type is unknown to it.
	typedRecordKeep struct {
		Type string `cbor:"$type"`
		Rest UnknownFields
	}
	typedPair struct {
		_ struct{} `cbor:",toarray"`
		A int64
		B string
		C *Link
	}
	typedCycle struct {
		Next *typedCycle `cbor:"next"`
		Any  any         `cbor:"any,omitempty"`
	}
)

// TestTypedEncodeUnknownRoundTrip: every record of testdata/records, with fields no Lexicon has
// (at the top, and inside a post's embed), read into a Go type that keeps unknown fields and
// written back, gives the same bytes and the same CID (https://atproto.com/specs/lexicon, "Usage
// and Implementation Guidelines"); the same type without UnknownFields loses them, and the CID
// changes.
func TestTypedEncodeUnknownRoundTrip(t *testing.T) {
	posts := 0
	for _, rec := range cborTestRecords(t) {
		v, err := UnmarshalCBOR(rec.cbor)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		m["zzFuture"] = []any{int64(1), "two", map[string]any{"x": nil}}
		m["a"] = true // sorts before every field of the post
		if e, ok := m["embed"].(map[string]any); ok {
			e["video"] = map[string]any{"$type": "app.example.video", "alt": "v"}
		}
		data, err := MarshalCBOR(m)
		if err != nil {
			t.Fatal(err)
		}
		want := cidutil.SumCBOR(data)
		targets := []any{new(typedRecordKeep)}
		if m["$type"] == "app.bsky.feed.post" {
			targets = append(targets, new(typedPostKeep))
			posts++
		}
		for _, into := range targets {
			if err := UnmarshalCBORStruct(data, into); err != nil {
				t.Fatalf("%s into %T: %v", rec.name, into, err)
			}
			out, err := MarshalCBORStruct(into)
			if err != nil || !bytes.Equal(out, data) {
				t.Errorf("%s through %T: %x, %v\nwant %x", rec.name, into, out, err, data)
			}
			if c, err := RecordCID(into); err != nil || c != want {
				t.Errorf("%s through %T: CID %v, %v; want %v", rec.name, into, c, err, want)
			}
		}
		if m["$type"] == "app.bsky.feed.post" {
			var lossy cborTestPost
			if err := UnmarshalCBORStruct(data, &lossy); err != nil {
				t.Fatal(err)
			}
			if c, _ := RecordCID(&lossy); c == want {
				t.Errorf("%s: the type without UnknownFields kept the CID; the test shows nothing", rec.name)
			}
		}
	}
	if posts == 0 {
		t.Error("no post among testdata/records")
	}
}

// TestTypedEncodeUnknownRules: an UnknownFields entry is held to the rules of the map it is
// written into: its key must not be a field's, nor "$link" or "$bytes"; a "$type" in it must be a
// non-empty string; its values are checked as MarshalCBOR checks them.
func TestTypedEncodeUnknownRules(t *testing.T) {
	rows := []struct {
		rule string
		v    any
		want error
		path string
	}{
		{"a key that is also a field's", typedKeeper{Type: "a.b.c", Extra: UnknownFields{"text": "x"}}, ErrGoType, "/text"},
		{"a key that is an omitted field's", typedPostKeep{Type: "a.b.c", Unknown: UnknownFields{"langs": "x"}}, ErrGoType, "/langs"},
		{"rule 10: a $link key", typedRecordKeep{Type: "a.b.c", Rest: UnknownFields{"$link": "x"}}, ErrLink, "/$link"},
		{"rule 11: a $type in the unknown fields", struct{ Rest UnknownFields }{UnknownFields{"$type": int64(1)}}, ErrType, "/$type"},
		{"rule 9: a float value", typedRecordKeep{Type: "a.b.c", Rest: UnknownFields{"f": 1.5}}, ErrFloat, "/f"},
		{"rule 13: unknown fields that make a blob-typed struct no blob", typedRecordKeep{Type: "blob", Rest: UnknownFields{"size": int64(1)}}, ErrBlob, ""},
	}
	for _, r := range rows {
		_, err := MarshalCBORStruct(r.v)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, r.want) || e.Path != r.path || e.Offset != -1 {
			t.Errorf("%s: %v, want %v at %q", r.rule, err, r.want, r.path)
		}
	}
}

// TestTypedEncodeLimits: the encoder applies the limits of its options to typed values: a raised
// MaxCIDLen writes a long CID in a nested Link (refused by default, at its path), a raised
// MaxDepth a deeper value; a cycle is ErrTooDeep whatever the limit.
func TestTypedEncodeLimits(t *testing.T) {
	long := typedLongLink(t, 120)
	v := typedKinds{In: &typedInner{Text: "a", Link: long}, Bl: Blob{Ref: long, MimeType: "a/b", Size: 1}}
	_, err := MarshalCBORStruct(&v)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidCID) || e.Path != "/bl/ref" {
		t.Errorf("default MaxCIDLen: %v, want ErrInvalidCID at /bl/ref", err)
	}
	raised := WithLimits(Limits{MaxCIDLen: 200})
	out, err := MarshalCBORStruct(&v, raised)
	if err != nil {
		t.Fatalf("MaxCIDLen 200: %v", err)
	}
	var back typedKinds
	if err := UnmarshalCBORStruct(out, &back, raised); err != nil || back.In.Link != long || back.Bl.Ref != long {
		t.Errorf("read back: %+v, %v", back, err)
	}
	deep := &typedKinds{S: "x"}
	for range 99 {
		deep = &typedKinds{Rec: deep}
	}
	if _, err := MarshalCBORStruct(deep); !errors.Is(err, ErrTooDeep) {
		t.Errorf("100 levels, default MaxDepth: %v, want ErrTooDeep", err)
	}
	if _, err := MarshalCBORStruct(deep, WithLimits(Limits{MaxDepth: 100})); err != nil {
		t.Errorf("100 levels, MaxDepth 100: %v", err)
	}
	c := &typedCycle{}
	c.Next = c
	m := map[string]any{}
	m["m"] = m
	for _, v := range []any{c, &typedCycle{Any: m}, &typedCycle{Any: []any{c}}} {
		for _, lim := range []Limits{{}, {MaxDepth: MaxDepthCeiling}} {
			if _, err := MarshalCBORStruct(v, WithLimits(lim)); !errors.Is(err, ErrTooDeep) {
				t.Errorf("cycle, %+v: %v, want ErrTooDeep", lim, err)
			}
		}
	}
	// MaxElements and MaxValues count a struct's entries as a map's.
	three := typedKeeper{Type: "a", Text: "b", Extra: UnknownFields{"c": int64(1)}}
	if _, err := MarshalCBORStruct(three, WithLimits(Limits{MaxElements: 2})); !errors.Is(err, ErrTooManyElements) {
		t.Errorf("MaxElements 2: %v", err)
	}
	if _, err := MarshalCBORStruct(three, WithLimits(Limits{MaxValues: 3})); !errors.Is(err, ErrTooManyValues) {
		t.Errorf("MaxValues 3: %v", err)
	}
}

// TestTypedEncodeGoValues: Go values of a data-model form inside any fields, which MarshalCBOR
// refuses, are written by their plans; toarray structs are arrays of their fields.
func TestTypedEncodeGoValues(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	v := typedCycle{Any: map[string]any{"strs": []string{"a"}, "pair": typedPair{A: 1, B: "b", C: &link}, "n": uint8(7)}}
	out, err := MarshalCBORStruct(&v)
	if err != nil {
		t.Fatal(err)
	}
	want, err := MarshalCBOR(map[string]any{"next": nil, "any": map[string]any{"strs": []any{"a"}, "pair": []any{int64(1), "b", link}, "n": int64(7)}})
	if err != nil || !bytes.Equal(out, want) {
		t.Fatalf("%x, %v\nwant %x", out, err, want)
	}
	var p typedPair
	pair, _ := MarshalCBOR([]any{int64(1), "b", link, "extra"})
	if err := UnmarshalCBORStruct(pair, &p); err != nil || p.A != 1 || p.B != "b" || *p.C != link {
		t.Errorf("toarray decode: %+v, %v", p, err)
	}
}

// TestTypedEncodeAllocs: MarshalCBORStruct of a post allocates its result only (the buffer is
// pooled; the race detector's pool drops cost one more).
func TestTypedEncodeAllocs(t *testing.T) {
	var p cborTestPost
	if err := UnmarshalCBORStruct(cborTestRecord(t, "post"), &p); err != nil {
		t.Fatal(err)
	}
	want := 1.0
	if cborRaceEnabled {
		want++
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = MarshalCBORStruct(&p) }); n > want {
		t.Errorf("%v allocations, want %v", n, want)
	}
}
