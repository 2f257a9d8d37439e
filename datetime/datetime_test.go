package datetime

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/atcore/atcore/internal/testvec"
)

// checkError asserts what every error of this package promises: an *Error matching ErrInvalid,
// a bounded echo, an offset inside the input (or -1), and the documented message shape.
func checkError(t *testing.T, err error, input string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %T is not an *Error", input, err)
	}
	if e.Kind != "datetime" || e.Len != len(input) || len(e.Input) > 64 || !strings.HasPrefix(input, e.Input) {
		t.Fatalf("%q: bad error fields %+v", input, *e)
	}
	if e.Offset < -1 || e.Offset > len(input) {
		t.Fatalf("%q: offset %d outside the input", input, e.Offset)
	}
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrRange) {
		t.Fatalf("%q: %v matches neither ErrSyntax nor ErrRange", input, err)
	}
	if msg := e.Error(); !strings.HasPrefix(msg, `invalid datetime "`) || len(msg) > 600 {
		t.Fatalf("%q: message %q", input, msg)
	}
	return e
}

func TestVectorsValid(t *testing.T) {
	for _, s := range testvec.Syntax(t, "datetime_syntax_valid.txt") {
		d, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if d.String() != s || !IsValid(s) {
			t.Errorf("Parse(%q).String() = %q, IsValid = %v", s, d.String(), IsValid(s))
		}
		// The instant agrees with the standard library's RFC 3339 reader.
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Errorf("time.Parse(%q): %v", s, err)
		} else if !d.Time().Equal(want) {
			t.Errorf("Parse(%q).Time() = %v, want %v", s, d.Time(), want)
		}
	}
}

func TestVectorsInvalid(t *testing.T) {
	for _, file := range []struct {
		name string
		is   error
	}{
		{"datetime_syntax_invalid.txt", ErrSyntax},
		{"datetime_parse_invalid.txt", ErrRange},
	} {
		for _, s := range testvec.Syntax(t, file.name) {
			_, err := Parse(s)
			if err == nil || IsValid(s) {
				t.Errorf("%s: Parse(%q) accepted it (IsValid = %v)", file.name, s, IsValid(s))
				continue
			}
			checkError(t, err, s)
			if !errors.Is(err, file.is) {
				t.Errorf("%s: Parse(%q) = %v, want it to match %v", file.name, s, err, file.is)
			}
		}
	}
}

// TestRules takes each rule of https://atproto.com/specs/lexicon#datetime (and of the package
// doc) at and just past its edge.
func TestRules(t *testing.T) {
	tests := []struct {
		rule, in string
		offset   int   // for invalid rows
		is       error // nil: valid
	}{
		{"preferred form", "1985-04-12T23:20:50.123Z", 0, nil},
		{"whole seconds", "1985-04-12T23:20:50Z", 0, nil},
		{"one fraction digit", "1985-04-12T23:20:50.1Z", 0, nil},
		{"20 fraction digits, the cap", "1985-04-12T23:20:50.12345678901234567890Z", 0, nil},
		{"21 fraction digits", "1985-04-12T23:20:50.123456789012345678901Z", 40, ErrSyntax},
		{"point without digits", "1985-04-12T23:20:50.Z", 20, ErrSyntax},
		{"comma as decimal mark", "1985-04-12T23:20:50,123Z", 19, ErrSyntax},
		{"year 0000", "0000-01-01T00:00:00Z", 0, nil},
		{"year 9999, last instant", "9999-12-31T23:59:59.999999999Z", 0, nil},
		{"five-digit year", "10000-01-01T00:00:00Z", 4, ErrSyntax},
		{"sign before year", "+1985-04-12T23:20:50Z", 0, ErrSyntax},
		{"month 01", "1985-01-12T23:20:50Z", 0, nil},
		{"month 12", "1985-12-12T23:20:50Z", 0, nil},
		{"month 00", "1985-00-12T23:20:50Z", 5, ErrRange},
		{"month 13", "1985-13-12T23:20:50Z", 5, ErrRange},
		{"day 00", "1985-04-00T23:20:50Z", 8, ErrRange},
		{"day 30 of April", "1985-04-30T23:20:50Z", 0, nil},
		{"day 31 of April", "1985-04-31T23:20:50Z", 8, ErrRange},
		{"day 31 of December", "1985-12-31T23:20:50Z", 0, nil},
		{"day 32", "1985-01-32T23:20:50Z", 8, ErrRange},
		{"29 February of a leap year", "2024-02-29T00:00:00Z", 0, nil},
		{"29 February of a common year", "2023-02-29T00:00:00Z", 8, ErrRange},
		{"29 February 1900 (not leap)", "1900-02-29T00:00:00Z", 8, ErrRange},
		{"29 February 2000 (leap)", "2000-02-29T00:00:00Z", 0, nil},
		{"29 February 0000 (leap)", "0000-02-29T00:00:00Z", 0, nil},
		{"hour 23", "1985-04-12T23:59:59Z", 0, nil},
		{"hour 24", "1985-04-12T24:00:00Z", 11, ErrRange},
		{"minute 60", "1985-04-12T23:60:00Z", 14, ErrRange},
		{"second 60 (leap second)", "1985-04-12T23:59:60Z", 17, ErrRange},
		{"one-digit hour", "1985-04-12T3:20:50Z", 12, ErrSyntax},
		{"three-digit second", "1985-04-12T23:20:500Z", 19, ErrSyntax},
		{"lower-case t", "1985-04-12t23:20:50Z", 10, ErrSyntax},
		{"space for T", "1985-04-12 23:20:50Z", 10, ErrSyntax},
		{"lower-case z", "1985-04-12T23:20:50z", 19, ErrSyntax},
		{"no time zone", "1985-04-12T23:20:50", 19, ErrSyntax},
		{"no seconds", "1985-04-12T23:20Z", 16, ErrSyntax},
		{"date only", "1985-04-12", 10, ErrSyntax},
		{"empty", "", -1, ErrSyntax},
		{"offset +00:00", "1985-04-12T23:20:50+00:00", 0, nil},
		{"offset +23:59", "1985-04-12T23:20:50+23:59", 0, nil},
		{"offset -23:59", "1985-04-12T23:20:50-23:59", 0, nil},
		{"offset +24:00", "1985-04-12T23:20:50+24:00", 20, ErrRange},
		{"offset +00:60", "1985-04-12T23:20:50+00:60", 23, ErrRange},
		{"offset -00:00", "1985-04-12T23:20:50-00:00", 19, ErrSyntax},
		{"offset -00:01", "1985-04-12T23:20:50-00:01", 0, nil},
		{"offset without colon", "1985-04-12T23:20:50+0000", 19, ErrSyntax},
		{"offset hours only", "1985-04-12T23:20:50+00", 19, ErrSyntax},
		{"offset with seconds", "1985-04-12T23:20:50+00:00:00", 25, ErrSyntax},
		{"text after Z", "1985-04-12T23:20:50ZZ", 20, ErrSyntax},
		{"first instant, Z", "0000-01-01T00:00:00.000Z", 0, nil},
		{"first instant, behind UTC", "0000-01-01T00:00:00-01:00", 0, nil},
		{"first instant via offset", "0000-01-01T01:00:00+01:00", 0, nil},
		{"before year zero via offset", "0000-01-01T00:59:59.999+01:00", 23, ErrRange},
		{"NUL at start", "\x001985-04-12T23:20:50Z", 0, ErrSyntax},
		{"NUL at end", "1985-04-12T23:20:50Z\x00", 20, ErrSyntax},
		{"space at start", " 1985-04-12T23:20:50Z", 0, ErrSyntax},
		{"space at end", "1985-04-12T23:20:50Z ", 20, ErrSyntax},
		{"newline at end", "1985-04-12T23:20:50Z\n", 20, ErrSyntax},
		{"non-ASCII digit", "1985-04-12T23:20:5٠Z", 18, ErrSyntax},
		{"en dash", "1985–04-12T23:20:50Z", 4, ErrSyntax},
		// The layout's letters name the fields; in a digit's place they are bad characters.
		{"layout letters for the year", "YYYY-04-12T23:20:50Z", 0, ErrSyntax},
		{"layout letters for the month", "1985-MM-12T23:20:50Z", 5, ErrSyntax},
		{"layout letter in the day", "1985-04-1DT23:20:50Z", 9, ErrSyntax},
		{"layout letter in the hour", "1985-04-12TH3:20:50Z", 11, ErrSyntax},
		{"layout letter in the minute", "1985-04-12T23:2M:50Z", 15, ErrSyntax},
		{"layout letter in the second", "1985-04-12T23:20:5SZ", 18, ErrSyntax},
	}
	for _, tt := range tests {
		d, err := Parse(tt.in)
		if tt.is == nil {
			if err != nil || d.String() != tt.in {
				t.Errorf("%s: Parse(%q) = %v, %v; want it valid", tt.rule, tt.in, d, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: Parse(%q) accepted it", tt.rule, tt.in)
			continue
		}
		e := checkError(t, err, tt.in)
		if !errors.Is(err, tt.is) || e.Offset != tt.offset {
			t.Errorf("%s: Parse(%q) = %v (offset %d); want %v at offset %d", tt.rule, tt.in, err, e.Offset, tt.is, tt.offset)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1985-04-12T23:20:50.123z", `invalid datetime "1985-04-12T23:20:50.123z": 'z' at offset 23: the time zone must be upper-case 'Z'`},
		{"1985-04-31T23:20:50Z", `invalid datetime "1985-04-31T23:20:50Z": day 31 at offset 8 is out of range: 1985-04 has 30 days`},
		{"1985-04-12T23:20:50.123-00:00", `invalid datetime "1985-04-12T23:20:50.123-00:00": offset -00:00 at offset 23 is not allowed (ISO 8601); write Z or +00:00`},
		{"0000-01-01T00:00:00+01:00", `invalid datetime "0000-01-01T00:00:00+01:00": the instant is before 0000-01-01T00:00:00Z once the offset +01:00 is applied`},
		{"1985-04-12T23:20:50.123", `invalid datetime "1985-04-12T23:20:50.123": no time zone: end with 'Z' or an offset like +00:00`},
		{"01985-04-12T23:20:50.123Z", `invalid datetime "01985-04-12T23:20:50.123Z": '5' at offset 4: the year (4 digits) has too many digits`},
		{"1985-04-12 23:20:50Z", `invalid datetime "1985-04-12 23:20:50Z": ' ' at offset 10: date and time must be separated by 'T' (ISO 8601), not a space or another character`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) error:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestLongInputEchoBounded(t *testing.T) {
	s := "1985-04-12T23:20:50." + strings.Repeat("1", 1<<20) + "Z"
	_, err := Parse(s)
	e := checkError(t, err, s)
	if e.Offset != 40 || len(e.Input) > 64 {
		t.Errorf("offset %d, echo %d bytes", e.Offset, len(e.Input))
	}
}

func TestTimeAndOffset(t *testing.T) {
	tests := []struct {
		in     string
		utc    string // the instant, RFC 3339 in UTC
		offset int
	}{
		{"1985-04-12T23:20:50.123Z", "1985-04-12T23:20:50.123Z", 0},
		{"1985-04-12T23:20:50.123-07:00", "1985-04-13T06:20:50.123Z", -7 * 3600},
		{"1985-04-12T23:20:50.123+01:45", "1985-04-12T21:35:50.123Z", 105 * 60},
		{"1985-04-12T23:20:50.1234567891234Z", "1985-04-12T23:20:50.123456789Z", 0},
		{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z", 0},
		{"0000-03-01T00:00:00Z", "0000-03-01T00:00:00Z", 0},
		{"1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z", 0},
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z", 0},
		{"2000-01-01T00:00:00-23:59", "2000-01-01T23:59:00Z", -(23*3600 + 59*60)},
	}
	for _, tt := range tests {
		d := MustParse(tt.in)
		if got := d.Time().Format(time.RFC3339Nano); got != tt.utc {
			t.Errorf("%s: Time() = %s, want %s", tt.in, got, tt.utc)
		}
		if d.Time().Location() != time.UTC {
			t.Errorf("%s: Time() not in UTC", tt.in)
		}
		if d.Offset() != tt.offset {
			t.Errorf("%s: Offset() = %d, want %d", tt.in, d.Offset(), tt.offset)
		}
	}
}

// Days map to the instant the standard library computes (the date written from time.Time's
// calendar, the instant read back by instant): every day of the years 0000-0004, 1896-2104 and
// 9996-9999, and every 11th day of the rest of 0000-9999 (the whole range, day by day, is 17 s
// under the race detector on a loaded machine).
func TestEveryDay(t *testing.T) {
	first, end := int64(minUnix/86400), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix()/86400
	dense := func(day int64) bool {
		y := time.Unix(day*86400, 0).UTC().Year()
		return y <= 4 || y >= 1896 && y <= 2104 || y >= 9996
	}
	var buf []byte
	checked := 0
	for day := first; day < end; day++ {
		if day%11 != 0 && !dense(day) {
			continue
		}
		checked++
		want := time.Unix(day*86400+45296, 0).UTC() // 12:34:56 each day
		buf = appendUTC(buf[:0], want, 3)
		sec, nsec, off, ok := instant(buf)
		if !ok || sec != want.Unix() || nsec != 0 || off != 0 {
			t.Fatalf("instant(%s) = %d, %d, %d, %v; want %d", buf, sec, nsec, off, ok, want.Unix())
		}
	}
	if checked < 400_000 {
		t.Fatalf("checked %d days", checked)
	}
}

// parseOrZero is MustParse, with "" for the zero Datetime.
func parseOrZero(s string) Datetime {
	if s == "" {
		return Datetime{}
	}
	return MustParse(s)
}

func TestCompare(t *testing.T) {
	ordered := []string{
		"", // the zero Datetime sorts first
		"0000-01-01T00:00:00Z",
		"1969-12-31T23:59:59.999Z", // the zero value's instant fields say 1970: it must not sort here
		"1970-01-01T00:00:00Z",
		"1985-04-12T23:20:50.1+00:00", // same instant, ordered by string
		"1985-04-12T23:20:50.100Z",
		"1985-04-12T23:20:50.1Z",
		"1985-04-12T16:20:50.2-07:00", // later instant, earlier wall clock
		"1985-04-12T23:20:51Z",
	}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := parseOrZero(a).Compare(parseOrZero(b)); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
			if (parseOrZero(a) == parseOrZero(b)) != (i == j) {
				t.Errorf("%s == %s is %v", a, b, i != j)
			}
		}
	}
}

func TestZero(t *testing.T) {
	var d Datetime
	if !d.IsZero() || d.String() != "" || MustParse("1985-04-12T23:20:50Z").IsZero() {
		t.Error("IsZero")
	}
	if d.IsValid() || !MustParse("1985-04-12T23:20:50Z").IsValid() {
		t.Error("IsValid")
	}
	if b, err := d.MarshalText(); err != nil || len(b) != 0 {
		t.Errorf("zero MarshalText = %q, %v", b, err)
	}
	d = MustParse("1985-04-12T23:20:50Z")
	if err := d.UnmarshalText(nil); err != nil || !d.IsZero() {
		t.Errorf("UnmarshalText(empty) = %v, %v", d, err)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("1985-04-12")
}

func TestAllocs(t *testing.T) {
	s := "1985-04-12T23:20:50.123456-07:00"
	lenient := "1985-04-12 23:20:50.123456+0700"
	d := MustParse(s)
	var buf [64]byte
	for name, f := range map[string]func(){
		"Parse":        func() { _, _ = Parse(s) },
		"IsValid":      func() { _ = IsValid(s) },
		"ParseLenient": func() { _, _ = ParseLenient(lenient) },
		"Time":         func() { _ = d.Time() },
		"Compare":      func() { _ = d.Compare(d) },
		"AppendText":   func() { _, _ = d.AppendText(buf[:0]) },
		"AppendTime":   func() { _, _ = AppendTime(buf[:0], d.Time()) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}
