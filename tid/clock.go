package tid

import (
	"sync/atomic"
	"time"
)

// The system clock of the generators. Two facts shape it:
//   - the wall clock can step backwards or forwards (NTP, an operator, a VM resumed) and may be
//     smeared around leap seconds; the monotonic clock never steps, though it ignores such
//     corrections and, on Linux, time spent suspended;
//   - time.Now reads both clocks and costs about twice time.Since, which reads only the monotonic
//     one, and Next should cost little more than one clock read.
//
// So the generators read the monotonic clock on every call and the wall clock once a second, to
// place the monotonic clock in Unix time (the offset between the two). A wall-clock step thus
// shows up within a second, as one step, and Next's rule (the current microsecond or the last
// plus one, whichever is greater) keeps the output increasing across it.

// start is the origin of the monotonic readings.
var start = time.Now()

// rereadEvery is how often, in microseconds, the wall clock is read again.
const rereadEvery = int64(time.Second / time.Microsecond)

// wall places the monotonic clock on the wall clock.
var wall wallAnchor

// Every Next reads a wallAnchor and few write it: the padding keeps it off the cache lines of
// other variables, such as the default generator's, which every Next writes.
type wallAnchor struct {
	_      [cacheLine]byte
	offset atomic.Int64  // wall-clock µs minus monotonic µs since start, at the last reading
	due    atomic.Int64  // monotonic µs since start at which to read the wall clock again
	high   atomic.Uint64 // the highest wall-clock reading, in µs, 0 before 1970 (Generator.highest)
	_      [cacheLine - 24]byte
}

// cacheLine is the size of a cache line on common CPUs.
const cacheLine = 64

// systemMicro returns the microseconds since the Unix epoch by the system clock.
func systemMicro() int64 { return wall.place(monoMicro()) }

// monoMicro returns the microseconds since start by the monotonic clock. (time.Since reads only
// the monotonic clock when start has a monotonic reading, which time.Now gives it.)
func monoMicro() int64 { return int64(time.Since(start) / time.Microsecond) }

// place returns the wall-clock time of the monotonic reading mono, in µs since the Unix epoch.
// It is split from monoMicro, which inlines into Generator.Next, and from reread, the slow path
// taken once a second. (place itself is one call: with go1.26.8 the inliner costs it at 82, over
// the budget of 80.)
func (a *wallAnchor) place(mono int64) int64 {
	if mono >= a.due.Load() {
		a.reread(mono)
	}
	return mono + a.offset.Load()
}

// reread reads the wall clock, unless another goroutine has already claimed this reading.
func (a *wallAnchor) reread(mono int64) {
	due := a.due.Load()
	if mono >= due && a.due.CompareAndSwap(due, mono+rereadEvery) {
		now := time.Now()
		a.set(now.UnixMicro(), int64(now.Sub(start)/time.Microsecond))
	}
}

// set records that the wall clock read wallMicro when the monotonic clock read mono.
func (a *wallAnchor) set(wallMicro, mono int64) {
	a.offset.Store(wallMicro - mono)
	raise(&a.high, uint64(max(wallMicro, 0)))
}

// The first call of systemMicro would read the wall clock anyway (due starts at 0); reading it
// here spares that call the cost.
func init() {
	wall.set(start.UnixMicro(), 0)
	wall.due.Store(rereadEvery)
}
