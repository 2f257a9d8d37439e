package datetime

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/atcore/atcore/internal/apitest"
)

var (
	_ sql.Scanner   = (*Datetime)(nil)
	_ driver.Valuer = Datetime{}
)

func TestScan(t *testing.T) {
	tests := []struct {
		rule string
		src  any
		want string // "" for the zero Datetime
		ok   bool
	}{
		{"string column kept as is", "1985-04-12T23:20:50.12+01:00", "1985-04-12T23:20:50.12+01:00", true},
		{"[]byte column", []byte("1985-04-12T23:20:50.123Z"), "1985-04-12T23:20:50.123Z", true},
		{"strict syntax", "1985-04-12 23:20:50.123Z", "", false},
		{"timestamp in milliseconds", time.Date(1985, 4, 12, 23, 20, 50, 120e6, time.UTC), "1985-04-12T23:20:50.120Z", true},
		{"timestamp in microseconds keeps them", time.Date(1985, 4, 12, 23, 20, 50, 123456e3, time.UTC), "1985-04-12T23:20:50.123456Z", true},
		{"timestamp in nanoseconds keeps them", time.Date(1985, 4, 12, 23, 20, 50, 1, time.UTC), "1985-04-12T23:20:50.000000001Z", true},
		{"NULL is the zero Datetime", nil, "", true},
		{"integers are not accepted", int64(5), "", false},
	}
	for _, tt := range tests {
		d := MustParse("2000-01-01T00:00:00Z")
		err := d.Scan(tt.src)
		if (err == nil) != tt.ok {
			t.Errorf("%s: Scan = %v", tt.rule, err)
			continue
		}
		if tt.ok && d.String() != tt.want {
			t.Errorf("%s: Scan gave %q, want %q", tt.rule, d, tt.want)
		}
		if tt.ok && tt.want != "" && d != MustParse(tt.want) {
			t.Errorf("%s: Scan's Datetime differs from Parse's", tt.rule)
		}
	}
	var d Datetime
	if err := d.Scan("1985-04-00T23:20:50Z"); !errors.Is(err, ErrRange) {
		t.Errorf("Scan of a bad string = %v, want ErrRange", err)
	}
}

func TestValue(t *testing.T) {
	if v, err := (Datetime{}).Value(); v != nil || err != nil {
		t.Errorf("zero Value = %v, %v; want NULL", v, err)
	}
	s := "1985-04-12T23:20:50.12-07:00"
	if v, err := MustParse(s).Value(); v != s || err != nil {
		t.Errorf("Value = %v, %v", v, err)
	}
}

// A record's datetime goes through encoding/json byte for byte, in whatever valid form it has.
func TestJSONRoundTrip(t *testing.T) {
	type record struct {
		CreatedAt Datetime  `json:"createdAt"`
		IndexedAt *Datetime `json:"indexedAt"`
	}
	in := `{"createdAt":"1985-04-12T23:20:50.12+01:00","indexedAt":null}`
	var r record
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(r)
	if err != nil || string(out) != in {
		t.Errorf("round trip: %s, %v", out, err)
	}
	err = json.Unmarshal([]byte(`{"createdAt":"1985-04-12T23:20:50.12"}`), &r)
	if !errors.Is(err, ErrSyntax) {
		t.Errorf("Unmarshal of a datetime without time zone = %v, want ErrSyntax", err)
	}
}

// The module's rule for database/sql, shared with every identifier type (internal/apitest).
func TestSQLRule(t *testing.T) {
	apitest.CheckSQL[Datetime](t, apitest.SQLCase{
		Valid:      []string{"1985-04-12T23:20:50.12+01:00", "2024-11-23T17:13:08.000Z"},
		Invalid:    "1985-04-12 23:20:50Z",
		InvalidIs:  ErrInvalid,
		NullIsZero: true,
	})
}
