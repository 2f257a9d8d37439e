package did

import (
	"database/sql/driver"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]: it reads a DID from a text column (a string, or a
// []byte, which is copied: database/sql reuses the buffer) with [Parse]'s strict rules, so that a
// bad value in the database is reported as Parse reports it, located. NULL sets the zero DID,
// which no text gives (an empty string is an error), so that a NULL is told apart and
// [DID.Value] writes it back as NULL. Any other column type is an error that names it. On error,
// d is unchanged.
func (d *DID) Scan(src any) error {
	return sqltext.Scan(d, src, "did", "a DID", Parse)
}

// Value implements [database/sql/driver.Valuer]: the DID as written, or NULL for
// the zero DID.
func (d DID) Value() (driver.Value, error) {
	if !d.IsValid() {
		return nil, nil
	}
	return d.String(), nil
}
