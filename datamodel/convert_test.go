package datamodel

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

// Every fixture: JSON → CBOR gives exactly the fixture's bytes, and they hash to its CID.
func TestJSONToCBORFixtures(t *testing.T) {
	for i, c := range interopCases(t, "data-model-fixtures.json") {
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
	// A string takes its length and a head in CBOR, its length and two quotes in JSON: JSON of
	// n bytes within MaxJSONSize may give CBOR beyond MaxCBORSize, which UnmarshalCBOR refuses.
	long := func(n int) []byte { return []byte(`"` + strings.Repeat("x", n) + `"`) }
	limits := WithLimits(Limits{MaxCBORSize: 1000, MaxJSONSize: 2000})
	for _, c := range []struct {
		n    int // string bytes
		fits bool
	}{{997, true}, {998, false}} { // a head of 3 bytes (0x79 and two length bytes)
		out, err := JSONToCBOR(long(c.n), limits)
		var e *Error
		switch {
		case c.fits && (err != nil || len(out) != 1000):
			t.Errorf("a string of %d bytes: %d bytes of CBOR, %v; want 1000 bytes", c.n, len(out), err)
		case !c.fits && (!errors.Is(err, ErrTooLarge) || !errors.As(err, &e) || e.Offset != -1 || out != nil):
			t.Errorf("a string of %d bytes: %d bytes of CBOR, %v; want ErrTooLarge", c.n, len(out), err)
		case !c.fits:
			if _, err := UnmarshalCBOR(append([]byte{0x79, 0x03, 0xe6}, strings.Repeat("x", c.n)...), limits); !errors.Is(err, ErrTooLarge) {
				t.Errorf("UnmarshalCBOR reads the %d bytes JSONToCBOR refused: %v", c.n+3, err)
			}
		}
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

// jsonSemantic decodes JSON with encoding/json, numbers kept as text, for comparing two documents
// by value (key order and whitespace aside).
func jsonSemantic(t testing.TB, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

// Every fixture: CBOR → JSON gives back a JSON value equal to the fixture's.
func TestCBORToJSONFixtures(t *testing.T) {
	for i, c := range interopCases(t, "data-model-fixtures.json") {
		data, err := base64.RawStdEncoding.DecodeString(c.CBORBase64)
		if err != nil {
			t.Fatal(err)
		}
		got, err := CBORToJSON(data)
		if err != nil {
			t.Fatalf("fixture %d: CBORToJSON: %v", i, err)
		}
		if g, w := jsonSemantic(t, got), jsonSemantic(t, c.JSON); !reflect.DeepEqual(g, w) {
			t.Errorf("fixture %d: CBORToJSON\n got %s\nwant %s", i, got, c.JSON)
		}
	}
}

// The realistic records: JSON → CBOR gives the .cbor file, CBOR → JSON the .json file's value.
func TestConvertRecords(t *testing.T) {
	for _, name := range recordNames {
		t.Run(name, func(t *testing.T) {
			js, cb := readRecord(t, name)
			got, err := JSONToCBOR(js)
			if err != nil {
				t.Fatalf("JSONToCBOR: %v", err)
			}
			if !bytes.Equal(got, cb) {
				t.Errorf("JSONToCBOR differs from %s.cbor", name)
			}
			back, err := CBORToJSON(cb)
			if err != nil {
				t.Fatalf("CBORToJSON: %v", err)
			}
			if !reflect.DeepEqual(jsonSemantic(t, back), jsonSemantic(t, js)) {
				t.Errorf("CBORToJSON differs from %s.json", name)
			}
			v, err := UnmarshalJSON(js)
			if err != nil {
				t.Fatal(err)
			}
			if err := ValidateRecord(v); err != nil {
				t.Errorf("ValidateRecord: %v", err)
			}
			vc, err := UnmarshalCBOR(cb)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v, vc) {
				t.Errorf("UnmarshalJSON and UnmarshalCBOR give different values")
			}
		})
	}
}

// A record holding a legacy blob keeps its exact bytes and CID through CBOR → values → CBOR.
func TestLegacyBlobRoundTripCBOR(t *testing.T) {
	plain := map[string]any{
		"$type":  "app.bsky.actor.profile",
		"avatar": map[string]any{"cid": jsonTestRawCID, "mimeType": "image/jpeg"},
	}
	in, err := MarshalCBOR(plain)
	if err != nil {
		t.Fatal(err)
	}
	v, err := UnmarshalCBOR(in)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := v.(map[string]any)["avatar"].(Blob); !ok || !b.Legacy {
		t.Fatalf("avatar = %#v, want a legacy Blob", v.(map[string]any)["avatar"])
	}
	if err := ValidateRecord(v); err != nil {
		t.Fatal(err)
	}
	out, err := MarshalCBOR(v)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("CBOR → values → CBOR = %x, %v\nwant %x", out, err, in)
	}
	c, err := RecordCID(v)
	if err != nil || c != cidutil.SumCBOR(in) {
		t.Fatalf("RecordCID = %v, %v; want %v", c, err, cidutil.SumCBOR(in))
	}
	// Through JSON as well: CBOR → JSON → CBOR.
	js, err := CBORToJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := JSONToCBOR(js)
	if err != nil || !bytes.Equal(again, in) {
		t.Fatalf("CBOR → JSON → CBOR = %x, %v (JSON %s)", again, err, js)
	}
}

func TestCBORToJSONErrors(t *testing.T) {
	// CBOR that JSON cannot represent: a map whose key would read back as a link. MarshalCBOR
	// refuses to write it, so the bytes are written out by hand: {"$link": "x"}.
	in := []byte{0xa1, 0x65, '$', 'l', 'i', 'n', 'k', 0x61, 'x'}
	if _, err := CBORToJSON(in); !errors.Is(err, ErrLink) {
		t.Errorf("CBORToJSON of a $link-keyed map: %v, want ErrLink", err)
	}
	if _, err := CBORToJSON([]byte{0xf9, 0x3c, 0x00}); !errors.Is(err, ErrFloat) {
		t.Errorf("CBORToJSON of a float: %v, want ErrFloat", err)
	}
	// Bytes grow by a third in base64: 600 bytes are a JSON {"$bytes":"…"} of 800 + 13.
	in = append([]byte{0x59, 0x02, 0x58}, make([]byte, 600)...)
	for _, c := range []struct {
		limit int
		fits  bool
	}{{813, true}, {812, false}} {
		out, err := CBORToJSON(in, WithLimits(Limits{MaxJSONSize: c.limit}))
		if c.fits != (err == nil) || !c.fits && !errors.Is(err, ErrTooLarge) || c.fits && len(out) != 813 {
			t.Errorf("600 bytes, MaxJSONSize %d: %d bytes of JSON, %v", c.limit, len(out), err)
		}
	}
}

// A legacy blob's CID is a string, not a link, so the 100-byte limit on links does not apply to
// it; both decoders agree on what a legacy blob is.
func TestLegacyBlobLongCID(t *testing.T) {
	long := jsonLongCID(t)
	in := []byte(`{"a":{"cid":"` + long + `","mimeType":"a/b"}}`)
	v, err := UnmarshalJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := v.(map[string]any)["a"].(Blob); !ok || !b.Legacy {
		t.Fatalf("got %#v, want a legacy Blob", v)
	}
	if err := Validate(v); err != nil {
		t.Fatal(err)
	}
	cb, err := MarshalCBOR(v)
	if err != nil {
		t.Fatal(err)
	}
	vc, err := UnmarshalCBOR(cb)
	if err != nil || !reflect.DeepEqual(vc, v) {
		t.Fatalf("UnmarshalCBOR = %#v, %v; want %#v", vc, err, v)
	}
}

// The JSON and CBOR decoders give identical Go values for the same data, edge cases included.
func TestDecodersAgree(t *testing.T) {
	for _, in := range []string{
		`{"$bytes":""}`, `""`, `[]`, `{}`, `0`, `-1`, `255`, `256`, `-9223372036854775808`,
		`9223372036854775807`, `[null,true,false]`, `{"a":{"$link":"` + jsonTestCBORCID + `"}}`,
		`{"$type":"blob","ref":{"$link":"` + jsonTestRawCID + `"},"mimeType":"a/b","size":0}`,
		`{"cid":"` + jsonTestRawCID + `","mimeType":"a/b"}`, `{"cid":"x","mimeType":"a/b"}`,
		`[[[{"$bytes":"AQID"}]]]`, `{"":""}`, `"\u0000"`,
		// Rule 14: links and bytes are leaves at the depth limit in both encodings.
		jsonNested("[", "]", 32, `{"$link":"`+jsonTestCBORCID+`"}`), jsonNested("[", "]", 32, `{"$bytes":"AQ"}`),
	} {
		v, err := UnmarshalJSON([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		cb, err := JSONToCBOR([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		vc, err := UnmarshalCBOR(cb)
		if err != nil || !reflect.DeepEqual(vc, v) {
			t.Errorf("%s: UnmarshalJSON gives %#v, UnmarshalCBOR %#v (%v)", in, v, vc, err)
		}
	}
}
