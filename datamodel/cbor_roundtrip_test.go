package datamodel

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

var cborUpdate = flag.Bool("update", false, "rewrite ../testdata/records/*.cbor from the .json files")

// TestCBORRecordsUpdate writes the DAG-CBOR of each record when run with -update; otherwise it
// checks that the .cbor files are the encoding of the .json files.
func TestCBORRecordsUpdate(t *testing.T) {
	for _, name := range recordNames {
		j, err := os.ReadFile(filepath.Join("..", "testdata", "records", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		v, err := cborTestFromJSON(j)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join("..", "testdata", "records", name+".cbor")
		if *cborUpdate {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.cbor is not the DAG-CBOR of %s.json; run go test -run TestCBORRecordsUpdate -update", name, name)
		}
	}
}

// TestCBORRoundTripFixtures: every interop fixture scans, decodes to the fixture's value,
// re-encodes to identical bytes, and hashes to the fixture's CID.
func TestCBORRoundTripFixtures(t *testing.T) {
	for i, f := range interopCases(t, "data-model-fixtures.json") {
		data := f.cbor(t)
		cborTestRoundTrip(t, "fixture "+f.CID, data)
		want, err := cborTestFromJSON(f.JSON)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := UnmarshalCBOR(data); !reflect.DeepEqual(got, want) {
			t.Errorf("fixture %d: decoded\n%#v\nwant\n%#v", i, got, want)
		}
		if got := cidutil.SumCBOR(data).String(); got != f.CID {
			t.Errorf("fixture %d: CID %s, want %s", i, got, f.CID)
		}
	}
}

// TestCBORRoundTripRecords does the same for the realistic records.
func TestCBORRoundTripRecords(t *testing.T) {
	for _, r := range cborTestRecords(t) {
		cborTestRoundTrip(t, r.name, r.cbor)
		want, err := cborTestFromJSON(r.json)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := UnmarshalCBOR(r.cbor); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded value differs from the JSON's", r.name)
		}
	}
}

// cborTestRoundTrip checks one valid input through every reader and back through the encoder.
func cborTestRoundTrip(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := ScanCBOR(data); err != nil {
		t.Errorf("%s: ScanCBOR: %v", name, err)
	}
	v, err := UnmarshalCBOR(data)
	if err != nil {
		t.Errorf("%s: UnmarshalCBOR: %v", name, err)
		return
	}
	out, err := MarshalCBOR(v)
	if err != nil {
		t.Errorf("%s: MarshalCBOR: %v", name, err)
		return
	}
	if !bytes.Equal(out, data) {
		t.Errorf("%s: re-encoded\n%x\nwant\n%x", name, out, data)
	}
	frame := append(append([]byte{}, data...), 0xa0, 0x01)
	pv, rest, err := UnmarshalCBORPrefix(frame)
	if err != nil || !reflect.DeepEqual(pv, v) || !bytes.Equal(rest, []byte{0xa0, 0x01}) {
		t.Errorf("%s: UnmarshalCBORPrefix: rest %x, %v", name, rest, err)
	}
}

// TestCBORValid: inputs at the edges of the rules decode to the expected values and re-encode
// to the same bytes.
func TestCBORValid(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	blobRef := cborTestLink(t, cborTestBlobLinkString)
	blobHex := "a4 63726566 d82a5825 00" + "015512204258cfff78f613697697563f926c91e5d3574d2ea25ae7ed92d6ebfc23a3889e" +
		" 6473697a65 00 652474797065 64626c6f62 686d696d6554797065 6a696d6167652f6a706567"
	legacyHex := "a2 63636964 783b" + cborTestHexString(cborTestBlobLinkString) + " 686d696d6554797065 69696d6167652f706e67"
	tests := []struct {
		rule string
		hex  string
		want any
	}{
		{"zero", "00", int64(0)},
		{"largest one-byte-head integer", "17", int64(23)},
		{"smallest one-byte argument", "1818", int64(24)},
		{"MaxInt64", "1b7fffffffffffffff", int64(math.MaxInt64)},
		{"MinInt64", "3b7fffffffffffffff", int64(math.MinInt64)},
		{"-1", "20", int64(-1)},
		{"false", "f4", false},
		{"true", "f5", true},
		{"null", "f6", nil},
		{"empty string", "60", ""},
		{"four-byte UTF-8", "64f09f9880", "\U0001F600"},
		{"empty bytes", "40", Bytes{}},
		{"bytes", "43010203", Bytes{1, 2, 3}},
		{"empty array", "80", []any{}},
		{"empty map", "a0", map[string]any{}},
		{"keys length-first then bytewise", "a4 60 01 6161 02 6162 03 626161 04",
			map[string]any{"": int64(1), "a": int64(2), "b": int64(3), "aa": int64(4)}},
		{"null and missing stay distinct (rule 15)", "a1 6161 f6", map[string]any{"a": nil}},
		{"link", "d82a5825 00" + cborTestCIDHex, link},
		{"nesting at exactly the limit", strings.Repeat("81", DefaultMaxDepth-1) + "80", cborTestWrap([]any{}, DefaultMaxDepth-1)},
		{"$type string", "a1 652474797065 6178", map[string]any{"$type": "x"}},
		{"blob of size 0 (rule 13)", blobHex, Blob{Ref: blobRef, MimeType: "image/jpeg", Size: 0}},
		{"legacy blob (rule 13)", legacyHex, Blob{Ref: blobRef, MimeType: "image/png", Legacy: true}},
		{"cid and mimeType with a non-canonical CID string stay a map", "a2 63636964 6161 686d696d6554797065 6161",
			map[string]any{"cid": "a", "mimeType": "a"}},
		{"cid and empty mimeType stay a map", "a2 63636964 783b" + cborTestHexString(cborTestBlobLinkString) + " 686d696d6554797065 60",
			map[string]any{"cid": cborTestBlobLinkString, "mimeType": ""}},
		{"other $-prefixed keys are kept (rule 11)", "a1 652462797465 01", map[string]any{"$byte": int64(1)}},
	}
	for _, tt := range tests {
		in := cborHex(t, tt.hex)
		cborTestRoundTrip(t, tt.rule, in)
		if got, err := UnmarshalCBOR(in); err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v, %v; want %#v", tt.rule, got, err, tt.want)
		}
	}
}

func cborTestHexString(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		const digits = "0123456789abcdef"
		b.WriteByte(digits[s[i]>>4])
		b.WriteByte(digits[s[i]&15])
	}
	return b.String()
}

// TestUnmarshalCBORDataModel: canonical CBOR that breaks the data-model rules on reserved keys,
// "$type" and blobs (DECISIONS rules 10, 11 and 13) passes ScanCBOR, a pure syntax check, but not
// UnmarshalCBOR. Rows marked typed fail the same way in UnmarshalCBORStruct, into any (its
// scanner checks the key rules, 10 and 11; rule 13 only applies to Blob fields there).
func TestUnmarshalCBORDataModel(t *testing.T) {
	ref := "63726566 d82a5825 00 01551220 4258cfff78f613697697563f926c91e5d3574d2ea25ae7ed92d6ebfc23a3889e"
	typeBlob := "652474797065 64626c6f62"
	mime := "686d696d6554797065 6a696d6167652f6a706567"
	link, byts := "65 246c696e6b", "66 246279746573" // the keys "$link" and "$bytes"
	tests := []struct {
		rule   string
		hex    string
		err    error
		offset int
		path   string
		typed  bool
	}{
		{"rule 10: $link key", "a1" + link + "6161", ErrLink, 1, "/$link", true},
		{"rule 10: $link key holding a link", "a1" + link + "d82a5825 00" + cborTestCIDHex, ErrLink, 1, "/$link", true},
		{"rule 10: $bytes key", "a1" + byts + "4101", ErrBytes, 1, "/$bytes", true},
		{"rule 10: $link key after another key", "a1 6161 a2 6178 01" + link + "01", ErrLink, 7, "/a/$link", true},
		{"rule 10: $bytes key in an array", "81 a1" + byts + "40", ErrBytes, 2, "/0/$bytes", true},
		{"rule 10: $link and $bytes keys ($link sorts first)", "a2" + link + "01" + byts + "01", ErrLink, 1, "/$link", true},
		{"rule 10: $bytes key before a malformed value", "a1" + byts + "ff", ErrBytes, 1, "/$bytes", true},
		{"rule 11: $type is an integer", "a1 652474797065 01", ErrType, 7, "/$type", true},
		{"rule 11: $type is null", "a1 652474797065 f6", ErrType, 7, "/$type", true},
		{"rule 11: $type is empty", "a1 652474797065 60", ErrType, 7, "/$type", true},
		{"rule 11: nested $type is not a string", "a1 6161 a1 652474797065 f5", ErrType, 10, "/a/$type", true},
		{"rule 13: blob without size", "a3 " + ref + typeBlob + mime, ErrBlob, 0, "", false},
		{"rule 13: blob with a string size", "a4 " + ref + "6473697a65 6131" + typeBlob + mime, ErrBlob, 51, "/size", false},
		{"rule 13: blob with a negative size", "a4 " + ref + "6473697a65 20" + typeBlob + mime, ErrBlob, 51, "/size", false},
		{"rule 13: blob with an empty mimeType", "a4 " + ref + "6473697a65 01" + typeBlob + "686d696d6554797065 60", ErrBlob, 72, "/mimeType", false},
		{"rule 13: blob with a string ref", "a4 63726566 6161 6473697a65 01" + typeBlob + mime, ErrBlob, 5, "/ref", false},
		{"rule 13: blob with an extra key", "a5 6161 01 " + ref + "6473697a65 01" + typeBlob + mime, ErrBlob, 1, "/a", false},
		{"rule 13: nested bad blob", "a1 6161 a3 " + ref + typeBlob + mime, ErrBlob, 3, "/a", false},
	}
	for _, tt := range tests {
		in := cborHex(t, tt.hex)
		scanErr := ScanCBOR(in)
		if tt.rule == "rule 10: $bytes key before a malformed value" {
			if !errors.Is(scanErr, ErrSyntax) {
				t.Errorf("%s: ScanCBOR: %v, want ErrSyntax", tt.rule, scanErr)
			}
		} else if scanErr != nil {
			t.Errorf("%s: ScanCBOR: %v (the encoding is canonical)", tt.rule, scanErr)
		}
		check := func(fn string, err error) {
			t.Helper()
			var e *Error
			if !errors.Is(err, tt.err) || !errors.As(err, &e) || e.Offset != tt.offset || e.Path != tt.path {
				t.Errorf("%s: %s: %v, want %v at offset %d path %q", tt.rule, fn, err, tt.err, tt.offset, tt.path)
			}
		}
		_, err := UnmarshalCBOR(in)
		check("UnmarshalCBOR", err)
		_, _, err = UnmarshalCBORPrefix(in)
		check("UnmarshalCBORPrefix", err)
		if tt.typed {
			var v any
			check("UnmarshalCBORStruct", UnmarshalCBORStruct(in, &v))
		}
	}
}

// TestUnmarshalCBORReservedKeysKept: other "$"-prefixed keys, including near misses of "$link"
// and "$bytes", are reserved but kept and passed through (DECISIONS rule 11).
func TestUnmarshalCBORReservedKeysKept(t *testing.T) {
	tests := []struct {
		rule string
		hex  string
		want any
	}{
		{"rule 11: $lin is not $link", "a1 64246c696e 01", map[string]any{"$lin": int64(1)}},
		{"rule 11: $links is not $link", "a1 66246c696e6b73 01", map[string]any{"$links": int64(1)}},
		{"rule 11: $Link is not $link (case matters)", "a1 65244c696e6b 01", map[string]any{"$Link": int64(1)}},
		{"rule 11: $byte is not $bytes", "a1 652462797465 01", map[string]any{"$byte": int64(1)}},
		{"rule 11: link without $ is a plain key", "a1 646c696e6b 01", map[string]any{"link": int64(1)}},
		{"rule 11: $link as a value, not a key", "a1 6161 65246c696e6b", map[string]any{"a": "$link"}},
		{"rule 11: empty key before a value starting with '$'", "a1 60 24", map[string]any{"": int64(-5)}},
	}
	for _, tt := range tests {
		in := cborHex(t, tt.hex)
		v, err := UnmarshalCBOR(in)
		if err != nil || !reflect.DeepEqual(v, tt.want) {
			t.Errorf("%s: UnmarshalCBOR = %#v, %v; want %#v", tt.rule, v, err, tt.want)
			continue
		}
		var sv any
		if err := UnmarshalCBORStruct(in, &sv); err != nil {
			t.Errorf("%s: UnmarshalCBORStruct: %v", tt.rule, err)
		}
		if out, err := MarshalCBOR(v); err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: MarshalCBOR = %x, %v; want %x", tt.rule, out, err, in)
		}
		if err := Validate(v); err != nil {
			t.Errorf("%s: Validate: %v", tt.rule, err)
		}
	}
}

// TestCBORConcurrent runs the codecs from many goroutines at once (run with -race): MarshalCBOR
// shares pooled buffers, the struct path shares fxamacker modes, and results must not leak
// between calls.
func TestCBORConcurrent(t *testing.T) {
	recs := cborTestRecords(t)
	values := make([]any, len(recs))
	for i, r := range recs {
		v, err := UnmarshalCBOR(r.cbor)
		if err != nil {
			t.Fatal(err)
		}
		values[i] = v
	}
	const workers = 16
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func() {
			for i := 0; i < 20; i++ {
				r := recs[(w+i)%len(recs)]
				if err := ScanCBOR(r.cbor); err != nil {
					errs <- err
					return
				}
				v, err := UnmarshalCBOR(r.cbor)
				if err != nil {
					errs <- err
					return
				}
				out, err := MarshalCBOR(v)
				if err != nil || !bytes.Equal(out, r.cbor) {
					errs <- fmt.Errorf("%s: round trip differs (%v)", r.name, err)
					return
				}
				var p cborTestPost
				if r.name == "post" {
					if err := UnmarshalCBORStruct(r.cbor, &p); err != nil {
						errs <- err
						return
					}
					if out, err := MarshalCBORStruct(&p); err != nil || !bytes.Equal(out, r.cbor) {
						errs <- fmt.Errorf("post struct: round trip differs (%v)", err)
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestDecodersReturnNoNilContainers: no decoder returns a nil []any or map[string]any, which the
// encoders write as null: an empty array or object decodes to an empty, non-nil one, so that a
// decoded tree re-encodes to the bytes it was read from.
func TestDecodersReturnNoNilContainers(t *testing.T) {
	inputs := [][]byte{[]byte(`[]`), []byte(`{}`),
		[]byte(`{"a":[],"b":{},"c":[[],{},[{}]],"$type":"x","d":{"$type":"y","e":[],"f":{}}}`)}
	for _, r := range cborTestRecords(t) {
		inputs = append(inputs, r.json)
	}
	var findNil func(v any, path string) string
	findNil = func(v any, path string) string {
		switch x := v.(type) {
		case []any:
			if x == nil {
				return path + " (a nil []any)"
			}
			for i, e := range x {
				if p := findNil(e, fmt.Sprintf("%s/%d", path, i)); p != "" {
					return p
				}
			}
		case map[string]any:
			if x == nil {
				return path + " (a nil map[string]any)"
			}
			for k, e := range x {
				if p := findNil(e, path+"/"+k); p != "" {
					return p
				}
			}
		}
		return ""
	}
	for _, js := range inputs {
		cb, err := JSONToCBOR(js)
		if err != nil {
			t.Fatalf("%.40s: %v", js, err)
		}
		decoded := map[string]func() (any, error){
			"UnmarshalJSON": func() (any, error) { return UnmarshalJSON(js) },
			"UnmarshalCBOR": func() (any, error) { return UnmarshalCBOR(cb) },
			"UnmarshalCBORPrefix": func() (any, error) {
				v, _, err := UnmarshalCBORPrefix(cb)
				return v, err
			},
			"JSONDecoder": func() (any, error) { // one value per line
				line, err := CBORToJSON(cb)
				if err != nil {
					return nil, err
				}
				return NewJSONDecoder(bytes.NewReader(append(line, '\n'))).Decode()
			},
			"CBORDecoder": func() (any, error) { return NewCBORDecoder(bytes.NewReader(cb)).Decode() },
			"UnmarshalJSONStruct into any": func() (any, error) {
				var v any
				return v, UnmarshalJSONStruct(js, &v)
			},
			"UnmarshalCBORStruct into any": func() (any, error) {
				var v any
				return v, UnmarshalCBORStruct(cb, &v)
			},
		}
		for name, decode := range decoded {
			v, err := decode()
			if err != nil {
				t.Fatalf("%s(%.40s): %v", name, js, err)
			}
			if p := findNil(v, ""); p != "" {
				t.Errorf("%s(%.40s): null at %s", name, js, p)
			}
			if out, err := MarshalCBOR(v); err != nil || !bytes.Equal(out, cb) {
				t.Errorf("%s(%.40s) re-encodes to %x, %v; read from %x", name, js, out, err, cb)
			}
		}
	}
}
