package datamodel

import (
	"bytes"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

// Every fixture: JSON → CBOR gives exactly the fixture's bytes, and they hash to its CID.
func TestJSONToCBORFixtures(t *testing.T) {
	for i, c := range jsonReadCases(t, "data-model-fixtures.json") {
		want, err := base64.RawStdEncoding.DecodeString(c.CBORBase64)
		if err != nil {
			t.Fatalf("fixture %d: cbor_base64: %v", i, err)
		}
		got, err := JSONToCBOR(c.JSON)
		if err != nil {
			t.Fatalf("fixture %d: JSONToCBOR: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("fixture %d: JSONToCBOR\n got %x\nwant %x", i, got, want)
		}
		if s := cidutil.SumCBOR(got).String(); s != c.CID {
			t.Errorf("fixture %d: CID of the bytes %s, want %s", i, s, c.CID)
		}
		v, err := UnmarshalJSON(c.JSON)
		if err != nil {
			t.Fatal(err)
		}
		if err := ValidateRecord(v); err != nil {
			t.Errorf("fixture %d: ValidateRecord: %v", i, err)
		}
		rc, err := RecordCID(v)
		if err != nil || rc.String() != c.CID {
			t.Errorf("fixture %d: RecordCID = %v, %v; want %s", i, rc, err, c.CID)
		}
	}
}

func TestJSONToCBORErrors(t *testing.T) {
	if _, err := JSONToCBOR([]byte(`{"a":1.5}`)); !errors.Is(err, ErrFraction) {
		t.Errorf("fraction: %v", err)
	}
	if _, err := JSONToCBOR([]byte(`[[1]]`), WithLimits(Limits{MaxDepth: 1})); !errors.Is(err, ErrTooDeep) {
		t.Errorf("options are passed on: %v", err)
	}
}

// A record holding a legacy blob keeps its exact bytes and CID through JSON → values → CBOR: the
// legacy Blob is written as the same {cid, mimeType} map it was read from (DECISIONS rule 13).
func TestLegacyBlobRoundTripJSON(t *testing.T) {
	in := []byte(`{"$type":"app.bsky.actor.profile","avatar":{"cid":"` + jsonTestRawCID + `","mimeType":"image/jpeg"},"displayName":"x"}`)
	// The reference: the same data as plain maps and strings, which no blob logic touches.
	plain := map[string]any{
		"$type":       "app.bsky.actor.profile",
		"avatar":      map[string]any{"cid": jsonTestRawCID, "mimeType": "image/jpeg"},
		"displayName": "x",
	}
	want, err := MarshalCBOR(plain)
	if err != nil {
		t.Fatal(err)
	}
	v, err := UnmarshalJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	avatar, ok := v.(map[string]any)["avatar"].(Blob)
	if !ok || !avatar.Legacy || avatar.Ref.String() != jsonTestRawCID || avatar.MimeType != "image/jpeg" {
		t.Fatalf("avatar = %#v, want a legacy Blob", v.(map[string]any)["avatar"])
	}
	got, err := JSONToCBOR(in)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("JSONToCBOR = %x, %v\nwant %x", got, err, want)
	}
	c1, err1 := RecordCID(v)
	c2, err2 := RecordCID(plain)
	if err1 != nil || err2 != nil || c1 != c2 {
		t.Fatalf("RecordCID: %v %v, %v %v", c1, err1, c2, err2)
	}
	out, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(in) {
		t.Errorf("JSON round trip\n got %s\nwant %s", out, in)
	}
}
