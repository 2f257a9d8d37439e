package tid

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// A Generator issues TIDs with one clock id, each strictly greater than every TID it issued
// before, from any number of goroutines at once.
//
// Each TID takes the current microsecond or the last one issued plus one, whichever is greater
// (https://atproto.com/specs/tid; DECISIONS rule 6), with a single compare-and-swap on one atomic word: no lock,
// no allocation.
//
// The clock is the system clock: the monotonic clock, which never steps, placed on the wall clock
// by a reading of it once a second. A slewed or smeared wall clock is followed smoothly (the
// kernel slews the monotonic clock alike). When the wall clock steps backwards, the output stays
// strictly increasing, running on from the last TID one microsecond a call until the clock
// catches up with it; when it steps forwards, the output follows within a second. An injected
// clock ([NewGeneratorWithClock]) is followed the same way, at every call.
//
// Drift: the format holds one TID per microsecond per clock id. Under a burst faster than that,
// the output runs ahead of the clock by at most the number of TIDs issued in the burst, in
// microseconds, minus the time the burst took (e.g. 100 000 TIDs in 10 ms: at most 90 ms ahead);
// it rejoins the clock as soon as calls come slower than one per microsecond, since every call
// takes the clock's reading whenever it is later. The lead is bounded (DECISIONS rule 6) by the
// day that [Generator.ContinueAfter] follows another clock's TID by: a generator whose output
// would run more than [MaxAhead] past its clock, which takes over an hour of more than a million
// TIDs a second, makes each Next wait for its clock instead, so that another generator can still
// continue after its TIDs. The lead is taken from the highest reading the clock has given, so
// that a clock stepping back by more than a day is run on from, as any step back is, not waited
// for. Deployments that need more than a million TIDs per second sustained
// should use several generators with distinct clock ids.
//
// The zero Generator is ready to use, with clock id 0 and the system clock. A Generator must
// not be copied after first use.
type Generator struct {
	next    atomic.Uint64    // the least microsecond the next TID may take (0: none issued yet)
	clockID uint64           // at most MaxClockID
	clock   func() time.Time // nil: the system clock, systemMicro
	high    atomic.Uint64    // an injected clock's highest reading by Next (see highest)
	// A cache line to itself: generators used on different cores (one per writer) must not
	// slow each other down by sharing one.
	_ [cacheLine - 32]byte
}

// std is the generator behind the package-level [Next]. Its clock id is random in the
// best-effort range 0–31, as the reference TypeScript implementation does (DECISIONS rule 7).
var std = Generator{clockID: rand.Uint64N(32)}

// Next returns a new TID from the package's default generator, whose clock id is chosen at
// random in the best-effort range 0–31 when the program starts. See [Generator] for the
// guarantees: strictly increasing, safe for concurrent use, no allocation.
func Next() TID { return std.Next() }

// NewGenerator returns a generator of TIDs with clock id clockID, using the system clock. A
// deployment that assigns clock ids (DECISIONS rule 7: 32–991 for context-dependent use) gives each
// concurrent writer its own. It fails with [ErrClockID] if clockID is above [MaxClockID].
func NewGenerator(clockID uint) (*Generator, error) {
	return NewGeneratorWithClock(clockID, nil)
}

// NewGeneratorWithClock is like [NewGenerator] but reads the time from now, which may step
// backwards or jump: it is meant for tests. A nil now means the system clock. Times before 1970
// count as the epoch, as they do for the system clock; Next panics if now reads a time after
// 2255-06-05T23:47:34.740991Z, which no TID can hold, however far after it. An injected clock
// bounds the lead as the system clock does ([MaxAhead]): one that never moves lets a generator
// issue a day's worth of TIDs, 86.4 billion, and then makes Next wait for it.
func NewGeneratorWithClock(clockID uint, now func() time.Time) (*Generator, error) {
	if clockID > MaxClockID {
		return nil, fmt.Errorf("tid: generator clock id %d: %w", clockID, ErrClockID)
	}
	return &Generator{clockID: uint64(clockID), clock: now}, nil
}

// ClockID returns the clock id of every TID g issues.
func (g *Generator) ClockID() uint { return uint(g.clockID) }

// errExhausted is Next's panic value when no later TID exists.
var errExhausted = errors.New("tid: Generator passed the last microsecond a TID can hold (2255-06-05T23:47:34.740991Z)")

// Next returns a TID strictly greater than every TID g issued before, and greater than the TID
// given to [Generator.ContinueAfter]. It is safe to call from any number of goroutines; each
// goroutine sees its own TIDs strictly increasing, and all are distinct.
//
// A clock set before 1970 (a machine without a battery-backed clock, before NTP) counts as the
// epoch: Next then runs on one microsecond a call from the last TID, as after a step backwards,
// and never panics for it. Next panics only when no later TID exists: g has issued a TID of the
// last microsecond, 2255-06-05T23:47:34.740991Z, or [Generator.ContinueAfter] was given one, or
// its clock reads after it: an injected clock, or that date.
func (g *Generator) Next() TID {
	var now uint64
	if g.clock == nil { // the common case: systemMicro written out, so that monoMicro inlines
		now = uint64(max(wall.place(monoMicro()), 0))
	} else {
		now = g.now()
		raise(&g.high, now)
	}
	for {
		next := g.next.Load()
		us := max(now, next)
		if us > MaxUnixMicro {
			panic(errExhausted)
		}
		if us > now+maxAhead && us > g.highest()+maxAhead {
			// More than a day ahead of the clock, and of every reading it gave: a sustained
			// burst, whose lead waits for the clock. (Ahead of the reading only, the clock
			// stepped back, and the output runs on from the last TID, as after any step back.)
			now = g.waitFor(us - maxAhead)
			continue
		}
		if g.next.CompareAndSwap(next, us+1) {
			return TID(us<<clockBits | g.clockID)
		}
	}
}

// MaxAhead is how far ahead of its clock a Generator's output may run: as far as
// [Generator.ContinueAfter] follows a TID from another clock.
const MaxAhead = 24 * time.Hour

// maxAhead is MaxAhead in microseconds.
const maxAhead = uint64(MaxAhead / time.Microsecond)

// highest returns the highest reading g's clock has given, in microseconds since the epoch: the
// system clock's over the process (its wall-clock readings, once a second), an injected clock's
// over g's calls of Next. Next measures its lead from it, so that a clock that steps back by more
// than a day does not make Next wait for it to come back (a year, after a clock that ran a year
// ahead is corrected), while a burst that runs ahead of a steady clock still does.
func (g *Generator) highest() uint64 {
	if g.clock == nil {
		return wall.high.Load()
	}
	return g.high.Load()
}

// raise sets h to v if v is higher.
func raise(h *atomic.Uint64, v uint64) {
	for {
		old := h.Load()
		if v <= old || h.CompareAndSwap(old, v) {
			return
		}
	}
}

// waitFor waits until g's clock reads at least target microseconds, and returns its reading.
// Not inlined: Next reaches it only after more than a day's worth of TIDs ahead of its clock and
// of its highest reading.
//
//go:noinline
func (g *Generator) waitFor(target uint64) uint64 {
	for {
		now := g.now()
		if now >= target {
			return now
		}
		time.Sleep(time.Duration(min(target-now, uint64(time.Second/time.Microsecond))) * time.Microsecond)
	}
}

// ContinueAfter makes every TID that g issues from now on greater than t, for example to carry
// on after a repository's last revision written by another process or another clock id. It is
// safe to call concurrently with Next. A t earlier than g's output has no effect.
//
// It fails with [ErrTopBit] if t has the top bit set (no generator issues those) and with
// [ErrAhead] if t is more than 24 hours ahead of g's clock. Such a t is corrupt or hostile (a migrated repository
// carries its revision from elsewhere): following it would pin every later TID of g to its
// time, and near the 2255 limit would run the microseconds out. A day is far more than any
// clock skew between honest servers.
func (g *Generator) ContinueAfter(t TID) error {
	if t&topBit != 0 {
		return fmt.Errorf("tid: cannot continue after %s: %w, which holds no time", t, ErrTopBit)
	}
	us := uint64(t.UnixMicro())
	if now := g.now(); us > now+maxAhead {
		return fmt.Errorf("tid: cannot continue after %s (%s): %w: more than a day after its reading %s",
			t, t.Time().Format(time.RFC3339Nano), ErrAhead,
			time.UnixMicro(int64(min(now, MaxUnixMicro))).UTC().Format(time.RFC3339Nano))
	}
	// The microsecond after t's, whatever the two clock ids are: a TID of g then sorts after t,
	// and its time too.
	floor := us + 1
	for {
		next := g.next.Load()
		if next >= floor || g.next.CompareAndSwap(next, floor) {
			return nil
		}
	}
}

// now returns the microseconds since the Unix epoch by g's clock; times before 1970 count as 0,
// and times after the last microsecond a TID holds as the one after it, however far after it
// (UnixMicro itself wraps past the year 294246).
func (g *Generator) now() uint64 {
	if g.clock == nil {
		return uint64(max(systemMicro(), 0))
	}
	switch t := g.clock(); {
	case t.Unix() < 0:
		return 0
	case t.Unix() > MaxUnixMicro/1_000_000: // past 2255-06-05T23:47:34, and no UnixMicro to wrap
		return MaxUnixMicro + 1
	default:
		return uint64(t.UnixMicro())
	}
}
