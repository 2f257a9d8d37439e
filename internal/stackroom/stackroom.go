// Package stackroom grows the calling goroutine's stack ahead of a deep recursion, in one step
// taken while the stack is shallow.
//
//	if depth == 8 {
//		stackroom.Reserve(24 * bytesPerLevel) // room for levels 9 to 32
//	}
//
// Why: a goroutine's stack starts at a few KiB, and each garbage collection halves a stack that
// is mostly unused. A recursive decoder or encoder that goes deep then outgrows it several times
// over, and each time the runtime allocates a stack twice as large, copies the old one into it
// and adjusts every frame open on it. Reserve makes the room in one step. Measured on a new
// goroutine per call (datamodel's BenchmarkDeepNewGoroutine, testdata/records/deep.json, 31
// levels), room made at level 8 took MarshalJSON from 38.5 to 23.5 µs and UnmarshalCBOR from
// 39.1 to 23.2 µs. Where the room is there already, Reserve costs a few calls (about 10 ns,
// BenchmarkReserve).
//
// The room is not kept: the next collection may halve the stack again if it is mostly unused,
// as it does any stack. Nor is it free where the walk would not have needed it: it then costs a
// growth the walk would not have made, after every collection that shrinks the stack again, so
// the depth at which to call Reserve is one the walk's frames would have outgrown the stack at
// (datamodel's jsonRoomDepth says what a level too early cost its JSON decoder).
package stackroom

// Max is the most room Reserve makes: a caller computing its need from a raised limit must not
// make every deep walk take megabytes of stack. (It is also the largest variable the compiler
// keeps on the stack; a larger pad would be moved to the heap and take no room.)
const Max = 16 * step

// Reserve makes sure that about n bytes of stack are free below the caller's frame, growing the
// goroutine's stack now if they are not. n is rounded up to 8 KiB (16 KiB above 64 KiB) and
// capped at Max; n ≤ 0 does nothing.
//
// The room is taken as one frame of that size, so that the runtime grows the stack at once to
// fit it: a first version took it as a chain of 4 KiB frames, and a CPU profile of deep encodes
// showed the stack grown at several links of the chain, each growth copying the links made so
// far. The sizes are close steps rather than powers of two because the runtime rounds the stack
// up to a power of two itself: room rounded up twice would double a deep walk's stack for
// nothing.
func Reserve(n int) {
	if n <= 0 {
		return
	}
	switch (min(n, Max) + step - 1) / step {
	case 1:
		take[[1 * step]byte](never)
	case 2:
		take[[2 * step]byte](never)
	case 3:
		take[[3 * step]byte](never)
	case 4:
		take[[4 * step]byte](never)
	case 5:
		take[[5 * step]byte](never)
	case 6:
		take[[6 * step]byte](never)
	case 7:
		take[[7 * step]byte](never)
	case 8:
		take[[8 * step]byte](never)
	case 9, 10:
		take[[10 * step]byte](never)
	case 11, 12:
		take[[12 * step]byte](never)
	case 13, 14:
		take[[14 * step]byte](never)
	default:
		take[[Max]byte](never)
	}
}

// step is the unit Reserve rounds to.
const step = 8 << 10

// never is false; take cannot know it, so the compiler keeps pad and the frame it takes.
var never bool

// take takes a frame the size of Pad: its entry checks that the frame fits and grows the stack
// if not, which is all Reserve wants. pad is zeroed only where it is declared, in the branch that
// never runs, so a call costs a call, not a clear of the room.
//
//go:noinline
func take[Pad any](never bool) {
	if never {
		var pad Pad
		keep(&pad)
	}
}

//go:noinline
func keep(any) {}
