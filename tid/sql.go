package tid

import (
	"database/sql/driver"
	"fmt"

	"github.com/atcore/atcore/internal/sqltext"
)

// Scan implements [database/sql.Scanner]. It reads a TID from
//   - a text column (string or []byte): the 13-character canonical form, with [Parse]'s strict
//     rules;
//   - a binary column (BYTEA, BLOB, BINARY(8): []byte of 8 bytes, a length no text form has):
//     the binary form of [TID.Bytes], as [FromBytes] reads it;
//   - an integer column (int64, or uint64 from drivers of unsigned columns): the TID's 64-bit
//     value, which must not have the top bit set (a negative BIGINT), or the error matches
//     [ErrTopBit].
//
// Scanning NULL is an error, because the zero TID is itself a valid TID and a NULL must not pass
// for it: the identifier types of the module read NULL as their zero value only when it is no
// identifier (nsid.NSID, did.DID, datetime.Datetime, …). For the same reason [TID.Value] never
// writes NULL. Any other column type is an error that names it; on error, t is unchanged. Scan a
// nullable column into a *TID (nil for NULL) or a
//
//	var rev sql.Null[tid.TID]
//
// # Storing a TID as a BIGINT
//
// [TID.Value] writes the text form. To keep TIDs in a signed 64-bit integer column instead (8
// bytes rather than 13, and ordered as the TIDs are), pass the integer when writing and scan the
// column into a TID when reading:
//
//	db.Exec("INSERT INTO posts (rkey, body) VALUES ($1, $2)", int64(id), body)
//	db.QueryRow("SELECT rkey FROM posts ORDER BY rkey DESC LIMIT 1").Scan(&id)
//
// Every TID a generator issues, and every TID [FromTime] and [FromUnixMicro] return, has the top
// bit clear and so is a non-negative int64. A parsed TID that starts with c–j has it set: check
// id < 1<<63 before storing one as a BIGINT, since Scan refuses it on the way back.
func (t *TID) Scan(src any) error {
	var v TID
	var err error
	switch s := src.(type) {
	case string:
		v, err = Parse(s)
	case []byte:
		if len(s) == BytesLen {
			v, err = FromBytes(s)
		} else {
			v, err = Parse(string(s))
		}
	case int64:
		if s < 0 {
			return fmt.Errorf("tid: cannot scan the integer %d into a TID: %w (a negative BIGINT)", s, ErrTopBit)
		}
		v = TID(s)
	case uint64:
		if s&topBit != 0 {
			return fmt.Errorf("tid: cannot scan the integer %d into a TID: %w", s, ErrTopBit)
		}
		v = TID(s)
	case nil:
		return fmt.Errorf("tid: cannot scan NULL into a TID (use sql.Null[tid.TID])")
	default:
		return sqltext.TypeError(src, "tid", "a TID", "text, 8 bytes or an integer")
	}
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Value implements [database/sql/driver.Valuer]: the 13-character canonical form, which sorts
// in a text column as the TIDs do. (For an integer column, pass int64(t): see [TID.Scan].)
func (t TID) Value() (driver.Value, error) { return t.String(), nil }
