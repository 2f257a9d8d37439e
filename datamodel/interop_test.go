package datamodel

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// interopCase is one case of the interop data-model files (data-model-fixtures.json,
// data-model-valid.json, data-model-invalid.json): the JSON is kept as raw bytes, so that the
// decoder under test reads it, not encoding/json.
type interopCase struct {
	Note       string          `json:"note"`
	JSON       json.RawMessage `json:"json"`
	CBORBase64 string          `json:"cbor_base64"`
	CID        string          `json:"cid"`
}

// interopCases reads the interop data-model file name, through the module's one loader of the
// interop vectors (internal/testvec).
func interopCases(t testing.TB, name string) []interopCase {
	t.Helper()
	var cases []interopCase
	if err := json.Unmarshal(testvec.File(t, "data-model/"+name), &cases); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return cases
}

// cbor decodes the case's cbor_base64 (standard base64, padding optional).
func (c interopCase) cbor(t testing.TB) []byte {
	t.Helper()
	b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(c.CBORBase64, "="))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
