package datamodel

import (
	"reflect"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

// Blobs finds "plain maps that have exactly the blob shape (DECISIONS rule 13)", and rule 13
// includes the legacy form {cid: string, mimeType}: ValidateRecord refuses such a map as "a
// blob", and the decoders read its bytes back as a legacy Blob. Blobs must find it in a plain
// map, in an UnknownFields entry and as a blob-shaped struct, as it does after a round trip.
func TestBlobsLegacyMap(t *testing.T) {
	ref := cidutil.SumRaw([]byte("legacy"))
	legacy := map[string]any{"cid": ref.String(), "mimeType": "image/png"}
	want := []Blob{{Ref: Link(ref), MimeType: "image/png", Legacy: true}}
	type legacyStruct struct {
		Cid      string `cbor:"cid"`
		MimeType string `cbor:"mimeType"`
	}
	type withUnknown struct {
		Text  string        `cbor:"text"`
		Extra UnknownFields `cbor:"-"`
	}
	for name, v := range map[string]any{
		"map":           map[string]any{"avatar": legacy},
		"array":         []any{legacy},
		"struct":        map[string]any{"avatar": legacyStruct{ref.String(), "image/png"}},
		"struct field":  struct{ A legacyStruct }{legacyStruct{ref.String(), "image/png"}},
		"unknownFields": &withUnknown{Text: "x", Extra: UnknownFields{"avatar": legacy}},
	} {
		data, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		decoded, err := UnmarshalCBOR(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := Blobs(decoded); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Blobs of the decoded value = %v, want %v", name, got, want)
		}
		if got := Blobs(v); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Blobs = %v, want %v (what it finds after a round trip)", name, got, want)
		}
		if got := Links(v); got != nil {
			t.Errorf("%s: Links = %v, want none: a legacy blob's CID is a string", name, got)
		}
	}
	// Not the legacy shape: a CID string that is not canonical, or a third key.
	for _, m := range []map[string]any{
		{"cid": "not a cid", "mimeType": "image/png"},
		{"cid": ref.String(), "mimeType": ""},
		{"cid": ref.String(), "mimeType": "image/png", "size": int64(1)},
	} {
		if got := Blobs(m); got != nil {
			t.Errorf("Blobs(%v) = %v, want none", m, got)
		}
	}
}
