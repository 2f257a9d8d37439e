package tid

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// fakeClock is an injectable clock that a test sets by hand; safe for concurrent use.
type fakeClock struct{ us atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	c := new(fakeClock)
	c.set(t)
	return c
}
func (c *fakeClock) set(t time.Time)     { c.us.Store(t.UnixMicro()) }
func (c *fakeClock) add(d time.Duration) { c.us.Add(int64(d / time.Microsecond)) }
func (c *fakeClock) now() time.Time      { return time.UnixMicro(c.us.Load()) }
func (c *fakeClock) generator(t *testing.T, clockID uint) *Generator {
	t.Helper()
	g, err := NewGeneratorWithClock(clockID, c.now)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// DECISIONS rule 6: strictly increasing per goroutine, all distinct, from many goroutines at once.
func TestNextConcurrent(t *testing.T) {
	const goroutines, perGoroutine = 16, 4000
	ctx, err := NewGenerator(500)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		next func() TID
		id   uint
	}{
		{"package Next", Next, std.ClockID()},
		{"Generator with clock id 500", ctx.Next, 500},
	} {
		results := make([][]TID, goroutines)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ids := make([]TID, perGoroutine)
				for j := range ids {
					ids[j] = tt.next()
				}
				results[i] = ids
			}()
		}
		wg.Wait()
		seen := make(map[TID]bool, goroutines*perGoroutine)
		for i, ids := range results {
			for j, id := range ids {
				if j > 0 && id <= ids[j-1] {
					t.Fatalf("%s: goroutine %d: %v after %v, not increasing", tt.name, i, id, ids[j-1])
				}
				if seen[id] {
					t.Fatalf("%s: %v issued twice", tt.name, id)
				}
				seen[id] = true
				if id.ClockID() != tt.id || id&topBit != 0 {
					t.Fatalf("%s: %v has clock id %d (want %d) or the top bit", tt.name, id, id.ClockID(), tt.id)
				}
			}
		}
	}
}

// DECISIONS rule 6: the wall clock steps back by seconds, then jumps forward: the output stays strictly
// increasing while the clock is behind, and follows the clock again once it is ahead.
func TestNextClockStepsBack(t *testing.T) {
	t0 := mustTime("2024-07-19T16:40:46.480310Z")
	clock := newFakeClock(t0)
	g := clock.generator(t, 7)

	var last TID
	next := func(step string) TID {
		id := g.Next()
		if id <= last {
			t.Fatalf("%s: %v after %v, not increasing", step, id, last)
		}
		last = id
		return id
	}
	for range 100 { // normal running: one TID per clock microsecond, on the clock
		if id := next("running"); !id.Time().Equal(clock.now()) {
			t.Fatalf("running: %v at %v, want the clock's %v", id, id.Time(), clock.now())
		}
		clock.add(time.Microsecond)
	}
	peak := last.Time()
	clock.add(-5 * time.Second) // the wall clock steps back
	for i := range 1000 {
		id := next("stepped back")
		// While the clock is behind, each TID takes the last microsecond plus one.
		if want := peak.Add(time.Duration(i+1) * time.Microsecond); !id.Time().Equal(want) {
			t.Fatalf("stepped back: TID %d at %v, want %v", i, id.Time(), want)
		}
		clock.add(time.Microsecond)
	}
	clock.add(-3 * time.Second) // a smear backwards, bit by bit
	for range 1000 {
		next("smearing")
		clock.add(-time.Microsecond)
	}
	clock.set(t0.Add(10 * time.Second)) // the clock jumps forward, past the output
	if id := next("after the jump"); !id.Time().Equal(clock.now()) {
		t.Fatalf("after the jump: %v at %v, want back on the clock at %v", id, id.Time(), clock.now())
	}
	clock.add(time.Millisecond)
	if id := next("after the jump"); !id.Time().Equal(clock.now()) {
		t.Fatalf("after the jump: %v at %v, want the clock's %v", id, id.Time(), clock.now())
	}
}

// The drift bound documented on Generator: a burst of n TIDs on a stopped clock runs exactly n-1
// microseconds ahead, and the output rejoins the clock once it passes them.
func TestNextBurstDrift(t *testing.T) {
	t0 := mustTime("2024-07-19T16:40:46.480310Z")
	clock := newFakeClock(t0)
	g := clock.generator(t, 0)
	const burst = 10000
	var id TID
	for range burst {
		id = g.Next()
	}
	if ahead := id.Time().Sub(clock.now()); ahead != (burst-1)*time.Microsecond {
		t.Errorf("after a burst of %d: %v ahead, want %v", burst, ahead, (burst-1)*time.Microsecond)
	}
	clock.add(burst * time.Microsecond)
	if id := g.Next(); !id.Time().Equal(clock.now()) {
		t.Errorf("after the clock passed the burst: %v, want the clock's %v", id.Time(), clock.now())
	}
}

// The default clock is the system clock: its TIDs carry the time now.
func TestNextSystemClock(t *testing.T) {
	g, err := NewGenerator(3)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	id := g.Next()
	after := time.Now()
	// A wall clock stepped while the tests run is followed only at the next reading of it, within
	// a second (clock.go); allow that second rather than fail on it.
	if id.Time().Before(before.Add(-time.Second)) || id.Time().After(after.Add(time.Second)) {
		t.Errorf("Next() at %v, want between %v and %v", id.Time(), before, after)
	}
	if id.ClockID() != 3 || g.ClockID() != 3 {
		t.Errorf("clock id %d, %d; want 3", id.ClockID(), g.ClockID())
	}
	var zero Generator // the zero Generator: clock id 0, system clock
	if z := zero.Next(); z.ClockID() != 0 || z.Time().Before(before.Add(-time.Second)) {
		t.Errorf("zero Generator: %v at %v", z, z.Time())
	}
}

func TestDefaultClockID(t *testing.T) {
	// DECISIONS rule 7: the default clock id is random in the best-effort range.
	if id := Next(); id.ClockID() > 31 || id.ClockClass() != BestEffort || id.ClockID() != std.ClockID() {
		t.Errorf("Next() clock id %d (%v), want the default generator's, in 0-31", id.ClockID(), id.ClockClass())
	}
}

func TestNewGenerator(t *testing.T) {
	for _, id := range []uint{0, 31, 32, 991, 992, MaxClockID} {
		if g, err := NewGenerator(id); err != nil || g.ClockID() != id || g.Next().ClockID() != id {
			t.Errorf("NewGenerator(%d): %v", id, err)
		}
	}
	if g, err := NewGenerator(MaxClockID + 1); !errors.Is(err, ErrClockID) || g != nil {
		t.Errorf("NewGenerator(1024) = %v, %v; want ErrClockID", g, err)
	}
	if _, err := NewGeneratorWithClock(1<<31, time.Now); !errors.Is(err, ErrClockID) {
		t.Errorf("NewGeneratorWithClock(1<<31) error = %v; want ErrClockID", err)
	}
}

func TestContinueAfter(t *testing.T) {
	t0 := mustTime("2024-07-19T16:40:46.480310Z")
	clock := newFakeClock(t0)
	tests := []struct {
		rule  string
		clock uint
		after TID
		want  TID // the next TID
	}{
		{"repo rev an hour ahead, higher clock id", 5, mustFromTime(t0.Add(time.Hour), 1023), mustFromTime(t0.Add(time.Hour+time.Microsecond), 5)},
		{"repo rev an hour ahead, lower clock id", 5, mustFromTime(t0.Add(time.Hour), 0), mustFromTime(t0.Add(time.Hour+time.Microsecond), 5)},
		{"repo rev behind the clock: no effect", 5, mustFromTime(t0.Add(-time.Hour), 1023), mustFromTime(t0, 5)},
	}
	for _, tt := range tests {
		g := clock.generator(t, tt.clock)
		if err := g.ContinueAfter(tt.after); err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if got := g.Next(); got != tt.want || got <= tt.after {
			t.Errorf("%s: Next() = %v (%v), want %v", tt.rule, got, got.Time(), tt.want)
		}
	}
	// An earlier TID never moves the generator back.
	g := clock.generator(t, 1)
	a := g.Next()
	if err := g.ContinueAfter(0); err != nil {
		t.Fatal(err)
	}
	if b := g.Next(); b <= a {
		t.Errorf("ContinueAfter(0) moved the generator back: %v after %v", b, a)
	}
	tooFar := mustFromTime(t0.Add(24*time.Hour+time.Microsecond), 0)
	for _, tt := range []struct {
		bad  TID
		want error
		msg  string
	}{
		{MustParse("c222222222222"), ErrTopBit, "tid: cannot continue after c222222222222: TID has the top bit set, which holds no time"},
		{tooFar, ErrAhead, "tid: cannot continue after 3kxq3wok6xr22 (2024-07-20T16:40:46.480311Z): TID too far ahead of the clock: more than a day after its reading 2024-07-19T16:40:46.48031Z"},
		{MustParse("bzzzzzzzzzzzz"), ErrAhead, ""},
	} {
		err := g.ContinueAfter(tt.bad)
		if !errors.Is(err, tt.want) || errors.Is(err, ErrTimeRange) || tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("ContinueAfter(%v) error = %v, want %v\n%s", tt.bad, err, tt.want, tt.msg)
		}
	}
	if b := g.Next(); b.Time().After(t0.Add(time.Second)) {
		t.Errorf("a rejected ContinueAfter moved the generator to %v", b.Time())
	}
	// A day ahead is accepted.
	if err := g.ContinueAfter(mustFromTime(t0.Add(24*time.Hour), 1023)); err != nil {
		t.Errorf("ContinueAfter(a day ahead): %v", err)
	}
	// Near the 2255 limit, the last microsecond but one is followed by the last TID there is.
	clock.set(time.UnixMicro(MaxUnixMicro - 10))
	if err := g.ContinueAfter(MustParse("bzzzzzzzzzy22")); err != nil {
		t.Fatal(err)
	}
	if got := g.Next(); got.UnixMicro() != MaxUnixMicro {
		t.Errorf("after the last microsecond but one: %v", got)
	}
}

func mustFromTime(t time.Time, clockID uint) TID {
	id, err := FromTime(t, clockID)
	if err != nil {
		panic(err)
	}
	return id
}

// Next panics, rather than wrap or repeat, when no greater TID exists.
func TestNextExhausted(t *testing.T) {
	tests := []struct {
		rule  string
		setup func(*fakeClock, *Generator)
	}{
		{"clock after 2255", func(c *fakeClock, g *Generator) { c.set(time.UnixMicro(MaxUnixMicro + 1)) }},
		{"microseconds run out", func(c *fakeClock, g *Generator) {
			c.set(time.UnixMicro(MaxUnixMicro - 10))
			if err := g.ContinueAfter(MustParse("bzzzzzzzzzy22")); err != nil {
				t.Fatal(err)
			}
			g.Next()
		}},
	}
	for _, tt := range tests {
		clock := newFakeClock(time.Unix(0, 0))
		g := clock.generator(t, 0)
		tt.setup(clock, g)
		func() {
			defer func() {
				if r := recover(); r != errExhausted {
					t.Errorf("%s: recovered %v, want %v", tt.rule, r, errExhausted)
				}
			}()
			id := g.Next()
			t.Errorf("%s: Next() = %v, want a panic", tt.rule, id)
		}()
	}
	// A clock before 1970 counts as the epoch.
	clock := newFakeClock(time.Unix(-100, 0))
	if id := clock.generator(t, 0).Next(); id.UnixMicro() != 0 {
		t.Errorf("clock before 1970: %v at %d µs, want the epoch's", id, id.UnixMicro())
	}
}

// ContinueAfter races Next from other goroutines: every TID after a ContinueAfter(x) returns is
// greater than x, and the output stays strictly increasing per goroutine and distinct.
func TestContinueAfterConcurrent(t *testing.T) {
	const goroutines, perGoroutine = 8, 2000
	g, err := NewGenerator(600)
	if err != nil {
		t.Fatal(err)
	}
	results := make([][]TID, goroutines)
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids := make([]TID, 0, perGoroutine)
			for j := 0; len(ids) < perGoroutine; j++ {
				id := g.Next()
				ids = append(ids, id)
				if j%100 == 99 { // a restore from a TID a little ahead, with the highest clock id
					x, _ := FromUnixMicro(id.UnixMicro()+50, MaxClockID)
					if err := g.ContinueAfter(x); err != nil {
						errs <- err
						return
					}
					next := g.Next()
					if next <= x {
						errs <- errors.New(next.String() + " not after " + x.String())
						return
					}
					ids = append(ids, next)
				}
			}
			results[i] = ids
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := make(map[TID]bool, goroutines*perGoroutine)
	for i, ids := range results {
		for j, id := range ids {
			if j > 0 && id <= ids[j-1] {
				t.Fatalf("goroutine %d: %v after %v, not increasing", i, id, ids[j-1])
			}
			if seen[id] {
				t.Fatalf("%v issued twice", id)
			}
			seen[id] = true
		}
	}
}

func TestGeneratorSize(t *testing.T) {
	// A heap-allocated Generator fills a 64-byte size class, so no two share a cache line.
	if size := unsafe.Sizeof(Generator{}); size != cacheLine {
		t.Errorf("Generator is %d bytes, want %d", size, cacheLine)
	}
}

// A clock beyond the last microsecond, however far (UnixMicro wraps past the year 294246), is
// past it: Next panics as documented, rather than issue a TID of the wrapped time; a clock far
// before 1970 is the epoch.
func TestClockFarOutOfRange(t *testing.T) {
	for _, c := range []struct {
		name string
		at   time.Time
	}{
		{"year 2300", time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"year 300000 (UnixMicro wraps negative)", time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"year 586577 (UnixMicro wraps to 2023)", time.Unix(18446744073709+1_700_000_000, 0)},
	} {
		g, err := NewGeneratorWithClock(1, func() time.Time { return c.at })
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if r := recover(); r != errExhausted {
					t.Errorf("%s: recovered %v, want %v", c.name, r, errExhausted)
				}
			}()
			id := g.Next()
			t.Errorf("%s: Next() = %v (%v), want a panic", c.name, id, id.Time())
		}()
		// Any TID is within a day behind such a clock: none is refused as ahead of it.
		if err := g.ContinueAfter(MustParse("3kxnlhr3gxq23")); err != nil {
			t.Errorf("%s: ContinueAfter: %v", c.name, err)
		}
	}
	g, err := NewGeneratorWithClock(1, func() time.Time { return time.Date(-300000, 1, 1, 0, 0, 0, 0, time.UTC) })
	if err != nil {
		t.Fatal(err)
	}
	if id := g.Next(); id.UnixMicro() != 0 {
		t.Errorf("year -300000: %v at %d µs, want the epoch's", id, id.UnixMicro())
	}
}

// The lead over the clock is bounded (DECISIONS rule 6) by MaxAhead: a generator a little short
// of it (here by ContinueAfter, as a day of bursts would) issues on as far as the bound and then
// waits for its clock, never issuing a TID more than MaxAhead ahead of it. The clock is the
// generator's own (systemMicro: the monotonic clock placed on the wall clock once a second),
// which may differ from a time.Now read by microseconds.
func TestLeadBounded(t *testing.T) {
	g, err := NewGenerator(5)
	if err != nil {
		t.Fatal(err)
	}
	start, err := FromUnixMicro(systemMicro()+int64(maxAhead)-2000, 0) // 2 ms short of the bound
	if err != nil {
		t.Fatal(err)
	}
	if err := g.ContinueAfter(start); err != nil {
		t.Fatal(err)
	}
	const n = 6000 // 6 ms of microseconds: the last 4 ms or more past the bound
	prev := start
	for i := range n {
		id := g.Next()
		after := systemMicro()
		if id <= prev {
			t.Fatalf("TID %d: %v after %v", i, id, prev)
		}
		if lead := id.UnixMicro() - after; lead > int64(maxAhead) {
			t.Fatalf("TID %d: %v is %d µs ahead of the clock read after it, more than MaxAhead", i, id, lead)
		}
		prev = id
	}
	if lead := prev.UnixMicro() - systemMicro(); lead < int64(maxAhead)-1_000_000 {
		t.Errorf("the last TID is %d µs ahead: the generator fell far behind the bound it waited at", lead)
	}
}

// DECISIONS rule 6 and the Generator doc: when the clock steps back, by more than a day too, the
// output runs on from the last TID a microsecond a call; it once waited instead, for as long as
// the step less a day (the lead bound of a burst, MaxAhead, taken from the stepped-back reading:
// a year, after a clock that ran a year ahead is corrected). A burst that runs a day ahead of a
// steady clock still waits (TestLeadBounded).
func TestNextClockStepsBackMoreThanADay(t *testing.T) {
	t0 := mustTime("2024-07-19T16:40:46.480310Z")
	clock := newFakeClock(t0)
	g := clock.generator(t, 9)
	last := g.Next()
	clock.add(-48 * time.Hour)
	done := make(chan []TID)
	go func() {
		ids := make([]TID, 3)
		for i := range ids {
			ids[i] = g.Next()
		}
		done <- ids
	}()
	select {
	case ids := <-done:
		for i, id := range ids {
			if want := t0.Add(time.Duration(i+1) * time.Microsecond); id <= last || !id.Time().Equal(want) {
				t.Errorf("after the step back: TID %d %v at %v, want %v", i, id, id.Time(), want)
			}
			last = id
		}
	case <-time.After(10 * time.Second): // a hang detector, not a timing: Next returns at once
		t.Fatal("Next waited for a clock stepped back by two days")
	}
}

// The same with the system clock, simulated by the offset of the last wall-clock reading, as in
// TestSystemClockFollowsWallSteps.
func TestSystemClockStepsBackMoreThanADay(t *testing.T) {
	defer wall.due.Store(0) // read the real wall clock again at the next call
	g, err := NewGenerator(11)
	if err != nil {
		t.Fatal(err)
	}
	last := g.Next()
	wall.due.Store(monoMicro() + rereadEvery*3600) // no reading for an hour
	wall.offset.Add(-int64(48 * time.Hour / time.Microsecond))
	done := make(chan TID)
	go func() { done <- g.Next() }()
	select {
	case id := <-done:
		if id <= last || id.UnixMicro() != last.UnixMicro()+1 {
			t.Errorf("after the step back: %v (%d µs) after %v (%d µs), want the next microsecond", id, id.UnixMicro(), last, last.UnixMicro())
		}
	case <-time.After(10 * time.Second): // a hang detector, not a timing
		t.Fatal("Next waited for a system clock stepped back by two days")
	}
}
