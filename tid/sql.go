package tid

import (
	"database/sql/driver"
	"fmt"
)

// Scan implements [database/sql.Scanner]: it reads the 13-character canonical form from a
// string or []byte column, with [Parse]'s strict rules.
//
// Scanning NULL is an error, because the zero TID is itself a valid TID and a NULL must not pass
// for it. Scan a nullable column into a *TID (nil for NULL) or a
//
//	var rev sql.Null[tid.TID]
func (t *TID) Scan(src any) error {
	var v TID
	var err error
	switch s := src.(type) {
	case string:
		v, err = Parse(s)
	case []byte:
		v, err = Parse(string(s))
	case nil:
		return fmt.Errorf("tid: cannot scan NULL into a TID (use sql.Null[tid.TID])")
	default:
		return fmt.Errorf("tid: cannot scan a %T into a TID (want a string or []byte)", src)
	}
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Value implements [database/sql/driver.Valuer]: the 13-character canonical form, which sorts
// in a text column as the TIDs do.
func (t TID) Value() (driver.Value, error) { return t.String(), nil }
