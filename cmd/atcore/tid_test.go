package main

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atcore/atcore/tid"
)

func TestGoldenTid(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "tid-inspect", rule: "time, clock id and class, integer, dashed form; the legacy dashed form is read too",
			args: []string{"tid", "inspect", "3kxnlhr3gxq23", "2222222222222", "3iso34eqpw222", "3kxn-lhr-3gxq-23", "bzzzzzzzzzzzz"},
			code: exitOK},
		{name: "tid-inspect-stdin", rule: "with no TID, TIDs are read from standard input, one per line",
			args: []string{"tid", "inspect"}, stdin: []byte("3kxnlhr3gxq23\nnot-a-tid\n2222222222222\n"), code: exitData,
			stderrHas: []string{`"not-a-tid"`}},
		{name: "tid-inspect-json", rule: "-json: one JSON object per line",
			args: []string{"tid", "inspect", "-json", "3kxnlhr3gxq23", "7zzzzzzzzzzzz"}, code: exitOK},
		{name: "tid-inspect-invalid", rule: "each invalid TID named on standard error; the valid ones still print",
			args: []string{"tid", "inspect", "3kxnlhr3gxq2", "3kxnlhr3gxq23", "3KXNLHR3GXQ23", "kkkkkkkkkkkkk"},
			code: exitData, stderrHas: []string{`"3kxnlhr3gxq2"`, `"3KXNLHR3GXQ23"`, `"kkkkkkkkkkkkk"`}},
		{name: "tid-range", rule: "first and last instant of a prefix (DECISIONS 8)",
			args: []string{"tid", "range", "3kxn", "2", "3kxnlhr3gxq23"}, code: exitOK},
		{name: "tid-range-json", rule: "-json: one JSON object per line",
			args: []string{"tid", "range", "-json", "3kxn"}, code: exitOK},
		{name: "tid-range-invalid", rule: "a prefix no TID has is an error naming it",
			args: []string{"tid", "range", "3kxn!", "k"}, code: exitData, stderrHas: []string{`"3kxn!"`, `"k"`}},
		{name: "tid-at", rule: "smallest and largest TID of a microsecond",
			args: []string{"tid", "at", "2024-07-19T16:40:46.48031Z", "1970-01-01T00:00:00Z", "2024-07-19T09:40:46.48031-07:00"},
			code: exitOK},
		{name: "tid-at-json", rule: "-json: one JSON object per line",
			args: []string{"tid", "at", "-json", "2024-07-19T16:40:46.48031Z"}, code: exitOK},
		{name: "tid-at-invalid", rule: "times that are not RFC 3339 or out of the TID range are errors naming them",
			args: []string{"tid", "at", "yesterday", "1969-12-31T23:59:59Z", "2300-01-01T00:00:00Z"},
			code: exitData, stderrHas: []string{`"yesterday"`, "1969-12-31T23:59:59Z", "2300-01-01T00:00:00Z"}},
		{name: "tid-inspect-dash", rule: "\"-\" reads standard input, lines trimmed, blank ones skipped",
			args: []string{"tid", "inspect", "2222222222222", "-"}, stdin: []byte("\n  3kxnlhr3gxq23\t\r\n\n"), code: exitOK},
		{name: "tid-at-unix", rule: "Unix seconds (up to 11 digits) and microseconds (16 digits); milliseconds are ambiguous",
			args: []string{"tid", "at", "1721407246", "1721407246480310", "0", "1721407246480"},
			code: exitData, stderrHas: []string{`invalid time "1721407246480": 13 digits`}},
		{name: "tid-bad-n", rule: "-n out of range is a usage error",
			args: []string{"tid", "-n", "0"}, code: exitUsage, stderrHas: []string{"-n 0"}},
		{name: "tid-bad-clock", rule: "a clock id above 1023 is a usage error",
			args: []string{"tid", "-clock", "1024"}, code: exitUsage, stderrHas: []string{`invalid value "1024" for flag -clock: want a clock id from 0 to 1023`}},
		{name: "tid-extra-argument", rule: "tid takes no arguments, only its subcommands",
			args: []string{"tid", "3kxnlhr3gxq23"}, code: exitUsage, stderrHas: []string{`unexpected argument "3kxnlhr3gxq23"`}},
	})
}

// The worked example of DECISIONS 8, checked against the layout by hand there.
func TestTidWorkedExample(t *testing.T) {
	r := atcore(nil, "tid", "inspect", "3kxnlhr3gxq23")
	integer := uint64(1721407246480310)<<10 | 1 // microseconds, then 10 bits of clock id (DECISIONS 5)
	for _, want := range []string{"tid=3kxnlhr3gxq23 ", " time=2024-07-19T16:40:46.480310Z ", " clock=1 ",
		" integer=" + strconv.FormatUint(integer, 10) + " "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("inspect: %q lacks %q", r.stdout, want)
		}
	}
	r = atcore(nil, "tid", "range", "3kxn")
	if want := "2024-07-19T11:28:52.498432Z 2024-07-19T21:01:32.236799Z\n"; r.stdout != want {
		t.Errorf("range 3kxn: %q, want %q", r.stdout, want)
	}
	r = atcore(nil, "tid", "at", "2024-07-19T16:40:46.48031Z")
	lo, hi, _ := strings.Cut(strings.TrimSpace(r.stdout), " ")
	if lo[:11] != "3kxnlhr3gxq" || hi[:11] != "3kxnlhr3gxq" || lo >= "3kxnlhr3gxq23" || hi <= "3kxnlhr3gxq23" {
		t.Errorf("at: %q does not bracket 3kxnlhr3gxq23 within its microsecond", r.stdout)
	}
}

// Generated TIDs vary, so they are checked by property: count, syntax, strictly increasing,
// clock id, and close to now.
func TestTidGenerate(t *testing.T) {
	for _, tc := range []struct {
		rule      string
		args      []string
		count     int
		clockFrom uint
		clockTo   uint
	}{
		{"one TID by default, clock id in the best-effort range (DECISIONS 7)", []string{"tid"}, 1, 0, 31},
		{"-n N prints N TIDs", []string{"tid", "-n", "5000"}, 5000, 0, 31},
		{"-clock ID sets the clock id", []string{"tid", "-n", "100", "-clock", "500"}, 100, 500, 500},
		{"the largest clock id", []string{"tid", "-clock", "1023", "-n", "3"}, 3, 1023, 1023},
		{"clock id 0", []string{"tid", "-clock", "0", "-n", "3"}, 3, 0, 0},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			before := time.Now().Add(-time.Second)
			r := atcore(nil, tc.args...)
			after := time.Now().Add(time.Minute) // generous: bursts may run ahead of real time
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			out := lines(r.stdout)
			if len(out) != tc.count {
				t.Fatalf("%d lines, want %d", len(out), tc.count)
			}
			var prev tid.TID
			var clock uint
			for i, s := range out {
				id, err := tid.Parse(s)
				if err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if i > 0 && id <= prev {
					t.Fatalf("line %d: %s is not after %s", i, id, prev)
				}
				if i == 0 {
					clock = id.ClockID()
				}
				if id.ClockID() != clock || clock < tc.clockFrom || clock > tc.clockTo {
					t.Fatalf("line %d: clock id %d, want one id in %d-%d", i, id.ClockID(), tc.clockFrom, tc.clockTo)
				}
				if tm := id.Time(); tm.Before(before) || tm.After(after) {
					t.Fatalf("line %d: time %v is not now", i, tm)
				}
				prev = id
			}
		})
	}
}

// The -json forms are valid JSON, one object per line, with the fields the text form has.
func TestTidJSON(t *testing.T) {
	r := atcore(nil, "tid", "inspect", "-json", "3kxnlhr3gxq23", "2222222222222")
	out := lines(r.stdout)
	if r.code != exitOK || len(out) != 2 {
		t.Fatalf("exit %d, %d lines", r.code, len(out))
	}
	var info tidInfo
	if err := json.Unmarshal([]byte(out[0]), &info); err != nil {
		t.Fatal(err)
	}
	when, micro := "2024-07-19T16:40:46.480310Z", int64(1721407246480310)
	want := tidInfo{TID: "3kxnlhr3gxq23", Time: &when, UnixMicro: &micro, ClockID: 1,
		ClockClass: info.ClockClass, Integer: strconv.FormatUint(1721407246480310<<10|1, 10), Dashed: info.Dashed}
	if info.Time == nil || info.UnixMicro == nil || *info.Time != *want.Time || *info.UnixMicro != *want.UnixMicro {
		t.Fatalf("got %+v, want the time %s, %d µs", info, when, micro)
	}
	info.Time, info.UnixMicro = want.Time, want.UnixMicro
	if info != want {
		t.Errorf("got %+v, want %+v", info, want)
	}
}

// A TID with the top bit set (one starting with c-j) is valid syntax, but the bit holds no time
// (DECISIONS rules 4 and 5; "tid range" refuses such a prefix with tid.ErrTopBit): wherever a
// TID's time is printed, such a TID shows top-bit=true instead of a time computed with the bit
// masked off. TIDs without the bit show their time as before.
func TestTidTopBit(t *testing.T) {
	for _, tc := range []struct {
		rule    string
		args    []string
		has     []string // substrings of standard output
		hasNone []string // nor these
	}{
		{"tid inspect: no time for a TID with the top bit set",
			[]string{"tid", "inspect", "cjzfcijpj2z2a", "jzzzzzzzzzzzz"},
			[]string{"tid=cjzfcijpj2z2a top-bit=true clock=", "tid=jzzzzzzzzzzzz top-bit=true clock=1023 "},
			[]string{"time="}},
		{"tid inspect -json: top_bit instead of time and unix_micro",
			[]string{"tid", "inspect", "-json", "cjzfcijpj2z2a"},
			[]string{`{"tid":"cjzfcijpj2z2a","top_bit":true,"clock":`},
			[]string{`"time"`, `"unix_micro"`}},
		{"tid inspect -json: the epoch TID keeps its time and unix_micro 0",
			[]string{"tid", "inspect", "-json", "2222222222222"},
			[]string{`"time":"1970-01-01T00:00:00.000000Z","unix_micro":0,`}, []string{"top_bit"}},
		{"inspect: the TID line is tid inspect's",
			[]string{"inspect", "cjzfcijpj2z2a"},
			[]string{"tid=cjzfcijpj2z2a top-bit=true clock="}, []string{"time="}},
		{"inspect -json: top_bit, a boolean, instead of time",
			[]string{"inspect", "-json", "cjzfcijpj2z2a"},
			[]string{`{"kind":"tid","top_bit":true,"clock":`}, []string{`"time"`}},
		{"inspect of an AT URI whose record key has the top bit set: no time",
			[]string{"inspect", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/cjzfcijpj2z2a"},
			[]string{" rkey=cjzfcijpj2z2a top-bit=true\n"}, []string{"time="}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := atcore(nil, tc.args...)
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			for _, s := range tc.has {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("output lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tc.hasNone {
				if strings.Contains(r.stdout, s) {
					t.Errorf("output has %q:\n%s", s, r.stdout)
				}
			}
		})
	}
	// The refusal this agrees with.
	if r := atcore(nil, "tid", "range", "cjzfcijpj2z2a"); r.code != exitData || !strings.Contains(r.stderr, "sets the top bit, which holds no time") {
		t.Errorf("tid range of a top-bit TID: exit %d, stderr %q", r.code, r.stderr)
	}
}

// "tid at now" gives the bounds of the current microsecond.
func TestTidAtNow(t *testing.T) {
	before := time.Now().Truncate(time.Microsecond)
	r := atcore(nil, "tid", "at", "now")
	after := time.Now()
	lo, hi, ok := strings.Cut(strings.TrimSuffix(r.stdout, "\n"), " ")
	a, errA := tid.Parse(lo)
	b, errB := tid.Parse(hi)
	if r.code != exitOK || !ok || errA != nil || errB != nil || a.ClockID() != 0 || b.ClockID() != 1023 ||
		a.Time() != b.Time() || a.Time().Before(before) || a.Time().After(after) {
		t.Errorf("tid at now: exit %d, %q; want the bounds of a microsecond in [%v, %v]", r.code, r.stdout, before, after)
	}
}

func TestParseInstant(t *testing.T) {
	now := time.Date(2024, 7, 19, 16, 40, 46, 480310000, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		err  string
	}{
		{"now", now, ""},
		{"1721407246", time.Unix(1721407246, 0), ""},
		{"99999999999", time.Unix(99999999999, 0), ""},
		{"1721407246480310", time.UnixMicro(1721407246480310), ""},
		{"172140724648", time.Time{}, "12 digits"},
		{"17214072464803100", time.Time{}, "17 digits"},
		{"99999999999999999999", time.Time{}, "20 digits"},
		{"-1", time.Time{}, "want RFC 3339"},
		{"", time.Time{}, "want RFC 3339"},
		{"2024-07-19T16:40:46+24:00", time.Time{}, "offset hours out of range 00 to 23"}, // RFC 3339
		{"2024-07-19t16:40:46.48031z", time.UnixMicro(1721407246480310), ""},
	}
	for _, tt := range tests {
		got, err := parseInstant(tt.in, func() time.Time { return now })
		if tt.err == "" && (err != nil || !got.Equal(tt.want)) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("parseInstant(%q) = %v, %v; want %v, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// tid inspect -json writes one object per input, an invalid one included, as check -json does.
func TestTidInspectJSONInvalid(t *testing.T) {
	r := atcore([]byte("3kxnlhr3gxq23\nzzz\n"), "tid", "inspect", "-json")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != exitData || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"tid":"3kxnlhr3gxq23"`) ||
		!strings.HasPrefix(lines[1], `{"input":"zzz","ok":false,"error":"invalid TID \"zzz\"`) {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestTidInspectJSONNames: "tid inspect -json" names a TID's fields as "inspect -json" does
// (and as both name them in their lines, '_' for '-'), with unix_micro its one field more.
func TestTidInspectJSONNames(t *testing.T) {
	for _, s := range []string{"3kxnlhr3gxq23", "cjzfcijpj2z2a", "2222222222222", "7zzzzzzzzzzzz"} {
		var own map[string]any
		if r := atcore(nil, "tid", "inspect", "-json", s); r.code != exitOK || json.Unmarshal([]byte(r.stdout), &own) != nil {
			t.Fatalf("tid inspect -json %s: exit %d, output %q", s, r.code, r.stdout)
		}
		var all struct{ Kinds []map[string]any }
		if r := atcore(nil, "inspect", "-json", s); r.code != exitOK || json.Unmarshal([]byte(r.stdout), &all) != nil || len(all.Kinds) == 0 {
			t.Fatalf("inspect -json %s: exit %d, output %q", s, r.code, r.stdout)
		}
		kind := all.Kinds[0]
		if kind["kind"] != "tid" {
			t.Fatalf("inspect -json %s: first kind %v, want tid", s, kind["kind"])
		}
		delete(kind, "kind")
		kind["tid"] = s
		if _, ok := own["time"]; ok {
			kind["unix_micro"] = own["unix_micro"]
		}
		if !reflect.DeepEqual(own, kind) {
			t.Errorf("%s: tid inspect -json gives\n%v\ninspect -json\n%v", s, own, kind)
		}
	}
}
