package datamodel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// sharedPool is a sync.Pool with a slot in front that every goroutine sees, for the encoders'
// large scratch space (output buffers, sort space). sync.Pool keeps an object put on one P in
// that P's private slot, which a goroutine that has moved to another P cannot take from: encoding
// a 32 768-key map over and over allocated 1.0-1.55 bytes per output byte with GOMAXPROCS=2 and
// 1.002 with GOMAXPROCS=1, the misses re-making up to 2 MB of space
// (BenchmarkEncodeSweep/wide=32768). The slot holds one object, the one an encode running alone
// uses; encodes running at the same time fall back to the sync.Pool. Only large objects go to the
// slot, so that a process encoding small records only pays a plain load for it, not the two
// atomic exchanges a get and a put through the slot cost.
//
// Like sync.Pool's, the slot's object is let go once it has gone unused for two garbage
// collections: each collection moves it to old, where the next get still finds it, and drops what
// old held.
type sharedPool[T any] struct {
	slot, old atomic.Pointer[T]
	pool      sync.Pool
	fresh     func() *T
}

// get returns an object from the slot, else from the pool, else a new one.
func (p *sharedPool[T]) get() *T {
	if p.slot.Load() != nil {
		if x := p.slot.Swap(nil); x != nil {
			return x
		}
	}
	if p.old.Load() != nil {
		if x := p.old.Swap(nil); x != nil {
			return x
		}
	}
	if x, ok := p.pool.Get().(*T); ok {
		return x
	}
	return p.fresh()
}

// put returns x to the slot if it is large (see largeScratch) and the slot empty, else to the
// pool.
func (p *sharedPool[T]) put(x *T, large bool) {
	if !large || !p.slot.CompareAndSwap(nil, x) {
		p.pool.Put(x)
	}
}

// largeScratch is the size, in bytes, from which the encoders' scratch space goes to a shared
// pool's slot: a 64 KiB buffer is what a 50 KB record's encode grows.
const largeScratch = 64 << 10

// age moves the slot's object to old, dropping old's, at each garbage collection.
func (p *sharedPool[T]) age() { p.old.Store(p.slot.Swap(nil)) }

// sharedPools are the pools that age at each garbage collection.
var sharedPools = []interface{ age() }{&encodeBufPool, &entryScratchPool, &radixScratchPool}

// gcSentinel is an object that nothing references, so that its cleanup runs after each garbage
// collection (a pointer field keeps it out of the tiny allocator, which would share its block).
type gcSentinel struct{ _ *byte }

// gcEpoch counts the garbage collections seen by ageAfterNextGC, from 1.
var gcEpoch atomic.Uint64

// ageAfterNextGC ages the shared pools and counts the epoch once the next garbage collection has
// run, and arms itself again.
func ageAfterNextGC() {
	runtime.AddCleanup(new(gcSentinel), func(struct{}) {
		for _, p := range sharedPools {
			p.age()
		}
		gcEpoch.Add(1)
		ageAfterNextGC()
	}, struct{}{})
}

func init() { gcEpoch.Store(1); ageAfterNextGC() }

// jsonDecoderPool recycles JSON decoders for their scratch stacks and caches, so that a decode
// allocates only what it returns. Its New is nil: getJSONDecoder decides what a miss gets.
var jsonDecoderPool sync.Pool

// jsonDecoderSpare is a decoder that no decode uses: one put back earlier, or a copy of the
// caches of one (see putJSONDecoder). It outlives the garbage collections that empty
// jsonDecoderPool (sync.Pool lets its objects go after two), so that a decode after them still
// starts with the keys and $type values records repeat. A decoder made anew has to learn them
// again, allocating each, and its caches (about 18 KB) as well: a decode of
// testdata/records/like.json took 11 µs and 19.4 KB instead of 1.4 µs and 0.9 KB when every
// decode started with a new decoder.
var jsonDecoderSpare atomic.Pointer[jsonDecoder]

// jsonSpareScratch is the largest scratch capacity the spare keeps (jsonMaxPooledScratch is the
// pool's).
const jsonSpareScratch = 256

// jsonSpareTakenAt is the gcEpoch in which a decode last took the spare.
var jsonSpareTakenAt atomic.Uint64

// getJSONDecoder returns a decoder from the pool, else the spare, else a new one.
func getJSONDecoder() *jsonDecoder {
	if d, ok := jsonDecoderPool.Get().(*jsonDecoder); ok {
		return d
	}
	if d := takeJSONDecoderSpare(gcEpoch.Load()); d != nil {
		return d
	}
	return new(jsonDecoder)
}

// takeJSONDecoderSpare takes the spare, if there is one, in the given gcEpoch, and notes in it
// whether a decode took the spare before in that epoch (see putJSONDecoder).
func takeJSONDecoderSpare(epoch uint64) *jsonDecoder {
	if jsonDecoderSpare.Load() == nil {
		return nil
	}
	d := jsonDecoderSpare.Swap(nil)
	if d != nil {
		d.fromSpare = true
		d.spareAgain = jsonSpareTakenAt.Swap(epoch) == epoch
	}
	return d
}

// putJSONDecoder returns d to the pool, leaving a copy of its caches as the spare first if
// there is none: once per process, and after a burst of decodes took the spare. While the pool
// serves every decode, the spare stays put and a put only loads it. The copy keeps whether d's
// last decode went deep (wentDeep), so that a deep decode after the collections makes its stack
// room at the start (earlyRoom), where the room costs the least. Measured when the decoders made
// room at level 8 (now 16, jsonRoomDepth), in turn with sonic on internal/peers' big50k (9
// levels), where every decode of atcore's takes the spare: x-sonic 0.86-0.90 without the copy of
// wentDeep and 0.91-0.99 with it (three runs each).
//
// A decoder taken from the spare goes back to being the spare instead, uncopied, unless a decode
// took the spare before it since the last collection. The first decode after the collections
// that emptied the pool cannot tell whether decodes are sporadic, each after collections of its
// own, or the first of a burst; the second take in one epoch tells a burst, which the pool then
// serves after one copy. A sporadic decode no longer copies 18 KB of caches into a new spare: a
// decode of testdata/records/like.json after two forced collections allocated 1 947 bytes
// instead of 20 010 (means of 50) and took 9.5-11.7 µs instead of 11.4-13.6 µs (medians of 300,
// three runs alternating builds).
func putJSONDecoder(d *jsonDecoder) {
	fromSpare := d.fromSpare
	d.fromSpare = false
	if fromSpare && !d.spareAgain && jsonDecoderSpare.Load() == nil {
		// The spare is kept for good, not let go after collections as the pool's decoders
		// are: it keeps no more scratch space than a record's.
		d.trimScratch(jsonSpareScratch)
		if jsonDecoderSpare.CompareAndSwap(nil, d) {
			return
		}
	}
	if jsonDecoderSpare.Load() == nil {
		jsonDecoderSpare.CompareAndSwap(nil, &jsonDecoder{jsonCaches: d.jsonCaches, wentDeep: d.wentDeep})
	}
	jsonDecoderPool.Put(d)
}
