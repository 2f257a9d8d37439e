package peers

import (
	"encoding/json"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"

	"github.com/atcore/atcore/datamodel"
)

// The JSON benchmarks compare atcore with indigo's atdata (encoding/json, then a walk that
// checks and converts the atproto types) and, as a baseline that checks nothing atproto-specific,
// plain encoding/json into any.

func BenchmarkJSONDecode(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.json
			bench := func(name string, f func() error) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						if err := f(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			bench("atcore", func() (err error) { sinkAny, err = datamodel.UnmarshalJSON(data); return })
			bench("indigo", func() (err error) { sinkMap, err = atdata.UnmarshalJSON(data); return })
			bench("stdlib", func() error { return json.Unmarshal(data, &sinkAny) })
		})
	}
}

func BenchmarkJSONEncode(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.json
			ours, err := datamodel.UnmarshalJSON(data)
			if err != nil {
				b.Fatal(err)
			}
			theirs, err := atdata.UnmarshalJSON(data)
			if err != nil {
				b.Fatal(err)
			}
			var plain any
			if err := json.Unmarshal(data, &plain); err != nil {
				b.Fatal(err)
			}
			bench := func(name string, f func() ([]byte, error)) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						out, err := f()
						if err != nil {
							b.Fatal(err)
						}
						sinkBytes = out
					}
				})
			}
			bench("atcore", func() ([]byte, error) { return datamodel.MarshalJSON(ours) })
			// atdata documents encoding/json's Marshal as the inverse of its UnmarshalJSON.
			bench("indigo", func() ([]byte, error) { return json.Marshal(theirs) })
			bench("stdlib", func() ([]byte, error) { return json.Marshal(plain) })
		})
	}
}

func BenchmarkJSONToCBOR(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.json
			bench := func(name string, f func() ([]byte, error)) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						out, err := f()
						if err != nil {
							b.Fatal(err)
						}
						sinkBytes = out
					}
				})
			}
			bench("atcore", func() ([]byte, error) { return datamodel.JSONToCBOR(data) })
			bench("indigo", func() ([]byte, error) {
				m, err := atdata.UnmarshalJSON(data)
				if err != nil {
					return nil, err
				}
				return atdata.MarshalCBOR(m)
			})
		})
	}
}
