package handle

import (
	"database/sql/driver"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]: it reads a handle from a text column (a string, or a
// []byte, which is copied: database/sql reuses the buffer) with [Parse]'s strict rules, so that a
// bad value in the database is reported as Parse reports it, located. NULL sets the zero Handle,
// which no text gives (an empty string is an error), so that a NULL is told apart and
// [Handle.Value] writes it back as NULL. Any other column type is an error that names it. On error,
// h is unchanged.
func (h *Handle) Scan(src any) error {
	return sqltext.Scan(h, src, "handle", "a Handle", Parse)
}

// Value implements [database/sql/driver.Valuer]: the handle as written (store Normalize'd handles in a column
// that is compared or unique: handles are case-insensitive), or NULL for
// the zero Handle.
func (h Handle) Value() (driver.Value, error) {
	if !h.IsValid() {
		return nil, nil
	}
	return h.String(), nil
}
