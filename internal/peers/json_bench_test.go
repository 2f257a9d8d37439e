package peers

import (
	"encoding/json"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"

	"github.com/atcore/atcore/datamodel"
)

// The JSON benchmarks compare atcore with indigo's atdata (encoding/json, then a walk that
// checks and converts the atproto types) and, as context that checks nothing atproto-specific,
// the general-purpose JSON libraries of jsonPeers: decode into any, and encode the tree that
// encoding/json decoded. They run every input of benchRecords (testdata/records, then the
// generated inputs of issue 16; an operation handles every record of the stream, one per line).

func BenchmarkJSONDecode(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ps, n := rec.parts, len(rec.parts)
			benchParts(b, "atcore", rec.jsize, n, func(i int) (any, error) { return datamodel.UnmarshalJSON(ps[i].JSON) })
			benchParts(b, "indigo", rec.jsize, n, func(i int) (map[string]any, error) { return atdata.UnmarshalJSON(ps[i].JSON) })
			for _, p := range jsonPeers {
				// A fresh value each time: jsonv2 merges into a value already there.
				benchParts(b, p.name, rec.jsize, n, func(i int) (any, error) {
					var v any
					err := p.unmarshal(ps[i].JSON, &v)
					return v, err
				})
			}
		})
	}
}

func BenchmarkJSONEncode(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			n := len(rec.parts)
			ours := decodeParts(b, rec.parts, true, atcoreJSON)
			theirs := decodeParts(b, rec.parts, true, atdata.UnmarshalJSON)
			plain := decodeParts(b, rec.parts, true, func(d []byte) (any, error) {
				var v any
				err := json.Unmarshal(d, &v)
				return v, err
			})
			benchParts(b, "atcore", rec.jsize, n, func(i int) ([]byte, error) { return datamodel.MarshalJSON(ours[i]) })
			// atdata documents encoding/json's Marshal as the inverse of its UnmarshalJSON.
			benchParts(b, "indigo", rec.jsize, n, func(i int) ([]byte, error) { return json.Marshal(theirs[i]) })
			for _, p := range jsonPeers {
				benchParts(b, p.name, rec.jsize, n, func(i int) ([]byte, error) { return p.marshal(plain[i]) })
			}
			benchFloors(b, rec, rec.jsize, ours, func(v any) ([]byte, error) { return datamodel.MarshalJSON(v) })
		})
	}
}

func BenchmarkJSONToCBOR(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ps, n := rec.parts, len(rec.parts)
			benchParts(b, "atcore", rec.jsize, n, func(i int) ([]byte, error) { return datamodel.JSONToCBOR(ps[i].JSON) })
			benchParts(b, "indigo", rec.jsize, n, func(i int) ([]byte, error) {
				m, err := atdata.UnmarshalJSON(ps[i].JSON)
				if err != nil {
					return nil, err
				}
				return atdata.MarshalCBOR(m)
			})
		})
	}
}
