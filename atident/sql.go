package atident

import (
	"database/sql/driver"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]: it reads a DID or a handle from a text column (a string, or a
// []byte, which is copied: database/sql reuses the buffer) with [Parse]'s strict rules, so that a
// bad value in the database is reported as Parse reports it, located. NULL sets the zero ID,
// which no text gives (an empty string is an error), so that a NULL is told apart and
// [ID.Value] writes it back as NULL. Any other column type is an error that names it. On error,
// id is unchanged.
func (id *ID) Scan(src any) error {
	return sqltext.Scan(id, src, "atident", "an ID", Parse)
}

// Value implements [database/sql/driver.Valuer]: the DID or handle as written (store Normalize'd IDs in a column
// that is compared or unique: handles are case-insensitive), or NULL for
// the zero ID.
func (id ID) Value() (driver.Value, error) {
	if !id.IsValid() {
		return nil, nil
	}
	return id.String(), nil
}
