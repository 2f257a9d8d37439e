package peers

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/atcore/atcore/datamodel"
	jsonv2 "github.com/go-json-experiment/json"
	gojson "github.com/goccy/go-json"
)

// A jsonPeer is a general-purpose JSON library, measured as context on the JSON rows (issue
// 16): it decodes into any and encodes such a tree, each with its package-level defaults. None
// checks anything of atproto ($link, $bytes, blobs, integer range), so they bound what plain
// JSON costs rather than compete. Their defaults differ: encoding/json and goccy sort map keys
// and escape <, > and & when encoding; jsonv2 and sonic do neither.
type jsonPeer struct {
	name      string
	unmarshal func([]byte, *any) error
	marshal   func(any) ([]byte, error)
}

// jsonPeers are the peers that build everywhere; json_peers_sonic_test.go adds sonic on amd64.
var jsonPeers = []jsonPeer{
	{"stdlib", func(d []byte, v *any) error { return json.Unmarshal(d, v) }, json.Marshal},
	{"goccy", func(d []byte, v *any) error { return gojson.Unmarshal(d, v) }, gojson.Marshal},
	{"jsonv2", func(d []byte, v *any) error { return jsonv2.Unmarshal(d, v) }, func(v any) ([]byte, error) { return jsonv2.Marshal(v) }},
}

// TestJSONPeersAgree checks that every JSON peer decodes each benchmark input to the tree
// encoding/json decodes, and that what it encodes decodes back to that tree: the peers do the
// same work on the same bytes, so their rows compare.
func TestJSONPeersAgree(t *testing.T) {
	for _, rec := range benchRecords(t) {
		for i, part := range rec.parts {
			if i > 100 && i%100 != 0 {
				continue // the stream: every hundredth record is enough here
			}
			var want any
			if err := json.Unmarshal(part.JSON, &want); err != nil {
				t.Fatalf("%s[%d]: %v", rec.name, i, err)
			}
			for _, p := range jsonPeers {
				var got any
				if err := p.unmarshal(part.JSON, &got); err != nil {
					t.Errorf("%s[%d]: %s refuses it: %v", rec.name, i, p.name, err)
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s[%d]: %s decodes another tree", rec.name, i, p.name)
				}
				out, err := p.marshal(want)
				if err != nil {
					t.Errorf("%s[%d]: %s cannot encode it: %v", rec.name, i, p.name, err)
					continue
				}
				var back any
				if err := json.NewDecoder(bytes.NewReader(out)).Decode(&back); err != nil || !reflect.DeepEqual(back, want) {
					t.Errorf("%s[%d]: %s encodes another tree (%v)", rec.name, i, p.name, err)
				}
			}
		}
	}
}

// BenchmarkJSONEncodeRatio times atcore's MarshalJSON and goccy's Marshal of every input of
// BenchmarkJSONEncode alternately, batch by batch (see interleaved), for the target of issue 16
// (MarshalJSON at least as fast as goccy/go-json) on a machine whose load changes. Each encodes
// the tree its own kind of decoder gives, as in BenchmarkJSONEncode. Run it with a fixed
// iteration count, e.g. -benchtime 20x.
func BenchmarkJSONEncodeRatio(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			ours := decodeParts(b, rec.parts, true, atcoreJSON)
			plain := decodeParts(b, rec.parts, true, func(d []byte) (any, error) {
				var v any
				err := json.Unmarshal(d, &v)
				return v, err
			})
			encodeAll := func(vs []any, enc func(any) ([]byte, error)) func() error {
				return func() error {
					for _, v := range vs {
						out, err := enc(v)
						if err != nil {
							return err
						}
						sinkBytes = out
					}
					return nil
				}
			}
			interleaved(b, rec.jsize, [2]string{"atcore", "goccy"}, [2]func() error{
				encodeAll(ours, func(v any) ([]byte, error) { return datamodel.MarshalJSON(v) }),
				encodeAll(plain, gojson.Marshal),
			})
		})
	}
}
