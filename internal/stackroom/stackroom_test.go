package stackroom

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// where returns the address of the caller's variable x: it changes when the runtime moves the
// goroutine's stack to grow it.
func where(x *byte) uintptr { return uintptr(unsafe.Pointer(x)) }

// descend puts about n bytes of frames on the stack, 512 at a time.
//
//go:noinline
func descend(n int) byte {
	var b [512]byte
	b[n%512] = byte(n)
	if n > 512 {
		return descend(n-512) + b[0]
	}
	return b[1]
}

// moves reports whether a recursion of need bytes moves the stack of a new goroutine, after
// Reserve(reserve).
func moves(reserve, need int) bool {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection shrinks the stack meanwhile
	done := make(chan bool)
	go func() {
		var x byte
		Reserve(reserve)
		before := where(&x)
		descend(need)
		done <- where(&x) != before
	}()
	return <-done
}

func TestReserve(t *testing.T) {
	for _, tc := range []struct {
		name          string
		reserve, need int
		want          bool
	}{
		// Without the room, a recursion of 1 MiB grows (and so moves) a new goroutine's
		// stack, which starts at a few KiB: the control that shows the test can fail.
		{"no reserve", 0, 1 << 20, true},
		{"too little", 16 << 10, 1 << 20, true},
		{"enough", 40 << 10, 40 << 10, false},
		{"no reserve, Max", 0, Max, true},
		{"Max", Max, Max, false},
		// Stacks come in powers of two: the room for Max makes a stack of 2*Max.
		{"capped at Max", 4 * Max, 2*Max + 64<<10, true},
	} {
		if got := moves(tc.reserve, tc.need); got != tc.want {
			t.Errorf("%s: Reserve(%d), then %d bytes of frames: stack moved = %v, want %v",
				tc.name, tc.reserve, tc.need, got, tc.want)
		}
	}
}

// TestReserveRoomThere: where the room is there already, Reserve does not clear it: it costs
// a few calls and allocates nothing.
func TestReserveRoomThere(t *testing.T) {
	Reserve(64 << 10)
	if n := testing.AllocsPerRun(100, func() { Reserve(64 << 10) }); n != 0 {
		t.Errorf("Reserve allocated %v times", n)
	}
}

func BenchmarkReserve(b *testing.B) {
	Reserve(32 << 10)
	for b.Loop() {
		Reserve(32 << 10)
	}
}
