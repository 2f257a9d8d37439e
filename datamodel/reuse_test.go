package datamodel

import (
	"runtime"
	"testing"
	"time"
)

// TestSharedPoolAge: an object put back survives one aging (the next get finds it, in old) and is
// let go after two without a get, as sync.Pool's objects are.
func TestSharedPoolAge(t *testing.T) {
	made := 0
	p := &sharedPool[int]{fresh: func() *int { made++; return new(int) }}
	x := p.get()
	p.put(x, true)
	p.age()
	if got := p.get(); got != x {
		t.Fatal("an object aged once was not reused")
	}
	p.put(x, true)
	p.age()
	p.age()
	if got := p.get(); got == x || made != 2 {
		t.Fatalf("an object aged twice was reused (made %d)", made)
	}
	// A second object put while the slot is full goes to the sync.Pool.
	y, z := p.get(), new(int)
	p.put(y, true)
	p.put(z, true)
	if p.slot.Load() != y {
		t.Fatal("the slot did not keep the first object put")
	}
	// A small object never takes the slot.
	small := &sharedPool[int]{fresh: func() *int { return new(int) }}
	small.put(new(int), false)
	if small.slot.Load() != nil {
		t.Fatal("a small object took the slot")
	}
}

// TestSharedPoolAgesAtGC: the encoders' pools age at garbage collections, so that a large buffer
// left unused is freed.
func TestSharedPoolAgesAtGC(t *testing.T) {
	b := make([]byte, 0, 1<<20)
	encodeBufPool.slot.Store(nil)
	encodeBufPool.put(&b, true)
	if encodeBufPool.slot.Load() != &b {
		t.Fatal("a large buffer did not take the empty slot")
	}
	deadline := time.Now().Add(10 * time.Second)
	for encodeBufPool.slot.Load() == &b || encodeBufPool.old.Load() == &b {
		if time.Now().After(deadline) {
			t.Fatal("the pooled buffer was still held after 10 s of garbage collections")
		}
		runtime.GC()
		time.Sleep(time.Millisecond) // cleanups run on their own goroutine
	}
}

// TestFreshEncodeBufSize: a buffer the encode pool has to make is as large as the last large
// output, once; small outputs leave no size behind.
func TestFreshEncodeBufSize(t *testing.T) {
	lastLargeOutput.Store(0)
	putEncodeBuf(getEncodeBuf(), make([]byte, 100))
	if got := cap(*freshEncodeBuf()); got != 1024 {
		t.Errorf("after a small output, a fresh buffer has capacity %d, want 1024", got)
	}
	const large = 300 << 10
	putEncodeBuf(getEncodeBuf(), make([]byte, large))
	if got := cap(*freshEncodeBuf()); got < large+large/8 {
		t.Errorf("after a %d-byte output, a fresh buffer has capacity %d, want %d at least", large, got, large+large/8)
	}
	if got := cap(*freshEncodeBuf()); got != 1024 {
		t.Errorf("the second fresh buffer after a large output has capacity %d, want 1024", got)
	}
}

// TestJSONDecoderSpareKeepsDepth: the spare a put leaves knows whether the decoder's last decode
// went deep, so that the next decode to take it makes its stack room at the start (earlyRoom).
func TestJSONDecoderSpareKeepsDepth(t *testing.T) {
	for _, deep := range []bool{false, true} {
		jsonDecoderSpare.Store(nil)
		putJSONDecoder(&jsonDecoder{wentDeep: deep})
		if s := jsonDecoderSpare.Load(); s == nil || s.wentDeep != deep {
			t.Errorf("after a put of a decoder with wentDeep %v, the spare is %p (wentDeep %v)", deep, s, s != nil && s.wentDeep)
		}
	}
}

// TestJSONDecoderSpareComesBack: a decoder taken from the spare goes back to being the spare,
// uncopied, unless a decode took the spare before it in the same epoch (a burst, which the pool
// serves): then a copy of its caches is the spare, and the decoder goes to the pool.
func TestJSONDecoderSpareComesBack(t *testing.T) {
	defer jsonDecoderSpare.Store(nil)
	spare := &jsonDecoder{}
	spare.keys[0] = "cached"
	jsonDecoderSpare.Store(spare)
	jsonSpareTakenAt.Store(0)
	for epoch := uint64(1); epoch <= 3; epoch++ { // one take an epoch: sporadic decodes
		d := takeJSONDecoderSpare(epoch)
		if d != spare {
			t.Fatalf("epoch %d: took %p, want the spare %p", epoch, d, spare)
		}
		putJSONDecoder(d)
		if s := jsonDecoderSpare.Load(); s != spare {
			t.Fatalf("epoch %d: the spare after a put is %p, want the decoder taken from it", epoch, s)
		}
	}
	d := takeJSONDecoderSpare(4)
	d.items = make([]any, 0, 4*jsonSpareScratch) // scratch a large value grew
	putJSONDecoder(d)
	if s := jsonDecoderSpare.Load(); s != spare || cap(s.items) != 0 {
		t.Errorf("the spare back from a decode that grew its scratch keeps %d items of it", cap(s.items))
	}
	d = takeJSONDecoderSpare(4) // a second take in epoch 4: a burst
	putJSONDecoder(d)
	s := jsonDecoderSpare.Load()
	if s == nil || s == spare || s.keys[0] != "cached" {
		t.Errorf("after a second take in one epoch the spare is %p (taken: %p), want a copy of its caches", s, spare)
	}
	if d.fromSpare {
		t.Errorf("the decoder put back still reads as taken from the spare")
	}
}
