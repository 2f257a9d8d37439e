package tid

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/base32sort"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/testvec"
)

// specRegex is the reference regex of https://atproto.com/specs/tid, used as the oracle (DECISIONS rule 4).
var specRegex = regexp.MustCompile("^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$")

// Compile-time checks of the interfaces TID promises.
var (
	_ encoding.TextAppender    = TID(0)
	_ encoding.TextMarshaler   = TID(0)
	_ encoding.TextUnmarshaler = (*TID)(nil)
)

// Examples from https://atproto.com/specs/tid, "Examples".
var (
	specValid   = []string{"3jzfcijpj2z2a", "7777777777777", "3zzzzzzzzzzzz", "2222222222222"}
	specInvalid = []string{
		"3jzfcijpj2z21", "0000000000000", // not base32
		"3JZFCIJPJ2Z2A",                         // case-sensitive
		"3jzfcijpj2z2aa", "3jzfcijpj2z2", "222", // too long/short
		"3jzf-cij-pj2z-2a",               // legacy dash syntax not supported
		"zzzzzzzzzzzzz", "kjzfcijpj2z2a", // high bit can't be set
	}
)

func TestConstants(t *testing.T) {
	// https://atproto.com/specs/tid, "TID Structure": 13 characters; 53 bits of microseconds, 10 of clock id.
	if Len != base32sort.Len || MaxClockID != 1<<clockBits-1 || MaxUnixMicro != 1<<53-1 || clockBits != 10 {
		t.Errorf("Len %d, MaxClockID %d, MaxUnixMicro %d, clockBits %d", Len, MaxClockID, int64(MaxUnixMicro), clockBits)
	}
}

func TestParseVectors(t *testing.T) {
	valid := append(testvec.Syntax(t, "tid_syntax_valid.txt"), specValid...)
	invalid := append(testvec.Syntax(t, "tid_syntax_invalid.txt"), specInvalid...)
	for _, s := range valid {
		if !specRegex.MatchString(s) {
			t.Fatalf("oracle disagrees with valid vector %q", s)
		}
		got, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if got.String() != s {
			t.Errorf("Parse(%q).String() = %q", s, got.String())
		}
		if !IsValid(s) {
			t.Errorf("IsValid(%q) = false", s)
		}
	}
	for _, s := range invalid {
		if specRegex.MatchString(s) {
			t.Fatalf("oracle disagrees with invalid vector %q", s)
		}
		if got, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, want error", s, got)
		} else if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error %v does not match ErrSyntax", s, err)
		}
		if IsValid(s) {
			t.Errorf("IsValid(%q) = true", s)
		}
	}
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		rule string
		in   string
		want TID
	}{
		{"spec: integer zero is 2222222222222", "2222222222222", 0},
		{"one in the last character", "2222222222223", 1},
		{"largest TID with the top bit 0", "bzzzzzzzzzzzz", math.MaxInt64},
		{"DECISIONS rule 4: the regex allows the top bit", "c222222222222", 1 << 63},
		{"DECISIONS rule 4: largest string the regex accepts", "jzzzzzzzzzzzz", math.MaxUint64},
		{"DECISIONS rule 8 worked example", "3kxnlhr3gxq23", 1721407246480310<<10 | 1},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s: Parse(%q) = %d, %v; want %d", tt.rule, tt.in, got, err, tt.want)
		}
		if s := tt.want.String(); s != tt.in {
			t.Errorf("%s: String() = %q, want %q", tt.rule, s, tt.in)
		}
	}
}

func TestParseError(t *testing.T) {
	long := strings.Repeat("2", 10000)
	tests := []struct {
		rule    string
		in      string
		offset  int
		message string
	}{
		{"length 13", "", -1, `invalid TID "": empty; a TID has 13 characters`},
		{"length 13", "222", 3, `invalid TID "222": a TID has 13 characters; this has 3`},
		{"length 13", "3jzfcijpj2z2aa", 13, `invalid TID "3jzfcijpj2z2aa": a TID has 13 characters; this has 14`},
		{"length before characters, as rkey's key type tid", "self", 4, `invalid TID "self": a TID has 13 characters; this has 4`},
		{"length before characters: upper case", "3JZFCIJPJ2Z2AA", 13, `invalid TID "3JZFCIJPJ2Z2AA": a TID has 13 characters; this has 14`},
		{"alphabet", "3jzfcijpj2z21", 12, `invalid TID "3jzfcijpj2z21": '1' at offset 12 is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz`},
		{"lower case only", "3JZFCIJPJ2Z2A", 1, `invalid TID "3JZFCIJPJ2Z2A": 'J' at offset 1: upper case is not allowed`},
		{"no hyphens: the legacy dashed form", "3jzf-cij-pj2z-2a", 4, `invalid TID "3jzf-cij-pj2z-2a": '-' at offset 4: hyphens (the legacy dashed form) are not allowed`},
		{"no hyphens: length first unless dashed", "3jzfc-ij-pj2z-2a", 13, `invalid TID "3jzfc-ij-pj2z-2a": a TID has 13 characters; this has 16`},
		{"no hyphens", "3jzf-cijpj2z2", 4, `invalid TID "3jzf-cijpj2z2": '-' at offset 4: hyphens (the legacy dashed form) are not allowed`},
		{"first character 2-j", "kjzfcijpj2z2a", 0, `invalid TID "kjzfcijpj2z2a": first character 'k' is above 'j': the value would not fit in 64 bits`},
		{"non-ASCII byte", "3jzfcijpj2z2\xff", 12, `invalid TID "3jzfcijpj2z2\xff": '\xff' at offset 12 is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz`},
		{"non-ASCII character", "3jzfcijpj2z\u00e9", 11, `invalid TID "3jzfcijpj2z\u00e9": '\u00e9' at offset 11 is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz`},
		{"space is not trimmed", " 3jzfcijpj2z2", 0, `invalid TID " 3jzfcijpj2z2": ' ' at offset 0 is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz`},
		{"bounded echo of huge input", long, 13, `invalid TID "` + long[:64] + `"… (10000 bytes): a TID has 13 characters; this has 10000`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: Parse(%q) error %v (%T), want *Error", tt.rule, tt.in, err, err)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: error does not match ErrSyntax", tt.rule)
		}
		if pe.Offset != tt.offset {
			t.Errorf("%s: Offset = %d, want %d", tt.rule, pe.Offset, tt.offset)
		}
		if err.Error() != tt.message {
			t.Errorf("%s: error\n got %s\nwant %s", tt.rule, err, tt.message)
		}
		if pe.Kind != "TID" || pe.Len != len(tt.in) {
			t.Errorf("%s: Kind %q, Len %d; want \"TID\", %d", tt.rule, pe.Kind, pe.Len, len(tt.in))
		}
		if len(pe.Input) > echo.Max || !strings.HasPrefix(tt.in, pe.Input) {
			t.Errorf("%s: Input = %q, want a prefix of at most %d bytes", tt.rule, pe.Input, echo.Max)
		}
	}
}

func TestParseLenient(t *testing.T) {
	tests := []struct {
		rule   string
		in     string
		want   TID
		offset int // -1: no error
	}{
		{"canonical form", "3jzfcijpj2z2a", MustParse("3jzfcijpj2z2a"), -1},
		{"DECISIONS rule 8: dashed form STTT-TTT-TTTT-CC", "3jzf-cij-pj2z-2a", MustParse("3jzfcijpj2z2a"), -1},
		{"dashed form of zero", "2222-222-2222-22", 0, -1},
		{"dashes misplaced", "3jzfc-ij-pj2z-2a", 0, 5},
		{"dash missing", "3jzfxcijxpj2zx2a", 0, 4},
		{"dashes missing one: length first", "3jzf-cij-pj2z2a", 0, 15},
		{"too long for the dashed form", "3jzf-cij-pj2z-2aa", 0, 16},
		{"too short", "3jzf", 0, 4},
		{"bad character in dashed form, group 2", "3jzf-c1j-pj2z-2a", 0, 6},
		{"bad character in dashed form, group 3", "3jzf-cij-pj1z-2a", 0, 11},
		{"first character above j in dashed form", "kjzf-cij-pj2z-2a", 0, 0},
		{"upper case in dashed form", "3jzf-cij-pj2z-2A", 0, 15},
		{"hyphen in the 13-character form", "3jzf-cijpj2z2", 0, 4},
	}
	for _, tt := range tests {
		got, err := ParseLenient(tt.in)
		if tt.offset < 0 {
			if err != nil || got != tt.want {
				t.Errorf("%s: ParseLenient(%q) = %v, %v; want %v", tt.rule, tt.in, got, err, tt.want)
			}
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: ParseLenient(%q) = %v, %v; want a *Error", tt.rule, tt.in, got, err)
			continue
		}
		if pe.Offset != tt.offset || pe.Input != tt.in {
			t.Errorf("%s: ParseLenient(%q): Offset %d, Input %q; want %d, the input (%v)", tt.rule, tt.in, pe.Offset, pe.Input, tt.offset, err)
		}
	}
	// The strict parser rejects every dashed form (https://atproto.com/specs/tid).
	if _, err := Parse("3jzf-cij-pj2z-2a"); err == nil {
		t.Error("Parse accepted the dashed form")
	}
}

func TestMustParse(t *testing.T) {
	if got := MustParse("3kxnlhr3gxq23"); got.String() != "3kxnlhr3gxq23" {
		t.Errorf("MustParse = %v", got)
	}
	defer func() {
		if err, ok := recover().(error); !ok || !errors.Is(err, ErrSyntax) {
			t.Errorf("MustParse(bad) panicked with %v, want a syntax error", err)
		}
	}()
	MustParse("3kxn-lhr-3gxq-23")
	t.Error("MustParse(bad) did not panic")
}

func TestDashed(t *testing.T) {
	tests := []struct{ rule, in, want string }{
		{"DECISIONS rule 8: the TID draft's worked example", "3kxnlhr3gxq23", "3kxn-lhr-3gxq-23"},
		{"zero", "2222222222222", "2222-222-2222-22"},
		{"spec example", "3jzfcijpj2z2a", "3jzf-cij-pj2z-2a"},
	}
	for _, tt := range tests {
		id := MustParse(tt.in)
		if got := id.Dashed(); got != tt.want {
			t.Errorf("%s: Dashed() = %q, want %q", tt.rule, got, tt.want)
		}
		if back, err := ParseLenient(id.Dashed()); err != nil || back != id {
			t.Errorf("%s: ParseLenient(Dashed()) = %v, %v", tt.rule, back, err)
		}
	}
}

func TestAccessors(t *testing.T) {
	tests := []struct {
		rule  string
		in    string
		micro int64
		time  string
		clock uint
		class ClockClass
	}{
		{"DECISIONS rule 8 worked example", "3kxnlhr3gxq23", 1721407246480310, "2024-07-19T16:40:46.48031Z", 1, BestEffort},
		{"DECISIONS rule 8: RFC 9562 vector 3iso34eqpw2", "3iso34eqpw222", 1645557742000000, "2022-02-22T19:22:22Z", 0, BestEffort},
		{"zero value: the epoch, clock 0", "2222222222222", 0, "1970-01-01T00:00:00Z", 0, BestEffort},
		{"DECISIONS rule 5: last microsecond", "bzzzzzzzzzzzz", MaxUnixMicro, "2255-06-05T23:47:34.740991Z", 1023, GloballyUnique},
		{"DECISIONS rule 7: clock 31 is best effort", "3kxnlhr3gxq2z", 1721407246480310, "2024-07-19T16:40:46.48031Z", 31, BestEffort},
		{"DECISIONS rule 7: clock 32 is context-dependent", "3kxnlhr3gxq32", 1721407246480310, "2024-07-19T16:40:46.48031Z", 32, ContextDependent},
		{"DECISIONS rule 7: clock 991 is context-dependent", "3kxnlhr3gxqyz", 1721407246480310, "2024-07-19T16:40:46.48031Z", 991, ContextDependent},
		{"DECISIONS rule 7: clock 992 is globally unique", "3kxnlhr3gxqz2", 1721407246480310, "2024-07-19T16:40:46.48031Z", 992, GloballyUnique},
		{"DECISIONS rule 4: the top bit holds no time", "c222222222223", 0, "1970-01-01T00:00:00Z", 1, BestEffort},
	}
	for _, tt := range tests {
		id := MustParse(tt.in)
		if got := id.UnixMicro(); got != tt.micro {
			t.Errorf("%s: UnixMicro() = %d, want %d", tt.rule, got, tt.micro)
		}
		tm := id.Time()
		if got := tm.Format("2006-01-02T15:04:05.999999999Z07:00"); got != tt.time || tm.Location().String() != "UTC" {
			t.Errorf("%s: Time() = %s (%s), want %s UTC", tt.rule, got, tm.Location(), tt.time)
		}
		if got := id.ClockID(); got != tt.clock {
			t.Errorf("%s: ClockID() = %d, want %d", tt.rule, got, tt.clock)
		}
		if got := id.ClockClass(); got != tt.class {
			t.Errorf("%s: ClockClass() = %v, want %v", tt.rule, got, tt.class)
		}
	}
}

func TestClockClassString(t *testing.T) {
	for c, want := range map[ClockClass]string{
		BestEffort: "best-effort", ContextDependent: "context-dependent", GloballyUnique: "globally-unique", 7: "ClockClass(7)",
	} {
		if got := c.String(); got != want {
			t.Errorf("ClockClass(%d).String() = %q, want %q", c, got, want)
		}
	}
}

func TestCompare(t *testing.T) {
	// base32-sortable: string order is numeric order (https://atproto.com/specs/tid).
	ids := []string{"2222222222222", "2222222222223", "3jzfcijpj2z2a", "3kxnlhr3gxq23", "bzzzzzzzzzzzz", "c222222222222"}
	for i, a := range ids {
		for j, b := range ids {
			want := strings.Compare(a, b)
			if got := MustParse(a).Compare(MustParse(b)); got != want || (i < j) != (MustParse(a) < MustParse(b)) {
				t.Errorf("Compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestText(t *testing.T) {
	id := MustParse("3kxnlhr3gxq23")
	b, err := id.AppendText([]byte("rev:"))
	if err != nil || string(b) != "rev:3kxnlhr3gxq23" {
		t.Errorf("AppendText = %q, %v", b, err)
	}
	b, err = id.MarshalText()
	if err != nil || string(b) != "3kxnlhr3gxq23" {
		t.Errorf("MarshalText = %q, %v", b, err)
	}
	var back TID
	if err := back.UnmarshalText(b); err != nil || back != id {
		t.Errorf("UnmarshalText(%q) = %v, %v", b, back, err)
	}
	if err := back.UnmarshalText([]byte("3KXNLHR3GXQ23")); !errors.Is(err, ErrSyntax) {
		t.Errorf("UnmarshalText(upper case) error = %v, want ErrSyntax", err)
	}
	if back != id {
		t.Errorf("failed UnmarshalText changed the value to %v", back)
	}
}

func TestJSON(t *testing.T) {
	type record struct {
		Rev  TID  `json:"rev"`
		Prev *TID `json:"prev"`
	}
	id := MustParse("3kxnlhr3gxq23")
	b, err := json.Marshal(record{Rev: id})
	if err != nil || string(b) != `{"rev":"3kxnlhr3gxq23","prev":null}` {
		t.Fatalf("json.Marshal = %s, %v", b, err)
	}
	var r record
	if err := json.Unmarshal([]byte(`{"rev":"3kxnlhr3gxq23","prev":"3jzfcijpj2z2a"}`), &r); err != nil ||
		r.Rev != id || r.Prev == nil || *r.Prev != MustParse("3jzfcijpj2z2a") {
		t.Fatalf("json.Unmarshal = %+v, %v", r, err)
	}
	// JSON null: a *TID becomes nil, a TID is left as it was (documented on UnmarshalText).
	if err := json.Unmarshal([]byte(`{"rev":null,"prev":null}`), &r); err != nil || r.Rev != id || r.Prev != nil {
		t.Errorf("json.Unmarshal(nulls) = %+v, %v; want rev unchanged, prev nil", r, err)
	}
	var pe *Error
	if err := json.Unmarshal([]byte(`{"rev":"3jzf-cij-pj2z-2a"}`), &r); !errors.As(err, &pe) {
		t.Errorf("json.Unmarshal(dashed) error = %v, want a *Error", err)
	}
	if err := json.Unmarshal([]byte(`{"rev":12}`), &r); err == nil {
		t.Error("json.Unmarshal(number) succeeded")
	}
}

func TestAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	id := MustParse("3kxnlhr3gxq23")
	in := []byte("3kxnlhr3gxq23")
	var sink TID
	tests := []struct {
		name string
		f    func()
	}{
		{"Parse", func() { sink, _ = Parse("3kxnlhr3gxq23") }},
		{"IsValid", func() { _ = IsValid("3kxnlhr3gxq23") }},
		{"ParseLenient/dashed", func() { sink, _ = ParseLenient("3kxn-lhr-3gxq-23") }},
		{"AppendText", func() { buf, _ = id.AppendText(buf[:0]) }},
		{"AppendBytes", func() { buf = id.AppendBytes(buf[:0]) }},
		{"FromBytes", func() { sink, _ = FromBytes(buf[:8]) }},
		{"UnmarshalText", func() { _ = sink.UnmarshalText(in) }},
		{"Next", func() { sink = Next() }},
		{"Generator.Next", func() { sink = std.Next() }},
		{"Time", func() { _ = id.Time() }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(1000, tt.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tt.name, n)
		}
	}
	_ = sink
}
