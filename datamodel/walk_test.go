package datamodel

import (
	"reflect"
	"testing"

	"github.com/atcore/atcore/cidutil"
	cid "github.com/ipfs/go-cid"
)

func TestBlobsAndLinks(t *testing.T) {
	l1 := Link(cidutil.SumCBOR([]byte("one")))
	l2 := Link(cidutil.SumCBOR([]byte("two")))
	r1 := Link(cidutil.SumRaw([]byte("image 1")))
	r2 := Link(cidutil.SumRaw([]byte("image 2")))
	r3 := Link(cidutil.SumRaw([]byte("legacy")))
	r4 := Link(cidutil.SumRaw([]byte("map")))
	b1 := Blob{Ref: r1, MimeType: "image/png", Size: 1}
	b2 := Blob{Ref: r2, MimeType: "image/jpeg", Size: 2}
	legacy := Blob{Ref: r3, MimeType: "image/gif", Legacy: true}
	record := map[string]any{
		"$type": "app.bsky.feed.post",
		"embed": map[string]any{
			"images": []any{
				map[string]any{"image": b1, "alt": "first"},
				map[string]any{"image": &b2, "alt": "second"},
			},
		},
		"avatar":  legacy,
		"reply":   map[string]any{"root": l1, "parent": cid.Cid(l2)},
		"asMap":   map[string]any{"$type": "blob", "ref": r4, "mimeType": "a/b", "size": int64(4)},
		"notBlob": map[string]any{"$type": "blob", "ref": r4, "mimeType": "a/b"},
		"text":    "hello",
	}
	// Depth first, map keys in bytewise order: asMap, avatar, embed/images/0, embed/images/1,
	// notBlob (not a blob: its ref is only a link), reply/parent, reply/root.
	wantBlobs := []Blob{{Ref: r4, MimeType: "a/b", Size: 4}, legacy, b1, b2}
	if got := Blobs(record); !reflect.DeepEqual(got, wantBlobs) {
		t.Errorf("Blobs\n got %v\nwant %v", got, wantBlobs)
	}
	// The legacy blob's CID is a string in the record, not a link.
	wantLinks := []Link{r4, r1, r2, r4, l2, l1}
	if got := Links(record); !reflect.DeepEqual(got, wantLinks) {
		t.Errorf("Links\n got %v\nwant %v", got, wantLinks)
	}
	if got := Blobs("x"); got != nil {
		t.Errorf("Blobs of a string = %v", got)
	}
	if got := Links(map[string]any{"l": Link{}}); got != nil {
		t.Errorf("Links skips undefined links, got %v", got)
	}
}

// Blobs and Links find the same things in a decoded fixture as in the JSON text.
func TestBlobsAndLinksFixture(t *testing.T) {
	v, err := UnmarshalJSON(interopCases(t, "data-model-fixtures.json")[1].JSON)
	if err != nil {
		t.Fatal(err)
	}
	raw := jsonTestLink(t, jsonTestRawCID)
	if got := Blobs(v); len(got) != 1 || got[0] != (Blob{Ref: raw, MimeType: "image/jpeg", Size: 10000}) {
		t.Errorf("Blobs = %v", got)
	}
	want := []Link{jsonTestLink(t, jsonTestCBORCID), raw}
	if got := Links(v); !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %v, want %v", got, want)
	}
}
