package datetime

import (
	"database/sql/driver"
	"time"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]. A string or []byte column (copied: database/sql
// reuses the buffer) is read with [Parse]'s strict rules and kept as it is; a time.Time (from a
// timestamp column) is written as [FromTime] does, but with as many fraction digits of 3, 6 or 9
// as it needs not to lose precision (a microsecond timestamp keeps its microseconds). NULL sets
// the zero Datetime, which no datetime string gives (an empty string is an error), so that NULL
// is told apart and [Datetime.Value] writes it back as NULL: the rule of every identifier type of
// the module whose zero value is no identifier. Any other column type is an error that names it;
// on error, d is unchanged.
func (d *Datetime) Scan(src any) error {
	var v Datetime
	var err error
	switch x := src.(type) {
	case string:
		v, err = Parse(x)
	case []byte:
		v, err = Parse(string(x))
	case time.Time:
		v, err = fromTime(x, exactDigits(x))
	case nil:
	default:
		return sqltext.TypeError(src, "datetime", "a Datetime", "text or a time.Time")
	}
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Value implements [database/sql/driver.Valuer]: d's string as it was parsed (so a record's
// bytes survive a round trip through a text column), or NULL for the zero Datetime. A Datetime
// read by [ParseLenient] from a form [Parse] rejects is written in its strict form instead (the
// same instant and offset, -00:00 as +00:00), which Scan, strict as it is, reads back.
func (d Datetime) Value() (driver.Value, error) {
	if d.s == "" {
		return nil, nil
	}
	return stored(d.s), nil
}

// stored returns s, a datetime that Parse or ParseLenient accepted, in the form Value writes: s
// itself when it is strict, else its strict form. Not inlined, so that Value is.
//
//go:noinline
func stored(s string) string {
	if IsValid(s) {
		return s
	}
	var buf [lenientMax]byte
	n, _, _ := rewrite(s, &buf)
	return string(buf[:n])
}
