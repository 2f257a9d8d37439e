package datamodel

import (
	"encoding/json"
	"testing"
)

// json-tagged twins of cborTestPost and cborTestProfile, so that encoding/json reads the same
// keys into the same field types in the benchmarks.
type (
	typedBenchPost struct {
		Type   string          `json:"$type"`
		Text   string          `json:"text"`
		Facets []cborTestFacet `json:"facets,omitempty"`
		Reply  *struct {
			Root   typedBenchStrongRef `json:"root"`
			Parent typedBenchStrongRef `json:"parent"`
		} `json:"reply,omitempty"`
		Embed *struct {
			Type   string `json:"$type"`
			Images []struct {
				Alt         string `json:"alt"`
				Image       Blob   `json:"image"`
				AspectRatio *struct {
					Width  int64 `json:"width"`
					Height int64 `json:"height"`
				} `json:"aspectRatio,omitempty"`
			} `json:"images"`
		} `json:"embed,omitempty"`
		Langs     []string `json:"langs,omitempty"`
		CreatedAt string   `json:"createdAt"`
	}
	typedBenchStrongRef struct {
		URI string `json:"uri"`
		CID string `json:"cid"`
	}
	typedBenchProfile struct {
		Type        string               `json:"$type"`
		DisplayName string               `json:"displayName,omitempty"`
		Description string               `json:"description,omitempty"`
		Avatar      *Blob                `json:"avatar,omitempty"`
		Banner      *Blob                `json:"banner,omitempty"`
		PinnedPost  *typedBenchStrongRef `json:"pinnedPost,omitempty"`
		CreatedAt   string               `json:"createdAt,omitempty"`
	}
)

// typedBenchLexicon returns a new value of the json-tagged Lexicon type of the record name.
func typedBenchLexicon(name string) any {
	switch name {
	case "post":
		return new(typedBenchPost)
	case "profile":
		return new(typedBenchProfile)
	}
	return typedTestLexicon(name)
}

// BenchmarkUnmarshalJSONStruct reads the records of testdata/records into their Lexicon structs:
// atcore is UnmarshalJSONStruct, encoding_json is encoding/json into the same struct (Blob fields
// through Blob.UnmarshalJSON; no duplicate-key, integer or $type checks), generic is UnmarshalJSON
// into map[string]any, side by side.
func BenchmarkUnmarshalJSONStruct(b *testing.B) {
	for _, name := range recordNames {
		js, _ := readRecord(b, name)
		b.Run(name+"/atcore", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if err := UnmarshalJSONStruct(js, typedBenchLexicon(name)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding_json", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(js, typedBenchLexicon(name)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/generic", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := UnmarshalJSON(js); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMarshalJSONStruct writes the same structs: atcore is MarshalJSONStruct, encoding_json
// is json.Marshal of the same struct, generic is MarshalJSON of the record as map[string]any.
func BenchmarkMarshalJSONStruct(b *testing.B) {
	for _, name := range recordNames {
		js, _ := readRecord(b, name)
		v := typedBenchLexicon(name)
		if err := UnmarshalJSONStruct(js, v); err != nil {
			b.Fatal(err)
		}
		generic, err := UnmarshalJSON(js)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/atcore", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := MarshalJSONStruct(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/generic", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := MarshalJSON(generic); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
