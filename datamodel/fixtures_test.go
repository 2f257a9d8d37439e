package datamodel

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cid "github.com/ipfs/go-cid"
)

// Test helpers shared by the CBOR tests: loading the records in
// ../testdata/records, and a small JSON-to-value converter used only to produce the expected
// values (it is deliberately independent of the package's own JSON decoder).

// recordNames are the realistic records of ../testdata/records, in benchmark order.
var recordNames = []string{"post", "like", "follow", "profile", "list", "deep"}

type cborRecord struct {
	name string
	json []byte
	cbor []byte
}

func cborTestRecords(t testing.TB) []cborRecord {
	t.Helper()
	var recs []cborRecord
	for _, name := range recordNames {
		j, c := readRecord(t, name)
		recs = append(recs, cborRecord{name, j, c})
	}
	return recs
}

// readRecord reads the record name of ../testdata/records, as JSON and as DAG-CBOR: the one
// loader of those files.
func readRecord(t testing.TB, name string) (jsonData, cborData []byte) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "records")
	jsonData, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	cborData, err = os.ReadFile(filepath.Join(dir, name+".cbor"))
	if err != nil {
		t.Fatal(err)
	}
	return jsonData, cborData
}

// cborTestFromJSON converts atproto JSON to the package's Go values: numbers become int64,
// {"$link"} a Link, {"$bytes"} Bytes, blob objects (new and legacy) a Blob.
func cborTestFromJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return cborTestConvert(v)
}

func cborTestConvert(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Int64()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := cborTestConvert(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		if s, ok := x["$link"].(string); ok && len(x) == 1 {
			c, err := cid.Decode(s)
			return Link(c), err
		}
		if s, ok := x["$bytes"].(string); ok && len(x) == 1 {
			b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
			return Bytes(b), err
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := cborTestConvert(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		if out["$type"] == "blob" && len(out) == 4 {
			ref, ok1 := out["ref"].(Link)
			mt, ok2 := out["mimeType"].(string)
			size, ok3 := out["size"].(int64)
			if ok1 && ok2 && ok3 {
				return Blob{Ref: ref, MimeType: mt, Size: size}, nil
			}
		}
		if s, ok := out["cid"].(string); ok && len(out) == 2 {
			if mt, ok := out["mimeType"].(string); ok {
				c, err := cid.Decode(s)
				if err == nil && c.String() == s {
					return Blob{Ref: Link(c), MimeType: mt, Legacy: true}, nil
				}
			}
		}
		return out, nil
	default:
		return v, nil
	}
}

// cborHex decodes hex written with optional spaces, for readable test tables.
func cborHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// cborMustHex is cborHex for package-level tables.
func cborMustHex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(fmt.Sprintf("bad hex %q: %v", s, err))
	}
	return b
}

// cborTestLink is a real dag-cbor CIDv1 (from the interop fixtures).
const cborTestLinkString = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"

// cborTestBlobLinkString is a real raw CIDv1 (from the interop fixtures).
const cborTestBlobLinkString = "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"

func cborTestLink(t testing.TB, s string) Link {
	t.Helper()
	c, err := cid.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return Link(c)
}
