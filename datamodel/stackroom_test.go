package datamodel

import (
	"bytes"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/atcore/atcore/internal/stackroom"
)

// stackAddr returns the address of x, a variable on the caller's stack: it changes when the
// runtime moves the goroutine's stack to grow it.
func stackAddr(x *byte) uintptr { return uintptr(unsafe.Pointer(x)) }

// stackMoves runs f on a new goroutine, with the collector off (a collection may shrink a
// stack), after making room bytes of room, and reports whether the stack moved while f ran.
func stackMoves(f func(), room int) bool {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	done := make(chan bool)
	go func() {
		var x byte
		stackroom.Reserve(room)
		before := stackAddr(&x)
		f()
		done <- stackAddr(&x) != before
	}()
	return <-done
}

// deepWalkers are the walkers that make room (stackroom.go), each with its stack per level, on
// a value DefaultMaxDepth levels deep.
func deepWalkers(t *testing.T) []struct {
	name     string
	perLevel int
	run      func()
} {
	js := nested(`{"a":`, "{}", "}", DefaultMaxDepth-1)
	ja := nested(`[`, "[]", "]", DefaultMaxDepth-1)
	cb := append(bytes.Repeat([]byte{0xa1, 0x61, 'a'}, DefaultMaxDepth-1), 0xa0)
	ca := append(bytes.Repeat([]byte{0x81}, DefaultMaxDepth-1), 0x80)
	v, err := UnmarshalCBOR(cb)
	if err != nil {
		t.Fatal(err)
	}
	a, err := UnmarshalCBOR(ca)
	if err != nil {
		t.Fatal(err)
	}
	var sink any
	must := func(err error) {
		if err != nil {
			t.Error(err)
		}
	}
	return []struct {
		name     string
		perLevel int
		run      func()
	}{
		{"UnmarshalJSON maps", decodeLevelStack, func() { _, err := UnmarshalJSON(js); must(err) }},
		{"UnmarshalJSON arrays", decodeLevelStack, func() { _, err := UnmarshalJSON(ja); must(err) }},
		{"UnmarshalJSONStruct", decodeLevelStack, func() { must(UnmarshalJSONStruct(js, &sink)) }},
		{"UnmarshalCBOR maps", decodeLevelStack, func() { _, err := UnmarshalCBOR(cb); must(err) }},
		{"UnmarshalCBOR arrays", decodeLevelStack, func() { _, err := UnmarshalCBOR(ca); must(err) }},
		{"MarshalJSON maps", encodeLevelStack, func() { _, err := MarshalJSON(v); must(err) }},
		{"MarshalJSON arrays", encodeLevelStack, func() { _, err := MarshalJSON(a); must(err) }},
		{"MarshalCBOR maps", encodeLevelStack, func() { _, err := MarshalCBOR(v); must(err) }},
		{"MarshalCBOR arrays", encodeLevelStack, func() { _, err := MarshalCBOR(a); must(err) }},
		{"ScanCBOR maps", decodeLevelStack, func() { must(ScanCBOR(cb)) }},
		{"ScanCBOR arrays", decodeLevelStack, func() { must(ScanCBOR(ca)) }},
		{"Validate maps", validateLevelStack, func() { must(Validate(v)) }},
		{"Validate arrays", validateLevelStack, func() { must(Validate(a)) }},
		{"Links maps", decodeLevelStack, func() { sink = Links(v) }},
		{"Links arrays", decodeLevelStack, func() { sink = Links(a) }},
	}
}

// TestStackRoomCoversWalk: the stack per level that each walker assumes when it makes room
// covers what it uses. With room made in advance for DefaultMaxDepth levels at that figure
// (and the calls of the deepest level), a walk that deep never grows the stack; without it, it
// does (the control, which shows that the test can fail).
func TestStackRoomCoversWalk(t *testing.T) {
	for _, w := range deepWalkers(t) {
		w.run() // first calls fill pools and caches
		if stackMoves(w.run, DefaultMaxDepth*w.perLevel+leafStack) {
			t.Errorf("%s: %d levels grew the stack beyond %d bytes per level", w.name, DefaultMaxDepth, w.perLevel)
		}
		if !stackMoves(w.run, 0) {
			t.Errorf("%s: %d levels on a new goroutine's stack did not grow it", w.name, DefaultMaxDepth)
		}
	}
}

// TestStackRoomEarly: a JSON decoder whose last decode opened a container at jsonRoomDepth
// makes the room at the start of the next (earlyRoom), before a shallow value could need it;
// a decoder whose last decode was shallow does not.
func TestStackRoomEarly(t *testing.T) {
	d := new(jsonDecoder)
	decode := func(in string) {
		if _, err := d.decode([]byte(in), DefaultLimits(), false); err != nil {
			t.Fatal(err)
		}
	}
	shallow := func() { decode(`{"a":[1,"b"]}`) }
	decode(string(nested(`{"a":`, "{}", "}", jsonRoomDepth)))
	// 4 KiB of room first: more than the shallow value needs, much less than the early room.
	if !stackMoves(shallow, 4<<10) {
		t.Error("after a deep decode, a shallow one did not make room at its start")
	}
	if stackMoves(shallow, 4<<10) {
		t.Error("after a shallow decode, a shallow one grew the stack")
	}
}

// TestStackRoomMade: each walker makes room once, when a container opens at stackRoomDepth
// (jsonRoomDepth for the JSON decoder), and not for shallower values.
func TestStackRoomMade(t *testing.T) {
	for _, depth := range []int{stackRoomDepth - 1, stackRoomDepth, jsonRoomDepth - 1, jsonRoomDepth, DefaultMaxDepth} {
		want, wantJSON := depth >= stackRoomDepth, depth >= jsonRoomDepth
		js := nested(`{"a":`, "{}", "}", depth-1)
		ja := nested(`[`, "[]", "]", depth-1)
		for _, in := range [][]byte{js, ja} {
			for _, careful := range []bool{false, true} {
				d := &jsonDecoder{data: in, limits: DefaultLimits(), left: 1 << 20, careful: careful}
				if _, err := d.value(); err != nil {
					t.Fatal(err)
				}
				if d.roomMade != wantJSON {
					t.Errorf("JSON decoder (careful %v), %s: room made = %v, want %v", careful, in, d.roomMade, wantJSON)
				}
			}
		}
		cb := append(bytes.Repeat([]byte{0xa1, 0x61, 'a'}, depth-1), 0xa0)
		ca := append(bytes.Repeat([]byte{0x81}, depth-1), 0x80)
		for _, in := range [][]byte{cb, ca} {
			d := cborDecoder{data: in, lim: DefaultLimits(), left: 1 << 20, chunk: len(in)}
			v, _, err := d.value(0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if d.roomMade != want {
				t.Errorf("CBOR decoder, %x: room made = %v, want %v", in, d.roomMade, want)
			}
			je := jsonEncoder{encodeLimits: newEncodeLimits(DefaultLimits())}
			if _, err := je.value(nil, v, 1); err != nil {
				t.Fatal(err)
			}
			ce := cborEncoder{newEncodeLimits(DefaultLimits())}
			if _, err := ce.value(nil, v, 1); err != nil {
				t.Fatal(err)
			}
			if je.roomMade() != want || ce.roomMade() != want {
				t.Errorf("encoders, %x: room made = %v (JSON), %v (CBOR), want %v", in, je.roomMade(), ce.roomMade(), want)
			}
			lim := DefaultLimits()
			s := cborScanner{data: in, lim: &lim, left: 1 << 20}
			if _, err := s.value(0, 1); err != nil {
				t.Fatal(err)
			}
			w := validator{limits: lim, left: 1 << 20}
			if err := w.value(v, 1); err != nil {
				t.Fatal(err)
			}
			if s.roomMade != want || w.roomMade != want {
				t.Errorf("ScanCBOR and Validate, %x: room made = %v, %v, want %v", in, s.roomMade, w.roomMade, want)
			}
		}
	}
}

// TestEncodeQuickDepth: enter lets containers through without a call above stackRoomDepth, and
// after the room is made down to the smaller of DefaultMaxDepth and MaxDepth.
func TestEncodeQuickDepth(t *testing.T) {
	for _, tc := range []struct{ maxDepth, before, after int }{
		{DefaultMaxDepth, stackRoomDepth, DefaultMaxDepth + 1},
		{4, 5, 5},
		{stackRoomDepth, stackRoomDepth, stackRoomDepth + 1},
		{MaxDepthCeiling, stackRoomDepth, DefaultMaxDepth + 1},
	} {
		g := newEncodeLimits(Limits{MaxDepth: tc.maxDepth, MaxElements: 10, MaxValues: 100})
		if g.quickDepth != tc.before {
			t.Errorf("MaxDepth %d: quickDepth %d, want %d", tc.maxDepth, g.quickDepth, tc.before)
		}
		for depth := 1; depth <= min(tc.maxDepth, stackRoomDepth); depth++ {
			if err := g.enter(containerID{}, 1, "entries", depth); err != nil {
				t.Fatal(err)
			}
		}
		if g.quickDepth != tc.after {
			t.Errorf("MaxDepth %d: quickDepth after the room %d, want %d", tc.maxDepth, g.quickDepth, tc.after)
		}
	}
}

// BenchmarkDeepNewGoroutine decodes and encodes testdata/records/deep.json (31 levels) on a new
// goroutine per call, as a server's handler does: the stack starts small and grows (see
// stackroom.go).
func BenchmarkDeepNewGoroutine(b *testing.B) {
	js, cb := readRecord(b, "deep")
	v, err := UnmarshalJSON(js)
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []struct {
		name string
		run  func() error
	}{
		{"UnmarshalJSON", func() error { _, err := UnmarshalJSON(js); return err }},
		{"UnmarshalCBOR", func() error { _, err := UnmarshalCBOR(cb); return err }},
		{"MarshalJSON", func() error { _, err := MarshalJSON(v); return err }},
		{"MarshalCBOR", func() error { _, err := MarshalCBOR(v); return err }},
		{"ScanCBOR", func() error { return ScanCBOR(cb) }},
		{"Validate", func() error { return Validate(v) }},
		{"Links", func() error { Links(v); return nil }},
	} {
		b.Run(w.name, func(b *testing.B) {
			done := make(chan error)
			for b.Loop() {
				go func() { done <- w.run() }()
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStackRoomMadeByWalk: the Links and Blobs walk, which keeps no state that could say so,
// makes its room when it meets a container at stackRoomDepth: after a walk that deep the stack
// holds the room for the levels below, and after one a level shallower it does not (the
// control, which shows that the test can fail).
func TestStackRoomMadeByWalk(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection may shrink a stack
	room := (DefaultMaxDepth-stackRoomDepth)*decodeLevelStack + leafStack
	for _, depth := range []int{stackRoomDepth - 1, stackRoomDepth} {
		ca := append(bytes.Repeat([]byte{0x81}, depth-1), 0x80)
		cm := append(bytes.Repeat([]byte{0xa1, 0x61, 'a'}, depth-1), 0xa0)
		for _, in := range [][]byte{ca, cm} {
			v, err := UnmarshalCBOR(in)
			if err != nil {
				t.Fatal(err)
			}
			for name, walk := range map[string]func(){"Links": func() { Links(v) }, "Blobs": func() { Blobs(v) }} {
				done := make(chan bool)
				go func() {
					walk()
					var x byte
					before := stackAddr(&x)
					stackroom.Reserve(room)
					done <- stackAddr(&x) == before
				}()
				if made, want := <-done, depth >= stackRoomDepth; made != want {
					t.Errorf("%s of %x: room made = %v, want %v", name, in, made, want)
				}
			}
		}
	}
}
