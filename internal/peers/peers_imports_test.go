package peers

import (
	_ "github.com/atcore/atcore/datamodel"
	_ "github.com/bluesky-social/indigo/api/bsky"
	_ "github.com/bluesky-social/indigo/atproto/atdata"
	_ "github.com/bluesky-social/indigo/atproto/syntax"
	_ "github.com/fxamacker/cbor/v2"
	_ "github.com/ipfs/go-cid"
	_ "github.com/ipld/go-ipld-prime/codec/dagcbor"
	_ "github.com/ipld/go-ipld-prime/linking/cid"
	_ "github.com/ipld/go-ipld-prime/node/basicnode"
	_ "github.com/multiformats/go-multihash"
)
