package tid

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"
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
		{"strict syntax", "3kxn-lhr-3gxq-23", false, ErrSyntax},
		{"strict syntax, []byte", []byte("3KXNLHR3GXQ23"), false, ErrSyntax},
		{"NULL is not the zero TID", nil, false, nil},
		{"integers are not accepted", int64(want), false, nil},
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
