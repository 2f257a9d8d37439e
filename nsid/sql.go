package nsid

import (
	"database/sql/driver"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]: it reads an NSID from a text column (a string, or a
// []byte, which is copied: database/sql reuses the buffer) with [Parse]'s strict rules, so that a
// bad value in the database is reported as Parse reports it, located. NULL sets the zero NSID,
// which no text gives (an empty string is an error), so that a NULL is told apart and
// [NSID.Value] writes it back as NULL. Any other column type is an error that names it. On error,
// n is unchanged.
func (n *NSID) Scan(src any) error {
	return sqltext.Scan(n, src, "nsid", "an NSID", Parse)
}

// Value implements [database/sql/driver.Valuer]: the NSID as written (store Normalize'd NSIDs in a column
// that is compared or unique: the authority is case-insensitive), or NULL for
// the zero NSID.
func (n NSID) Value() (driver.Value, error) {
	if !n.IsValid() {
		return nil, nil
	}
	return n.String(), nil
}
