// Package datetime reads and writes the Lexicon datetime format of the AT Protocol
// (https://atproto.com/specs/lexicon#datetime): the strict intersection of RFC 3339, ISO 8601 and
// WHATWG HTML that records carry in fields such as createdAt.
//
//	d, err := datetime.Parse(post.CreatedAt) // strict; keeps the string as it came
//	when := d.Time()                         // a time.Time in UTC
//	now := datetime.Now()                    // "2026-11-23T14:55:00.123Z": UTC, 'Z', milliseconds
//
// A [Datetime] keeps the string it was parsed from, so that a record decoded and encoded again
// keeps its bytes (and its CID): the spec warns that re-serializing a parsed datetime can change
// it (".12Z" and ".120Z" are the same instant). [Datetime.String], [Datetime.MarshalText] and
// [Datetime.Value] give that string back unchanged; [Datetime.Time] gives the instant.
//
// [Parse] accepts exactly
//
//	YYYY-MM-DD "T" HH:MM:SS [ "." 1 to 20 digits ] ( "Z" | ("+" / "-") HH:MM )
//
// with a real calendar date (proleptic Gregorian, years 0000 to 9999), hours 00–23, minutes and
// seconds 00–59 (no leap second: WHATWG has none), offsets up to ±23:59 but not "-00:00"
// (ISO 8601 forbids it), and an instant at or after 0000-01-01T00:00:00Z once the offset is
// applied (the spec disallows datetimes before year zero). The fraction is capped at 20 digits,
// the cap both reference implementations apply; the spec says "arbitrary", and [ParseLenient]
// reads longer ones. [ParseLenient] also reads the looser forms found in old records; its doc
// names each.
//
// Parse, ParseLenient and IsValid never allocate on valid input, nor do Time, Compare and
// AppendText; errors are *[Error] values matching [ErrInvalid] and [ErrSyntax] or [ErrRange].
// Everything is safe for concurrent use.
package datetime

import (
	"cmp"
	"strings"
	"time"
)

// A Datetime is a datetime string checked and read once: the string itself, and the instant and
// offset it names. It is a small comparable value: == holds when the strings are equal (the
// other fields follow from the string), so it works as a map key.
//
// The zero Datetime holds no datetime: [Datetime.IsValid] reports false (and [Datetime.IsZero]
// true), String returns "", and it marshals to empty text and to a NULL SQL value.
type Datetime struct {
	s    string
	sec  int64 // Unix seconds of the instant
	nsec int32 // nanoseconds, the first 9 fraction digits
	off  int16 // the written offset, in minutes east of UTC
}

// MaxFractionDigits is the most digits [Parse] accepts after the decimal point.
const MaxFractionDigits = 20

// Parse reads s as a Lexicon datetime, strictly (see the package doc). The Datetime keeps s
// itself, without a copy. Parse does not allocate unless it fails; the error is an *[Error].
func Parse(s string) (Datetime, error) {
	sec, nsec, off, ok := instant(s)
	if !ok {
		return Datetime{}, invalid(s)
	}
	return Datetime{s: s, sec: sec, nsec: nsec, off: off}, nil
}

// invalid builds Parse's error, out of line so that Parse stays small.
//
//go:noinline
func invalid(s string) error {
	off, reason, sentinel := problem(s)
	return newError(s, off, sentinel, reason)
}

// MustParse is like [Parse] but panics if s is not a valid datetime. It is intended for tests
// and hard-coded strings.
func MustParse(s string) Datetime {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// IsValid reports whether s is a valid Lexicon datetime, as [Parse] would accept it. It never
// allocates.
func IsValid(s string) bool {
	_, _, _, ok := instant(s)
	return ok
}

// Validate returns nil if s is a valid datetime and otherwise the *Error Parse would return.
func Validate(s string) error {
	_, err := Parse(s)
	return err
}

// String returns the datetime string exactly as it was parsed or made.
func (d Datetime) String() string { return d.s }

// IsValid reports whether d holds a datetime, that is, is not the zero Datetime: the verb every
// identifier type of the module has (netip's), the opposite of [Datetime.IsZero].
func (d Datetime) IsValid() bool { return d.s != "" }

// IsZero reports whether d is the zero Datetime, which holds no datetime. It is ![Datetime.IsValid],
// kept beside it because a type that stands in for time.Time is expected to have time.Time's
// IsZero (and encoding/json's omitzero calls it).
func (d Datetime) IsZero() bool { return d.s == "" }

// Time returns the instant d names, in UTC. Digits of the fraction past the ninth (below a
// nanosecond) do not reach it. The zero Datetime gives the Unix epoch; check [Datetime.IsValid].
func (d Datetime) Time() time.Time { return time.Unix(d.sec, int64(d.nsec)).UTC() }

// Offset returns the offset written in d, in seconds east of UTC: 0 for "Z" and "+00:00",
// -25200 for "-07:00". The local time as written is d.Time().In(time.FixedZone("", d.Offset())).
func (d Datetime) Offset() int { return int(d.off) * 60 }

// Compare returns -1, 0 or +1 as d is before, the same as, or after e. Datetimes order by
// instant, to the nanosecond; two strings for the same instant ("…:50.1Z", "…:50.100Z",
// "…:50.1+00:00") order bytewise as strings, so that Compare returns 0 only when d == e. To ask
// whether two datetimes name the same instant, use d.Time().Equal(e.Time()). The zero Datetime
// sorts first, as the zero values of the module's identifier types do.
func (d Datetime) Compare(e Datetime) int {
	// The zero value's instant fields say the Unix epoch: without this, it would sort between
	// 1969 and 1970 datetimes.
	if d.s == "" || e.s == "" {
		return strings.Compare(d.s, e.s)
	}
	if c := cmp.Compare(d.sec, e.sec); c != 0 {
		return c
	}
	if c := cmp.Compare(d.nsec, e.nsec); c != 0 {
		return c
	}
	return strings.Compare(d.s, e.s)
}

// AppendText appends d's string to b. It implements [encoding.TextAppender] and never fails.
func (d Datetime) AppendText(b []byte) ([]byte, error) { return append(b, d.s...), nil }

// MarshalText implements [encoding.TextMarshaler]: d's string as it was parsed, so that
// encoding/json writes a record's datetime back byte for byte. The zero Datetime gives empty
// text.
func (d Datetime) MarshalText() ([]byte, error) { return []byte(d.s), nil }

// UnmarshalText implements [encoding.TextUnmarshaler] with [Parse]'s strict rules. Empty text
// sets the zero Datetime, as MarshalText writes it. To read old records that may hold looser
// forms, decode the field as a string and call [ParseLenient].
func (d *Datetime) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*d = Datetime{}
		return nil
	}
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
