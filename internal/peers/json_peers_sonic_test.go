//go:build amd64

package peers

import "github.com/bytedance/sonic"

// sonic compiles JIT code for amd64 (its other targets fall back to encoding/json), so it is a
// peer only there.
func init() {
	jsonPeers = append(jsonPeers, jsonPeer{"sonic", func(d []byte, v *any) error { return sonic.Unmarshal(d, v) }, sonic.Marshal})
}
