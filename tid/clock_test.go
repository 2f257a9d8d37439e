package tid

import (
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
