package lang

import (
	"database/sql/driver"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]: it reads a language tag from a text column (a string, or a
// []byte, which is copied: database/sql reuses the buffer) with [Parse]'s strict rules, so that a
// bad value in the database is reported as Parse reports it, located. NULL sets the zero Tag,
// which no text gives (an empty string is an error), so that a NULL is told apart and
// [Tag.Value] writes it back as NULL. Any other column type is an error that names it. On error,
// t is unchanged.
func (t *Tag) Scan(src any) error {
	return sqltext.Scan(t, src, "lang", "a Tag", Parse)
}

// Value implements [database/sql/driver.Valuer]: the tag as written, case included (tags are case-insensitive:
// compare them with strings.EqualFold, or in SQL without case), or NULL for
// the zero Tag.
func (t Tag) Value() (driver.Value, error) {
	if !t.IsValid() {
		return nil, nil
	}
	return t.String(), nil
}
