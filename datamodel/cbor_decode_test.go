package datamodel

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/atcore/atcore/cidutil"
	"github.com/ipfs/go-cid"
)

// TestUnmarshalCBORNoAlias: the decoded value never aliases the input (UnmarshalCBOR's doc), even
// though strings, keys and links share one copy of it: overwriting the input after the decode
// changes nothing in the result.
func TestUnmarshalCBORNoAlias(t *testing.T) {
	decoders := []struct {
		name   string
		decode func([]byte) (any, error)
	}{
		{"UnmarshalCBOR", func(b []byte) (any, error) { return UnmarshalCBOR(b) }},
		{"UnmarshalCBORPrefix", func(b []byte) (any, error) { v, _, err := UnmarshalCBORPrefix(b); return v, err }},
	}
	for _, r := range cborTestRecords(t) {
		want, err := cborTestFromJSON(r.json)
		if err != nil {
			t.Fatal(err)
		}
		for _, dec := range decoders {
			in := bytes.Clone(r.cbor)
			got, err := dec.decode(in)
			if err != nil {
				t.Fatalf("%s %s: %v", dec.name, r.name, err)
			}
			for i := range in {
				in[i] = 0xff
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: the result changed when the input was overwritten", dec.name, r.name)
			}
		}
	}
}

// TestUnmarshalCBORLinkShape: a decoded link, alone, in a blob or inside a map, is the same CID as
// cidutil.ParseBinary gives for its bytes (the decoder builds it without ParseBinary where it can),
// and writes back the same bytes.
func TestUnmarshalCBORLinkShape(t *testing.T) {
	want, err := cidutil.ParseBinary(cborHex(t, cborTestCIDHex))
	if err != nil {
		t.Fatal(err)
	}
	link := "d82a5825 00" + cborTestCIDHex
	tests := []struct {
		rule string
		hex  string
		find func(any) any
	}{
		{"link alone", link, func(v any) any { return v }},
		{"link in a map", "a1 6161" + link, func(v any) any { return v.(map[string]any)["a"] }},
		{"link in an array", "82 01" + link, func(v any) any { return v.([]any)[1] }},
		{"blob ref (rule 13)", "a4 63726566" + link + " 6473697a65 01 652474797065 64626c6f62 686d696d6554797065 6161",
			func(v any) any { return v.(Blob).Ref }},
	}
	for _, tt := range tests {
		in := cborHex(t, tt.hex)
		v, err := UnmarshalCBOR(in)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		got, ok := tt.find(v).(Link)
		if !ok || !reflect.DeepEqual(got, Link(want)) || !bytes.Equal(cid.Cid(got).Bytes(), want.Bytes()) {
			t.Errorf("%s: got %#v, want %v", tt.rule, tt.find(v), want)
		}
		if out, err := MarshalCBOR(v); err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: re-encoded to %x, %v; want %x", tt.rule, out, err, in)
		}
	}
}

// TestUnmarshalCBORLegacyBlobKeys: the legacy blob form is recognised from the keys as they are
// decoded, so only a map of exactly "cid" then "mimeType" becomes a Blob (DECISIONS rule 13).
func TestUnmarshalCBORLegacyBlobKeys(t *testing.T) {
	cidKey, mimeKey := "63636964", "686d696d6554797065"
	cidStr := "783b" + cborTestHexString(cborTestBlobLinkString)
	ref := cborTestLink(t, cborTestBlobLinkString)
	tests := []struct {
		rule string
		hex  string
		want any
	}{
		{"cid then mimeType is a legacy blob", "a2" + cidKey + cidStr + mimeKey + "6161",
			Blob{Ref: ref, MimeType: "a", Legacy: true}},
		{"cid not a string stays a map", "a2" + cidKey + "01" + mimeKey + "6161",
			map[string]any{"cid": int64(1), "mimeType": "a"}},
		{"cid null stays a map", "a2" + cidKey + "f6" + mimeKey + "6161",
			map[string]any{"cid": nil, "mimeType": "a"}},
		{"mimeType not a string stays a map", "a2" + cidKey + cidStr + mimeKey + "01",
			map[string]any{"cid": cborTestBlobLinkString, "mimeType": int64(1)}},
		{"another key instead of mimeType stays a map", "a2" + cidKey + cidStr + "686d696d6554797066" + "6161",
			map[string]any{"cid": cborTestBlobLinkString, "mimeTypf": "a"}},
		{"a third key stays a map", "a3" + cidKey + cidStr + "6466696c65 01" + mimeKey + "6161",
			map[string]any{"cid": cborTestBlobLinkString, "file": int64(1), "mimeType": "a"}},
		{"mimeType alone stays a map", "a1" + mimeKey + "6161", map[string]any{"mimeType": "a"}},
	}
	for _, tt := range tests {
		in := cborHex(t, tt.hex)
		got, err := UnmarshalCBOR(in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v, %v; want %#v", tt.rule, got, err, tt.want)
		}
	}
}

// UnmarshalCBOR clones its small maps from one empty map (newMap, cborMapProto): each must be a
// map of its own, and the one they are cloned from must stay empty, whatever a caller writes.
func TestUnmarshalCBORMapsIndependent(t *testing.T) {
	// {"a": {"x": 1}, "b": {}}, and a map of 9 entries, made with make.
	in := []byte("\xa2\x61a\xa1\x61x\x01\x61b\xa0")
	wide := []byte("\xa9\x610\x00\x611\x01\x612\x02\x613\x03\x614\x04\x615\x05\x616\x06\x617\x07\x618\x08")
	first, err := UnmarshalCBOR(in)
	if err != nil {
		t.Fatal(err)
	}
	w, err := UnmarshalCBOR(wide)
	if err != nil || len(w.(map[string]any)) != 9 {
		t.Fatalf("9 entries: %v, %v", w, err)
	}
	first.(map[string]any)["a"].(map[string]any)["y"] = int64(2)
	first.(map[string]any)["b"].(map[string]any)["z"] = true
	first.(map[string]any)["c"] = nil
	if len(cborMapProto) != 0 {
		t.Fatalf("after writes to decoded maps, the map they were cloned from holds %v", cborMapProto)
	}
	second, err := UnmarshalCBOR(in)
	want := map[string]any{"a": map[string]any{"x": int64(1)}, "b": map[string]any{}}
	if err != nil || !reflect.DeepEqual(second, want) {
		t.Errorf("second decode: %v, %v; want %v", second, err, want)
	}
}
