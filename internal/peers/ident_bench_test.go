package peers

import (
	"testing"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/nsid"
)

var (
	sinkNSID     nsid.NSID
	sinkDID      did.DID
	sinkHandle   handle.Handle
	sinkIdent    atident.ID
	sinkURI      aturi.URI
	sinkINSID    syntax.NSID
	sinkIDID     syntax.DID
	sinkIHandle  syntax.Handle
	sinkIIdent   syntax.AtIdentifier
	sinkIURI     syntax.ATURI
	identNSIDs   = []string{"app.bsky.feed.post", "com.atproto.repo.getRecord"}
	identDIDs    = []string{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:web:user.example.com"}
	identHandles = []string{"alice.bsky.social", "xn--ls8h.test"}
	identURIs    = []string{
		"at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3k5nobkf2w72g",
		"at://alice.bsky.social/app.bsky.actor.profile/self",
	}
)

// BenchmarkNSIDParse parses two valid NSIDs (a collection, an XRPC method).
func BenchmarkNSIDParse(b *testing.B) {
	for _, s := range identNSIDs {
		b.Run("in="+s, func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkNSID, sinkErr = nsid.Parse(s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkINSID, sinkErr = syntax.ParseNSID(s)
				}
			})
		})
	}
}

// BenchmarkDIDParse parses a did:plc (for which indigo has a fast path without its regular
// expression) and a did:web.
func BenchmarkDIDParse(b *testing.B) {
	for _, s := range identDIDs {
		b.Run("in="+s[:7], func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkDID, sinkErr = did.Parse(s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIDID, sinkErr = syntax.ParseDID(s)
				}
			})
		})
	}
}

// BenchmarkHandleParse parses two valid handles.
func BenchmarkHandleParse(b *testing.B) {
	for _, s := range identHandles {
		b.Run("in="+s, func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkHandle, sinkErr = handle.Parse(s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIHandle, sinkErr = syntax.ParseHandle(s)
				}
			})
		})
	}
}

// BenchmarkAtIdentifierParse parses an XRPC repo parameter, a DID and a handle.
func BenchmarkAtIdentifierParse(b *testing.B) {
	for _, s := range []string{identDIDs[0], identHandles[0]} {
		b.Run("in="+s[:7], func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIdent, sinkErr = atident.Parse(s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIIdent, sinkErr = syntax.ParseAtIdentifier(s)
				}
			})
		})
	}
}

// BenchmarkATURIParse parses a strongRef's uri (DID authority) and a handle-based URI.
func BenchmarkATURIParse(b *testing.B) {
	for _, s := range identURIs {
		b.Run("in="+s[5:12], func(b *testing.B) {
			b.Run("impl=atcore", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkURI, sinkErr = aturi.Parse(s)
				}
			})
			b.Run("impl=indigo", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkIURI, sinkErr = syntax.ParseATURI(s)
				}
			})
		})
	}
}
