package datetime

import (
	"errors"
	"testing"
	"time"
)

func TestFromTime(t *testing.T) {
	tests := []struct {
		rule string
		in   time.Time
		want string
	}{
		{"UTC, milliseconds", time.Date(1985, 4, 12, 23, 20, 50, 123e6, time.UTC), "1985-04-12T23:20:50.123Z"},
		{"zeros padded", time.Date(1985, 4, 12, 23, 20, 50, 120e6, time.UTC), "1985-04-12T23:20:50.120Z"},
		{"whole second still gets .000", time.Date(1985, 4, 12, 23, 20, 50, 0, time.UTC), "1985-04-12T23:20:50.000Z"},
		{"sub-millisecond truncated", time.Date(1985, 4, 12, 23, 20, 50, 999999999, time.UTC), "1985-04-12T23:20:50.999Z"},
		{"other zone converted to UTC", time.Date(1985, 4, 12, 16, 20, 50, 0, time.FixedZone("", -7*3600)), "1985-04-12T23:20:50.000Z"},
		{"year 0", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01T00:00:00.000Z"},
		{"year 9999", time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC), "9999-12-31T23:59:59.999Z"},
	}
	for _, tt := range tests {
		d, err := FromTime(tt.in)
		if err != nil || d.String() != tt.want {
			t.Errorf("%s: FromTime = %q, %v; want %q", tt.rule, d, err, tt.want)
			continue
		}
		if d != MustParse(tt.want) {
			t.Errorf("%s: FromTime's Datetime differs from Parse's of the same string", tt.rule)
		}
		b, err := AppendTime([]byte("x"), tt.in)
		if err != nil || string(b) != "x"+tt.want {
			t.Errorf("%s: AppendTime = %q, %v", tt.rule, b, err)
		}
	}
	for _, bad := range []time.Time{
		time.Date(-1, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 0, 30, 0, 0, time.FixedZone("", 3600)), // year -1 in UTC
	} {
		_, err := FromTime(bad)
		if !errors.Is(err, ErrRange) {
			t.Errorf("FromTime(%v) = %v, want ErrRange", bad, err)
		}
		if _, err := AppendTime(nil, bad); !errors.Is(err, ErrRange) {
			t.Errorf("AppendTime(%v) = %v, want ErrRange", bad, err)
		}
	}
}

func TestNow(t *testing.T) {
	before := time.Now().Truncate(time.Millisecond)
	d := Now()
	after := time.Now()
	if !IsValid(d.String()) || len(d.String()) != 24 || d.Time().Before(before) || d.Time().After(after) {
		t.Errorf("Now() = %s, not between %v and %v", d, before, after)
	}
}

// A parsed datetime written through FromTime is the preferred form of the same instant, to the
// millisecond.
func TestRoundTripThroughTime(t *testing.T) {
	for _, s := range []string{"1985-04-12T23:20:50.12Z", "1985-04-12T23:20:50.1234+01:00", "1985-04-12T23:20:50Z"} {
		d := MustParse(s)
		e, err := FromTime(d.Time())
		if err != nil || !e.Time().Equal(d.Time().Truncate(time.Millisecond)) || len(e.String()) != 24 {
			t.Errorf("%s: FromTime(Time()) = %s, %v", s, e, err)
		}
	}
}
