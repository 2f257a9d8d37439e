package tid

import (
	"errors"
	"testing"
	"time"
)

// near reports whether the TID's time is within a second of the wall clock now.
func near(id TID) bool {
	d := time.Since(id.Time())
	return d > -time.Second && d < time.Second
}

// The system clock follows wall-clock steps at its next reading of the wall clock (clock.go), and
// the output stays strictly increasing across a step backwards. The steps are simulated by
// shifting the offset the last reading recorded, as a stepped wall clock would.
func TestSystemClockFollowsWallSteps(t *testing.T) {
	defer wall.due.Store(0) // whatever happens, read the wall clock again at the next call
	g, err := NewGenerator(9)
	if err != nil {
		t.Fatal(err)
	}
	reread := func() { wall.due.Store(0) }
	hold := func() { wall.due.Store(monoMicro() + rereadEvery*3600) } // no reading for an hour

	reread()
	a := g.Next()
	if !near(a) {
		t.Fatalf("Next() at %v, want now", a.Time())
	}

	// The wall clock was 10 s fast at the last reading; it is stepped back to the right time.
	hold()
	wall.offset.Add(int64(10 * time.Second / time.Microsecond))
	b := g.Next()
	if d := b.Time().Sub(a.Time()); d < 9*time.Second || b <= a {
		t.Fatalf("with the wall clock 10 s fast: %v after %v, want about 10 s later", b.Time(), a.Time())
	}
	reread()
	c := g.Next()
	if c <= b || c.Time().Sub(b.Time()) != time.Microsecond {
		t.Fatalf("after the step back: %v after %v, want one microsecond later", c.Time(), b.Time())
	}

	// The wall clock was 20 s slow at the last reading; it is stepped forward to the right time.
	hold()
	wall.offset.Add(-int64(30 * time.Second / time.Microsecond))
	d := g.Next() // the clock reads 20 s ago, behind c: the output runs on from c
	if d <= c || d.Time().Sub(c.Time()) != time.Microsecond {
		t.Fatalf("with the wall clock slow: %v after %v, want one microsecond later", d.Time(), c.Time())
	}
	reread()
	fresh, _ := NewGenerator(10)
	if e := fresh.Next(); !near(e) {
		t.Fatalf("after the step forward: %v, want now", e.Time())
	}
}

func TestSystemClockTracksWallClock(t *testing.T) {
	for range 3 {
		before := time.Now().UnixMicro()
		us := systemMicro()
		after := time.Now().UnixMicro()
		// The monotonic clock and the wall clock may drift apart by a little between readings.
		if us < before-1000 || us > after+1000 {
			t.Errorf("systemMicro() = %d, want within a millisecond of [%d, %d]", us, before, after)
		}
		wall.due.Store(0)
	}
}

// A system clock set before 1970 counts as the epoch, as an injected clock does: Next never
// panics for it (it once did, with a message about the year 2255), the output stays strictly
// increasing, and ContinueAfter still compares against the clock. The bad clock is simulated by
// the offset of the last wall-clock reading, as in TestSystemClockFollowsWallSteps.
func TestSystemClockBefore1970(t *testing.T) {
	defer wall.due.Store(0) // read the real wall clock again at the next call
	wall.due.Store(monoMicro() + rereadEvery*3600)
	// The wall clock read 1969-12-31 at the last reading: ten years before the epoch.
	wall.offset.Store(-monoMicro() - int64(10*365*24*time.Hour/time.Microsecond))

	g, err := NewGenerator(3)
	if err != nil {
		t.Fatal(err)
	}
	var zero Generator // the zero Generator, like the package's default one, reads the same clock
	a := g.Next()
	b := g.Next()
	z := zero.Next()
	// A new generator's first TID takes the clock's microsecond, the epoch's (DECISIONS rule 6:
	// the current microsecond, or the last one returned plus one: none was).
	if a.UnixMicro() != 0 || b <= a || b.UnixMicro() != 1 || z.UnixMicro() != 0 {
		t.Errorf("with the clock before 1970: %v (%d µs), %v (%d µs), zero generator %v; want 0 µs, then 1 µs",
			a, a.UnixMicro(), b, b.UnixMicro(), z)
	}
	if err := g.ContinueAfter(MustParse("2222222222422")); err != nil {
		t.Errorf("ContinueAfter(a TID two microseconds after the epoch): %v", err)
	}
	if err := g.ContinueAfter(MustParse("3kxnlhr3gxq23")); !errors.Is(err, ErrAhead) {
		t.Errorf("ContinueAfter(2024) with the clock at the epoch: %v, want ErrAhead", err)
	}
}
