package peers

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

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
