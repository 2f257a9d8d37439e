package tid

import (
	"errors"
	"math"
	"testing"
	"time"
)

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestFromTime(t *testing.T) {
	tests := []struct {
		rule  string
		time  time.Time
		clock uint
		want  string
		err   error
	}{
		{"DECISIONS rule 8 worked example", mustTime("2024-07-19T16:40:46.480310Z"), 1, "3kxnlhr3gxq23", nil},
		{"same instant in UTC-7 (the draft's zone)", mustTime("2024-07-19T09:40:46.480310-07:00"), 1, "3kxnlhr3gxq23", nil},
		{"truncated down to the microsecond", mustTime("2024-07-19T16:40:46.480310999Z"), 1, "3kxnlhr3gxq23", nil},
		{"DECISIONS rule 8: RFC 9562 vector", mustTime("2022-02-22T19:22:22Z"), 0, "3iso34eqpw222", nil},
		{"the epoch", time.Unix(0, 0), 0, "2222222222222", nil},
		{"DECISIONS rule 5: last microsecond", mustTime("2255-06-05T23:47:34.740991999Z"), 1023, "bzzzzzzzzzzzz", nil},
		{"DECISIONS rule 5: after the last microsecond", mustTime("2255-06-05T23:47:34.740992Z"), 0, "", ErrTimeRange},
		{"DECISIONS rule 5: before 1970", time.Unix(0, -1), 0, "", ErrTimeRange},
		{"DECISIONS rule 5: far before 1970", time.Time{}, 0, "", ErrTimeRange},
		{"DECISIONS rule 5: beyond int64 microseconds", time.Unix(math.MaxInt64/2, 0), 0, "", ErrTimeRange},
		{"10-bit clock id", time.Unix(0, 0), 1024, "", ErrClockID},
	}
	for _, tt := range tests {
		got, err := FromTime(tt.time, tt.clock)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: FromTime = %v, %v; want %v", tt.rule, got, err, tt.err)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("%s: FromTime = %v, %v; want %s", tt.rule, got, err, tt.want)
		}
	}
}

func TestFromUnixMicro(t *testing.T) {
	tests := []struct {
		rule  string
		us    int64
		clock uint
		want  TID
		err   error
	}{
		{"layout: µs<<10 | clock", 1721407246480310, 1, 1721407246480310<<10 | 1, nil},
		{"zero", 0, 0, 0, nil},
		{"largest", MaxUnixMicro, MaxClockID, math.MaxInt64, nil},
		{"DECISIONS rule 5: negative", -1, 0, 0, ErrTimeRange},
		{"DECISIONS rule 5: 54 bits", MaxUnixMicro + 1, 0, 0, ErrTimeRange},
		{"DECISIONS rule 5: no wrap", math.MaxInt64, 0, 0, ErrTimeRange},
		{"10-bit clock id", 0, MaxClockID + 1, 0, ErrClockID},
	}
	for _, tt := range tests {
		got, err := FromUnixMicro(tt.us, tt.clock)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("%s: FromUnixMicro(%d, %d) = %v, %v; want %v, %v", tt.rule, tt.us, tt.clock, got, err, tt.want, tt.err)
		}
		if err == nil && (got.UnixMicro() != tt.us || got.ClockID() != tt.clock) {
			t.Errorf("%s: round trip gives %d, %d", tt.rule, got.UnixMicro(), got.ClockID())
		}
	}
}

func TestBounds(t *testing.T) {
	at := mustTime("2024-07-19T16:40:46.480310Z")
	lo, hi, err := Bounds(at)
	if err != nil || lo.String() != "3kxnlhr3gxq22" || hi.String() != "3kxnlhr3gxqzz" {
		t.Fatalf("Bounds = %v, %v, %v", lo, hi, err)
	}
	if lo.ClockID() != 0 || hi.ClockID() != MaxClockID || !lo.Time().Equal(at) || !hi.Time().Equal(at) {
		t.Errorf("Bounds = %v %d, %v %d", lo.Time(), lo.ClockID(), hi.Time(), hi.ClockID())
	}
	// Neighbouring microseconds fall outside.
	before, _ := FromTime(at.Add(-time.Microsecond), MaxClockID)
	after, _ := FromTime(at.Add(time.Microsecond), 0)
	if !(before < lo && hi < after) {
		t.Errorf("bounds %v..%v do not separate %v and %v", lo, hi, before, after)
	}
	if _, _, err := Bounds(time.Unix(-1, 0)); !errors.Is(err, ErrTimeRange) {
		t.Errorf("Bounds(1969) error = %v, want ErrTimeRange", err)
	}
}

func TestPrefixRange(t *testing.T) {
	// The TID draft's prefix table, in UTC (its times are printed in UTC-7; DECISIONS rule 8).
	tests := []struct {
		rule        string
		prefix      string
		first, last string
	}{
		{"DECISIONS rule 8: 4 characters", "3kxn", "2024-07-19T11:28:52.498432Z", "2024-07-19T21:01:32.236799Z"},
		{"draft table: 2 characters", "3k", "2023-07-08T20:57:40.263936Z", "2024-08-19T02:23:52.352767Z"},
		{"draft table: 7 characters", "3kxnlhr", "2024-07-19T16:40:46.434304Z", "2024-07-19T16:40:47.482879Z"},
		{"draft table: 11 characters, one microsecond", "3kxnlhr3gxq", "2024-07-19T16:40:46.48031Z", "2024-07-19T16:40:46.48031Z"},
		{"13 characters: one TID", "3kxnlhr3gxq23", "2024-07-19T16:40:46.48031Z", "2024-07-19T16:40:46.48031Z"},
		{"DECISIONS rule 8: RFC 9562 vector", "3iso34eqpw2", "2022-02-22T19:22:22Z", "2022-02-22T19:22:22Z"},
		{"one character: 2^50 µs", "2", "1970-01-01T00:00:00Z", "2005-09-05T05:58:26.842623Z"},
		{"DECISIONS rule 5: last prefix, 7<<50 µs on", "b", "2219-10-01T17:49:07.898368Z", "2255-06-05T23:47:34.740991Z"},
	}
	const layout = "2006-01-02T15:04:05.999999999Z07:00"
	for _, tt := range tests {
		first, last, err := PrefixRange(tt.prefix)
		if err != nil || first.Format(layout) != tt.first || last.Format(layout) != tt.last {
			t.Errorf("%s: PrefixRange(%q) = %s, %s, %v; want %s, %s", tt.rule, tt.prefix,
				first.Format(layout), last.Format(layout), err, tt.first, tt.last)
		}
		lo, hi, err := PrefixBounds(tt.prefix)
		if err != nil || lo.String()[:len(tt.prefix)] != tt.prefix || hi.String()[:len(tt.prefix)] != tt.prefix {
			t.Errorf("%s: PrefixBounds(%q) = %v, %v, %v", tt.rule, tt.prefix, lo, hi, err)
		}
		// Just outside the bounds, the prefix no longer matches.
		if lo > 0 && (lo - 1).String()[:len(tt.prefix)] == tt.prefix {
			t.Errorf("%s: %v also starts with %q", tt.rule, lo-1, tt.prefix)
		}
		if hi < math.MaxUint64 && (hi + 1).String()[:len(tt.prefix)] == tt.prefix {
			t.Errorf("%s: %v also starts with %q", tt.rule, hi+1, tt.prefix)
		}
	}
}

func TestPrefixErrors(t *testing.T) {
	tests := []struct {
		rule   string
		prefix string
		offset int
		err    error
	}{
		{"1 to 13 characters", "", -1, ErrSyntax},
		{"1 to 13 characters", "3kxnlhr3gxq23a", 13, ErrSyntax},
		{"alphabet", "3kx1", 3, ErrSyntax},
		{"no hyphens", "3kxn-lhr", 4, ErrSyntax},
		{"first character 2-j", "k", 0, ErrSyntax},
		{"DECISIONS rule 5: the top bit holds no time", "c", 0, ErrTopBit},
	}
	for _, tt := range tests {
		_, _, err := PrefixRange(tt.prefix)
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, tt.err) || pe.Offset != tt.offset {
			t.Errorf("%s: PrefixRange(%q) error = %v; want %v at offset %d", tt.rule, tt.prefix, err, tt.err, tt.offset)
		}
	}
	// The top bit is fine for PrefixBounds: it ranges over TIDs, not times.
	if lo, hi, err := PrefixBounds("c"); err != nil || lo != 1<<63 || hi != 1<<63|(1<<60-1) {
		t.Errorf("PrefixBounds(c) = %v, %v, %v", lo, hi, err)
	}
}
