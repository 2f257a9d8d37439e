package aturi

import (
	"database/sql/driver"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]: it reads an AT URI from a text column (a string, or a
// []byte, which is copied: database/sql reuses the buffer) with [Parse]'s strict rules, so that a
// bad value in the database is reported as Parse reports it, located. NULL sets the zero URI,
// which no text gives (an empty string is an error), so that a NULL is told apart and
// [URI.Value] writes it back as NULL. Any other column type is an error that names it. On error,
// u is unchanged.
func (u *URI) Scan(src any) error {
	return sqltext.Scan(u, src, "aturi", "a URI", Parse)
}

// Value implements [database/sql/driver.Valuer]: the URI as written (store Normalize'd URIs in a column that
// is compared or unique), or NULL for
// the zero URI.
func (u URI) Value() (driver.Value, error) {
	if !u.IsValid() {
		return nil, nil
	}
	return u.String(), nil
}
