package datamodel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// jsonCase is one case of the interop data-model files: the JSON is kept as raw bytes, so that
// the decoder under test reads it, not encoding/json.
type jsonCase struct {
	Note       string          `json:"note"`
	JSON       json.RawMessage `json:"json"`
	CBORBase64 string          `json:"cbor_base64"`
	CID        string          `json:"cid"`
}

func jsonReadCases(t testing.TB, name string) []jsonCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "interop", "data-model", name))
	if err != nil {
		t.Fatal(err)
	}
	var cases []jsonCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return cases
}
