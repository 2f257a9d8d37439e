package tid

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"

	"github.com/atcore/atcore/internal/apitest"
)

func TestScan(t *testing.T) {
	want := MustParse("3kxnlhr3gxq23")
	tests := []struct {
		rule string
		src  any
		ok   bool
		is   error
	}{
		{"string column", "3kxnlhr3gxq23", true, nil},
		{"[]byte column", []byte("3kxnlhr3gxq23"), true, nil},
		{"binary column: the 8 bytes of Bytes", func() []byte { b := want.Bytes(); return b[:] }(), true, nil},
		{"binary column: 7 bytes", make([]byte, 7), false, ErrSyntax},
		{"binary column: 9 bytes", make([]byte, 9), false, ErrSyntax},
		{"strict syntax", "3kxn-lhr-3gxq-23", false, ErrSyntax},
		{"strict syntax, []byte", []byte("3KXNLHR3GXQ23"), false, ErrSyntax},
		{"NULL is not the zero TID", nil, false, nil},
		{"BIGINT column", int64(want), true, nil},
		{"unsigned BIGINT column", uint64(want), true, nil},
		{"BIGINT: negative means the top bit", int64(-1), false, ErrTopBit},
		{"BIGINT: the smallest int64", int64(-1 << 63), false, ErrTopBit},
		{"unsigned BIGINT: the top bit", uint64(1 << 63), false, ErrTopBit},
		{"other column types are refused", 1.5, false, nil},
		{"int is not a driver value", int(want), false, nil},
	}
	for _, tt := range tests {
		var got TID
		err := got.Scan(tt.src)
		if tt.ok {
			if err != nil || got != want {
				t.Errorf("%s: Scan = %v, %v; want %v", tt.rule, got, err, want)
			}
			continue
		}
		if err == nil || got != 0 {
			t.Errorf("%s: Scan = %v, %v; want an error", tt.rule, got, err)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v does not match %v", tt.rule, err, tt.is)
		}
	}
}

// A TID stored in a binary column (its Bytes) comes back as the same TID, the top bit included:
// the binary form holds every value.
func TestScanBinaryRoundTrip(t *testing.T) {
	for _, id := range []TID{0, 1, MustParse("3kxnlhr3gxq23"), MustParse("jzzzzzzzzzzzz")} {
		b := id.Bytes()
		var got TID
		if err := got.Scan(b[:]); err != nil || got != id {
			t.Errorf("Scan(% x) = %v, %v; want %v", b, got, err, id)
		}
	}
}

// A TID stored as a BIGINT comes back as the same TID, at both ends of the range a generator
// issues.
func TestScanBigIntRoundTrip(t *testing.T) {
	for _, id := range []TID{0, 1, MustParse("3kxnlhr3gxq23"), MustParse("bzzzzzzzzzzzz")} {
		var got TID
		if err := got.Scan(int64(id)); err != nil || got != id {
			t.Errorf("Scan(int64(%v)) = %v, %v", id, got, err)
		}
	}
	var got TID
	err := got.Scan(int64(-5))
	if want := "tid: cannot scan the integer -5 into a TID: TID has the top bit set (a negative BIGINT)"; err == nil || err.Error() != want {
		t.Errorf("Scan(-5) error = %v, want %s", err, want)
	}
}

func TestScanNullable(t *testing.T) {
	var n sql.Null[TID]
	if err := n.Scan(nil); err != nil || n.Valid {
		t.Errorf("sql.Null[TID].Scan(nil) = %+v, %v", n, err)
	}
	if err := n.Scan("3kxnlhr3gxq23"); err != nil || !n.Valid || n.V != MustParse("3kxnlhr3gxq23") {
		t.Errorf("sql.Null[TID].Scan = %+v, %v", n, err)
	}
}

func TestValue(t *testing.T) {
	var _ driver.Valuer = TID(0)
	var _ sql.Scanner = (*TID)(nil)
	v, err := MustParse("3kxnlhr3gxq23").Value()
	if s, ok := v.(string); err != nil || !ok || s != "3kxnlhr3gxq23" {
		t.Errorf("Value() = %#v, %v", v, err)
	}
	if !driver.IsValue(v) {
		t.Errorf("Value() = %T, not a driver.Value", v)
	}
}

// The module's rule for database/sql, shared with every identifier type (internal/apitest), with
// its one exception: the zero TID is a TID, so NULL is refused.
func TestSQLRule(t *testing.T) {
	apitest.CheckSQL[TID](t, apitest.SQLCase{
		Valid:      []string{"3kxnlhr3gxq23", "2222222222222"},
		Invalid:    "3kxn-lhr-3gxq-23",
		InvalidIs:  ErrSyntax,
		NullIsZero: false,
	})
}
