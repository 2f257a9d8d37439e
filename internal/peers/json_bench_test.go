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
			benchImpl(b, "atcore", len(data), func() (any, error) { return datamodel.UnmarshalJSON(data) })
			benchImpl(b, "indigo", len(data), func() (any, error) { return atdata.UnmarshalJSON(data) })
			benchImpl(b, "stdlib", len(data), func() (any, error) { return nil, json.Unmarshal(data, &sinkAny) })
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
			benchImpl(b, "atcore", len(data), func() ([]byte, error) { return datamodel.MarshalJSON(ours) })
			// atdata documents encoding/json's Marshal as the inverse of its UnmarshalJSON.
			benchImpl(b, "indigo", len(data), func() ([]byte, error) { return json.Marshal(theirs) })
			benchImpl(b, "stdlib", len(data), func() ([]byte, error) { return json.Marshal(plain) })
		})
	}
}

func BenchmarkJSONToCBOR(b *testing.B) {
	for _, rec := range loadRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			data := rec.json
			benchImpl(b, "atcore", len(data), func() ([]byte, error) { return datamodel.JSONToCBOR(data) })
			benchImpl(b, "indigo", len(data), func() ([]byte, error) {
				m, err := atdata.UnmarshalJSON(data)
				if err != nil {
					return nil, err
				}
				return atdata.MarshalCBOR(m)
			})
		})
	}
}
