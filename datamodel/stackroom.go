package datamodel

import "github.com/atcore/atcore/internal/stackroom"

// Room on the stack for deep values. The decoders and encoders recurse once or twice per level
// of nesting. On a new goroutine, or after a garbage collection has halved a goroutine's stack,
// a deep value makes the runtime grow the stack several times over, each time allocating a
// larger one and copying every frame open on it. When a container opens at stackRoomDepth
// (jsonRoomDepth for the JSON decoders), the walker makes room at once for the levels that may
// follow it (internal/stackroom). A JSON decoder whose last decode went that deep makes the room
// at the start of the next instead, when fewer frames are open for the growth to copy
// (earlyRoom).
//
// BenchmarkDeepNewGoroutine (testdata/records/deep.json, 31 levels, a new goroutine per call, as
// a server's handler has; medians of 3 runs alternating with a build without the room):
// UnmarshalJSON 30.6 → 25.3 µs, UnmarshalCBOR 39.1 → 23.2 µs, MarshalJSON 38.5 → 23.5 µs,
// MarshalCBOR 34.4 → 22.9 µs; later, three runs alternating builds, ScanCBOR 11.5/15.0/16.1 →
// 9.8/11.2/14.3 µs and Validate 26.6/32.0/29.9 → 20.8/21.0/22.6 µs; Links (walkRoom), seven
// runs, medians 15.9 → 14.5 µs, ahead in 5 of 7. A goroutine that decodes deep values over and
// over still grows its stack once after each collection, with or without the room.

// stackRoomDepth is the level at which a walker makes room: deeper than records usually go (a
// post with facets reaches 5), so that they never take room they do not need.
const stackRoomDepth = 8

// jsonRoomDepth is stackRoomDepth for the JSON decoders (UnmarshalJSON, UnmarshalJSONStruct and
// their streams). Room where none is needed is not free: it grows the stack to the room's size
// (32 KiB for the default limits), which the runtime allocates, copying the open frames to it,
// and after a collection has shrunk the stack it does so again at the next decode. A level of
// the JSON decoder takes about 300 bytes, so that a value a few levels past 8 fits in the stack
// a goroutine has: internal/peers' big50k (9 levels, 2.8 KB of stack below UnmarshalJSON's
// caller) made the room at every decode of BenchmarkJSONDecodeRatio, which runs each after a
// collection: sonic took 0.948x atcore's time with the room made at level 8, 1.032x with it at
// 16 (medians of 5 runs alternating builds), and on posts nested 4 and 6 levels deeper, inputs
// not tuned on (BenchmarkJSONDecodeNestedRatio), 1.16x -> 1.33x and 1.21x -> 1.35x. Values as
// deep as testdata/records/deep.json (31 levels) still take the room, at the start of a decode
// once one has (earlyRoom). The CBOR decoder and ScanCBOR keep level 8: they have no earlier
// decode to learn from, and at 16 a deep value on a new goroutine took them a third longer
// (BenchmarkDeepNewGoroutine, UnmarshalCBOR 30.3 -> 41.7 us, ScanCBOR 13.2 -> 19.1 us, medians
// of 5).
const jsonRoomDepth = 16

// Stack per level of nesting, rounded up from the frames of each walker's recursion (go build
// -gcflags=-S; TestStackRoomCoversWalk checks that they suffice), and what the deepest level
// calls below it (strings, map inserts, allocation).
//
// decodeLevelStack: JSON object 296 bytes (or array 240 and value 104); CBOR decodeMap 384 and
// value 96; ScanCBOR's value 296; the Links and Blobs walk (walkDepth) 368.
// encodeLevelStack: JSON object 1 144 bytes and value 296; CBOR encodeMap 1 080 and value 256.
// validateLevelStack: Validate's object 360 bytes (16 keys sorted on the stack) and value 208.
const (
	decodeLevelStack   = 512
	encodeLevelStack   = 2048
	validateLevelStack = 768
	leafStack          = 4 << 10
)

// stackRoom makes room for the levels below one at depth, down to maxDepth but not past
// DefaultMaxDepth: a raised limit must not make every deep walk take its room in advance, and
// levels beyond grow the stack as they would.
//
//go:noinline
func stackRoom(depth, maxDepth, perLevel int) {
	stackroom.Reserve((min(maxDepth, DefaultMaxDepth)-depth)*perLevel + leafStack)
}
