package datamodel

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"testing"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/tid"
)

// typedWalkProperty fails unless Blobs and Links of v, with the typed walk of Go structs, give
// what the walk of the converted tree gives: the same blobs and links, in the same order.
func typedWalkProperty(t *testing.T, v any) {
	t.Helper()
	if typed, converted := blobs(v, true), blobs(v, false); !reflect.DeepEqual(typed, converted) {
		t.Fatalf("%T:\nBlobs, typed walk      %v\nBlobs, converted tree  %v", v, typed, converted)
	}
	if typed, converted := links(v, true), links(v, false); !reflect.DeepEqual(typed, converted) {
		t.Fatalf("%T:\nLinks, typed walk      %v\nLinks, converted tree  %v", v, typed, converted)
	}
}

// Structs for the typed walk: every kind a plan has, blob-shaped structs, and the keys' bytewise
// order differing from their length-first (DAG-CBOR) order.
type (
	walkBlobShaped struct {
		Type     string `cbor:"$type"`
		Ref      Link   `cbor:"ref"`
		MimeType string `cbor:"mimeType"`
		Size     int64  `cbor:"size"`
	}
	walkBlobShapedAny struct {
		Type     any    `cbor:"$type"`
		Ref      Link   `cbor:"ref"`
		MimeType string `cbor:"mimeType"`
		Size     int64  `cbor:"size"`
	}
	walkEmbedded struct {
		Promoted Link `cbor:"promoted"`
	}
	walkUnknown struct {
		Type  string        `cbor:"$type"`
		Ref   Link          `cbor:"ref"`
		Extra UnknownFields `cbor:"-"`
	}
	walkToArray struct {
		_    struct{} `cbor:",toarray"`
		Blob Blob
	}
	walkMethod struct{ link Link }
	walkAll    struct {
		*walkEmbedded
		Zebra   Link                   `cbor:"zebra"`
		A       []walkBlobShaped       `cbor:"a"`
		AnyType []walkBlobShapedAny    `cbor:"anyType,omitempty"`
		B       Blob                   `cbor:"bb"`
		BP      *Blob                  `cbor:"bp,omitempty"`
		L       Link                   `cbor:"l"`
		C       cid.Cid                `cbor:"c"`
		Arr     [2]Link                `cbor:"arr"`
		Raw     [3]byte                `cbor:"raw"`
		Data    []byte                 `cbor:"data"`
		Any     any                    `cbor:"any"`
		M       map[string]Link        `cbor:"m"`
		Maps    []map[string]any       `cbor:"maps"`
		Unk     []UnknownFields        `cbor:"unk"`
		T       tid.TID                `cbor:"t"`
		Big     uint64                 `cbor:"big"`
		Small   uint8                  `cbor:"small"`
		PP      **walkBlobShaped       `cbor:"pp"`
		Text    encoding.TextMarshaler `cbor:"text"`
		Union   Union                  `cbor:"union,omitzero"`
		Method  walkMethod             `cbor:"method"`
		Unknown *walkUnknown           `cbor:"unknown,omitempty"`
		ToArray *walkToArray           `cbor:"toArray,omitempty"`
		Float   float64                `cbor:"float,omitempty"`
		Kids    []*walkAll             `cbor:"kids"`
		Self    *walkAll               `cbor:"self,omitempty"`
	}
)

// MarshalCBOR writes {"link": <its link>}: what a value with its own marshaling method
// references is found in what it writes.
func (m walkMethod) MarshalCBOR() ([]byte, error) {
	return MarshalCBOR(map[string]any{"link": m.link})
}

func TestTypedWalkMatchesConvertedTree(t *testing.T) {
	ref := jsonTestLink(t, jsonTestRawCID)
	other := jsonTestLink(t, jsonTestCBORCID)
	blob := Blob{Ref: ref, MimeType: "image/png", Size: 10}
	shaped := walkBlobShaped{Type: "blob", Ref: ref, MimeType: "a/b", Size: 3}
	notBlob := walkBlobShaped{Type: "app.example.thing", Ref: other, MimeType: "a/b", Size: 3}
	pshaped := &shaped
	full := func() *walkAll {
		return &walkAll{
			walkEmbedded: &walkEmbedded{Promoted: other},
			Zebra:        ref,
			A:            []walkBlobShaped{shaped, notBlob, {Ref: ref}},
			AnyType:      []walkBlobShapedAny{{Type: "blob", Ref: ref, MimeType: "a/b", Size: 1}, {Type: 7, Ref: other}},
			B:            blob,
			BP:           &Blob{Ref: other, MimeType: "text/plain", Size: 1, Legacy: true},
			L:            other,
			C:            cid.Cid(ref),
			Arr:          [2]Link{ref, {}},
			Raw:          [3]byte{1, 2, 3},
			Data:         []byte{4},
			Any:          map[string]any{"x": []any{blob, ref, walkBlobShaped{Type: "blob", Ref: other, MimeType: "a/b"}}},
			M:            map[string]Link{"b": ref, "a": other},
			Maps:         []map[string]any{nil, {"$type": "blob", "ref": other, "mimeType": "a/b", "size": int64(5)}, {"l": ref}},
			Unk:          []UnknownFields{{"$type": "blob", "ref": ref, "mimeType": "a/b", "size": int64(6)}, nil},
			T:            tid.MustParse("3jzfcijpj2z2a"),
			Big:          7,
			Small:        9,
			PP:           &pshaped,
			Text:         tid.MustParse("3jzfcijpj2z2b"),
			Union:        UnionOf(&walkBlobShaped{Type: "app.example.member", Ref: ref}),
			Method:       walkMethod{link: other},
			Unknown:      &walkUnknown{Type: "x.y.z", Ref: ref, Extra: UnknownFields{"more": map[string]any{"$type": "blob", "ref": other, "mimeType": "a/b", "size": int64(2)}}},
			ToArray:      &walkToArray{Blob: blob},
			Kids:         []*walkAll{nil, {B: blob, L: ref}},
		}
	}
	withBig := full()
	withBig.Big = math.MaxUint64 // outside the data model: passed over by both walks
	withFloat := full()
	withFloat.Float = 1.5
	emptyEmbedded := full()
	emptyEmbedded.walkEmbedded = nil
	anyBlobType := full()
	anyBlobType.AnyType[1].Type = "blob"
	for _, v := range []any{
		full(),
		*full(),
		withBig,
		withFloat,
		emptyEmbedded,
		anyBlobType,
		&walkAll{},
		walkAll{},
		shaped,
		&shaped,
		&pshaped,
		notBlob,
		walkUnknown{Type: "blob", Ref: ref, Extra: UnknownFields{"mimeType": "a/b", "size": int64(1)}},
		[]any{full(), shaped, notBlob, map[string]any{"s": &notBlob}},
		map[string]any{"a": full(), "b": []walkBlobShaped{shaped}},
		[]walkAll{*full()},
		(*walkAll)(nil),
		walkToArray{Blob: blob},
	} {
		t.Run(fmt.Sprintf("%T", v), func(t *testing.T) { typedWalkProperty(t, v) })
	}
	// And the walk finds what is there: a check on the reference too.
	if got := len(Blobs(full())); got < 8 {
		t.Errorf("Blobs found %d blobs in the full struct, want at least 8", got)
	}
}

// A struct that refers to itself is walked down to MaxDepthCeiling by both walks, which stop at
// the same container.
func TestTypedWalkDepthStop(t *testing.T) {
	ref := jsonTestLink(t, jsonTestRawCID)
	for _, levels := range []int{MaxDepthCeiling/2 - 2, MaxDepthCeiling/2 - 1, MaxDepthCeiling / 2, MaxDepthCeiling/2 + 1, MaxDepthCeiling} {
		var top *walkAll
		for range levels {
			top = &walkAll{Self: top, B: Blob{Ref: ref, MimeType: "a/b", Size: 1}, Zebra: ref}
		}
		typedWalkProperty(t, top)
	}
	// A value outside the data model stops the walk at that depth as a container would: the
	// blob after it (bytewise) is found above the depth limit only.
	type deepLeaf struct {
		Big  uint64 `cbor:"big"`
		Blob Blob   `cbor:"blob"`
		Self any    `cbor:"self,omitempty"`
	}
	for _, levels := range []int{MaxDepthCeiling - 2, MaxDepthCeiling - 1, MaxDepthCeiling, MaxDepthCeiling + 1} {
		var top any
		for range levels {
			top = &deepLeaf{Big: math.MaxUint64, Blob: Blob{Ref: ref, MimeType: "a/b", Size: 1}, Self: top}
		}
		typedWalkProperty(t, top)
	}
	cyclic := &walkAll{B: Blob{Ref: ref, MimeType: "a/b", Size: 1}}
	cyclic.Self = cyclic
	cyclic.Kids = []*walkAll{cyclic}
	typedWalkProperty(t, cyclic)
	if n := len(Blobs(cyclic)); n == 0 || n > MaxDepthCeiling {
		t.Errorf("Blobs of a cyclic struct found %d blobs", n)
	}
}

// Both walks visit at most walkMaxValues values, and so stop at the same one.
func TestTypedWalkBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds slices of a million elements")
	}
	ref := jsonTestLink(t, jsonTestRawCID)
	type wide struct {
		Ints  []int64        `cbor:"a"`
		Empty string         `cbor:"aa,omitempty"` // left out: not counted
		Nil   map[string]any `cbor:"ab"`           // null: counted once
		Blob  Blob           `cbor:"b"`
	}
	// The struct and its slice count twice each (as themselves, then as the map and []any they
	// convert to), the ints once each, the empty field not at all, the nil map and the blob once:
	// the blob is the last value within the budget with walkMaxValues-6 ints, and past it with
	// one more.
	found := 0
	for _, n := range []int{walkMaxValues - 6, walkMaxValues - 5} {
		v := &wide{Ints: make([]int64, n), Blob: Blob{Ref: ref, MimeType: "a/b", Size: 1}}
		typedWalkProperty(t, v)
		found += len(Blobs(v))
	}
	if found != 1 {
		t.Errorf("the blob after the slice was found %d times, want once (within the budget, not past it)", found)
	}
}

// Blobs of a struct finds its blobs without converting it: the post's walk allocates its result
// only (the walk of the converted tree: 77 allocations).
func TestTypedWalkAllocs(t *testing.T) {
	_, data := readRecord(t, "post")
	post := new(cborTestPost)
	if err := UnmarshalCBORStruct(data, post); err != nil {
		t.Fatal(err)
	}
	if typed := testing.AllocsPerRun(50, func() { _ = Blobs(post) }); typed > 1 {
		t.Errorf("Blobs of the post struct: %v allocations, want 1 (its result)", typed)
	}
	if n := len(Blobs(post)); n != 1 {
		t.Errorf("Blobs of the post struct found %d blobs, want 1", n)
	}
}
