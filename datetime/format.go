package datetime

import (
	"time"
)

// FromTime returns t in the form the spec recommends for new records: UTC, a 'Z', and exactly
// three fraction digits, padded with zeros ("1985-04-12T23:20:50.120Z"). Digits past the
// millisecond are dropped (truncated, as time.Format does). The error, matching [ErrRange], is
// for a t whose UTC year is outside 0000 to 9999.
func FromTime(t time.Time) (Datetime, error) { return fromTime(t, 3) }

// Now returns the current time as [FromTime] writes it.
func Now() Datetime {
	d, _ := fromTime(time.Now(), 3) // the clock is within 0000 to 9999
	return d
}

// AppendTime appends t to b as [FromTime] writes it, without allocating when b has room
// (24 bytes). The error matches [ErrRange], as FromTime's.
func AppendTime(b []byte, t time.Time) ([]byte, error) {
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return b, timeError(t)
	}
	return appendUTC(b, t, 3), nil
}

// fromTime formats t in UTC with digits fraction digits (3, 6 or 9).
func fromTime(t time.Time, digits int) (Datetime, error) {
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return Datetime{}, timeError(t)
	}
	var buf [fixedLen + 1 + 9 + 1]byte
	s := string(appendUTC(buf[:0], t, digits))
	// Parsing what was written keeps the invariant that a Datetime's fields are those of its
	// string (here the instant truncated to the digits written).
	sec, nsec, off, _ := instant(s)
	return Datetime{s: s, sec: sec, nsec: nsec, off: off}, nil
}

// timeError reports a time that four year digits cannot hold.
func timeError(t time.Time) error {
	return newError(t.Format(time.RFC3339Nano), -1, ErrRange,
		"the year (in UTC) is outside 0000 to 9999, which a datetime's four year digits hold")
}

// appendUTC appends t, which must be in UTC with a year from 0 to 9999, with digits fraction
// digits (1 to 9) and a 'Z'.
func appendUTC(b []byte, t time.Time, digits int) []byte {
	year, month, day := t.Date()
	hour, minute, second := t.Clock()
	b = append(b,
		byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+month/10), byte('0'+month%10), '-',
		byte('0'+day/10), byte('0'+day%10), 'T',
		byte('0'+hour/10), byte('0'+hour%10), ':',
		byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+second/10), byte('0'+second%10), '.')
	frac := uint32(t.Nanosecond()) / pow10[digits]
	for k := digits - 1; k >= 0; k-- {
		b = append(b, 0)
	}
	for k := len(b) - 1; k >= len(b)-digits; k-- {
		b[k] = byte('0' + frac%10)
		frac /= 10
	}
	return append(b, 'Z')
}

// exactDigits returns the fewest fraction digits among 3, 6 and 9 that hold t's nanoseconds
// without loss.
func exactDigits(t time.Time) int {
	switch ns := t.Nanosecond(); {
	case ns%1e6 == 0:
		return 3
	case ns%1e3 == 0:
		return 6
	}
	return 9
}
