package apitest

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// SQLCase describes an identifier type's database/sql behaviour for CheckSQL.
type SQLCase struct {
	// Valid are texts that parse; each is scanned, written and read back.
	Valid []string
	// Invalid is a text Parse rejects, and InvalidIs a sentinel its error must match.
	Invalid   string
	InvalidIs error
	// NullIsZero: NULL scans as the zero value and the zero value's Value is NULL, the module's
	// rule for a type whose zero value is no identifier. tid.TID, whose zero value is a valid
	// TID, refuses NULL instead.
	NullIsZero bool
}

// CheckSQL tests T's Scan and Value (T a value type, *T the sql.Scanner) against the module's
// rule: text (string or []byte, copied) read with Parse's strict rules; NULL per c.NullIsZero;
// Value writes the text as it was parsed; a bad text, an empty text or a column of another type
// is an error and leaves the destination unchanged. Then the same through database/sql itself,
// with a fake driver that reuses its []byte buffer from one row to the next.
func CheckSQL[T comparable, P interface {
	*T
	sql.Scanner
}](t *testing.T, c SQLCase) {
	t.Helper()
	var zero T
	str := func(v T) string { return fmt.Sprint(v) }
	value := func(v T) (driver.Value, error) { return any(v).(driver.Valuer).Value() }
	for _, s := range c.Valid {
		var v T
		if err := P(&v).Scan(s); err != nil || str(v) != s {
			t.Errorf("Scan(%q) = %v, %v", s, v, err)
			continue
		}
		buf := []byte(s)
		var w T
		err := P(&w).Scan(buf)
		for i := range buf {
			buf[i] = '#' // database/sql may reuse the buffer once Scan returns
		}
		if err != nil || w != v || str(w) != s {
			t.Errorf("Scan([]byte(%q)) = %q, %v after the buffer was overwritten: not copied?", s, str(w), err)
		}
		dv, err := value(v)
		if got, ok := dv.(string); err != nil || !ok || got != s || !driver.IsValue(dv) {
			t.Errorf("Value() of %q = %#v, %v", s, dv, err)
		}
		var back T
		if err := P(&back).Scan(dv); err != nil || back != v {
			t.Errorf("%q: Scan(Value()) = %v, %v", s, back, err)
		}

		keep := func(rule string, src any, wantErr func(error) bool) {
			t.Helper()
			x := v
			err := P(&x).Scan(src)
			if err == nil || !wantErr(err) || x != v {
				t.Errorf("%s: Scan(%#v) into %q = %q, %v; want that error and the value unchanged", rule, src, s, str(x), err)
			}
		}
		is := func(target error) func(error) bool {
			return func(err error) bool { return errors.Is(err, target) }
		}
		anyErr := func(error) bool { return true }
		keep("strict syntax", c.Invalid, is(c.InvalidIs))
		keep("strict syntax, []byte", []byte(c.Invalid), is(c.InvalidIs))
		keep("empty text is not NULL", "", is(c.InvalidIs))
		for _, src := range []any{1.5, true} {
			keep("column of another type", src, func(err error) bool {
				return strings.Contains(err.Error(), fmt.Sprintf("cannot scan a column value of type %T", src))
			})
		}
		if c.NullIsZero {
			x := v
			if err := P(&x).Scan(nil); err != nil || x != zero {
				t.Errorf("Scan(nil) into %q = %q, %v; want the zero value", s, str(x), err)
			}
		} else {
			keep("NULL refused", nil, anyErr)
		}
	}
	dv, err := value(zero)
	if c.NullIsZero && (dv != nil || err != nil) {
		t.Errorf("zero Value() = %#v, %v; want NULL", dv, err)
	}
	if !c.NullIsZero && (dv == nil || err != nil) {
		t.Errorf("zero Value() = %#v, %v; want the zero value's text", dv, err)
	}
	checkThroughDatabaseSQL[T, P](t, c)
}

// checkThroughDatabaseSQL writes c.Valid through database/sql and reads them back with the fake
// driver, into T and into sql.Null[T], and reads a NULL.
func checkThroughDatabaseSQL[T comparable, P interface {
	*T
	sql.Scanner
}](t *testing.T, c SQLCase) {
	t.Helper()
	db := sql.OpenDB(&fakeConnector{})
	defer db.Close()
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, s := range c.Valid {
		var v T
		if err := P(&v).Scan(s); err != nil {
			t.Fatal(err)
		}
		// database/sql calls Value and hands the driver its result.
		if _, err := conn.ExecContext(t.Context(), "INSERT", v); err != nil {
			t.Errorf("Exec with %q: %v", s, err)
		}
	}
	if _, err := conn.ExecContext(t.Context(), "INSERT", nil); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(t.Context(), "SELECT")
	if err != nil {
		t.Fatal(err)
	}
	var got []T
	var null []sql.Null[T]
	for rows.Next() {
		var v T
		var n sql.Null[T]
		if err := rows.Scan(&v, &n); err != nil && len(got) < len(c.Valid) {
			t.Errorf("row %d: %v", len(got), err)
		} else if err == nil && len(got) == len(c.Valid) && !c.NullIsZero {
			t.Errorf("NULL row scanned without error into %T", v)
		}
		got = append(got, v)
		null = append(null, n)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(c.Valid)+1 {
		t.Fatalf("read %d rows, wrote %d", len(got), len(c.Valid)+1)
	}
	for i, s := range c.Valid {
		if fmt.Sprint(got[i]) != s || !null[i].Valid || null[i].V != got[i] {
			t.Errorf("row %d read back as %q, %+v; wrote %q (the driver reuses its buffer: not copied?)", i, fmt.Sprint(got[i]), null[i], s)
		}
	}
	if last := null[len(c.Valid)]; last.Valid {
		t.Errorf("NULL read into sql.Null as %+v", last)
	}
}
