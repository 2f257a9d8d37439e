package datamodel

import (
	"encoding/json"
	"testing"
)

// BenchmarkUnmarshalJSON decodes the realistic records of testdata/records; encoding_json is the
// same-run baseline, encoding/json into map[string]any (which rounds integers through float64 and
// leaves $link, $bytes and blobs as plain maps, so it does less).
func BenchmarkUnmarshalJSON(b *testing.B) {
	for _, name := range recordNames {
		js, _ := readRecord(b, name)
		b.Run(name+"/atcore", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := UnmarshalJSON(js); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding_json", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				var v map[string]any
				if err := json.Unmarshal(js, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMarshalJSON encodes the same records; encoding_json marshals the map[string]any that
// encoding/json decoded (sorted keys too).
func BenchmarkMarshalJSON(b *testing.B) {
	for _, name := range recordNames {
		js, _ := readRecord(b, name)
		v, err := UnmarshalJSON(js)
		if err != nil {
			b.Fatal(err)
		}
		out, err := MarshalJSON(v)
		if err != nil {
			b.Fatal(err)
		}
		var std map[string]any
		if err := json.Unmarshal(js, &std); err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/atcore", func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := MarshalJSON(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding_json", func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(std); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRecordCID hashes the realistic records from their decoded values.
func BenchmarkRecordCID(b *testing.B) {
	for _, name := range recordNames {
		js, cb := readRecord(b, name)
		v, err := UnmarshalJSON(js)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(cb)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RecordCID(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
