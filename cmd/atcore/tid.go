package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/tid"
)

// timeLayout prints instants as RFC 3339 in UTC with exactly six fractional digits: TIDs count
// microseconds, and a fixed width keeps columns aligned and sortable as text.
const timeLayout = "2006-01-02T15:04:05.000000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// maxGenerate bounds "tid -n", so that a typo cannot fill a disk.
const maxGenerate = 1_000_000

var tidCommand = &command{
	name:     "tid",
	synopsis: "[-n N] [-clock ID]",
	summary:  "generate new TIDs",
	doc: `
Prints N new TIDs, one per line, strictly increasing. Without -clock they come from the
default generator, whose clock id is random in the best-effort range 0-31; -clock gives a
generator with that clock id (32-991 are assigned per deployment, 992-1023 are global).`,
	example: `
$ atcore tid -n 2 -clock 7
3n2urdi5acp2b
3n2urdi5acr2b`,
	maxArgs: 0,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		n := fs.Int("n", 1, "print `N` TIDs (at most 1000000)")
		var clock clockFlag
		fs.Var(&clock, "clock", "use clock id `ID`, 0-1023 (default: random in 0-31)")
		return func(c *call, _ []string) int {
			if *n < 1 || *n > maxGenerate {
				return c.usageError("-n %d: want 1 to %d", *n, maxGenerate)
			}
			next := tid.Next
			if clock.set {
				g, err := tid.NewGenerator(clock.id)
				if err != nil {
					return c.usageError("-clock %d: %v", clock.id, err)
				}
				next = g.Next
			}
			w := bufio.NewWriter(c.stdout)
			var buf []byte
			for range *n {
				buf, _ = next().AppendText(buf[:0]) // a TID always has a text form
				w.Write(append(buf, '\n'))
			}
			return c.flush(w)
		}
	},
}

// clockFlag is the value of -clock: a clock id, or unset for the default generator.
type clockFlag struct {
	set bool
	id  uint
}

func (f *clockFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatUint(uint64(f.id), 10)
}

func (f *clockFlag) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > tid.MaxClockID {
		return fmt.Errorf("want a clock id from 0 to %d", tid.MaxClockID)
	}
	f.set, f.id = true, uint(n)
	return nil
}

var tidInspectCommand = &command{
	name:     "tid inspect",
	synopsis: "[-json] [TID...]",
	summary:  "show what TIDs hold: time, clock id, integer value",
	doc: `
Prints one line per TID, as key=value fields: the TID, its time (RFC 3339, microseconds,
UTC), its clock id and the clock id's range class, its value as an integer, and its dashed
display form. A TID that starts with c-j has the top bit set, which holds no time and which
no generator sets: top-bit=true takes the place of its time. The legacy dashed form is
accepted as input. With -json, one JSON object per line instead, its fields named as in the
line and in "atcore inspect -json", with "unix_micro" after "time" ("integer" is a string: it
does not fit in a double; "top_bit": true in place of "time" and "unix_micro"); an invalid TID
is a line as check -json writes it ("input", "ok": false, "error", "offset"). With no
TID, or "-", reads them from standard input, one per line.`,
	example: `
$ atcore tid inspect 3kxnlhr3gxq23
tid=3kxnlhr3gxq23 time=2024-07-19T16:40:46.480310Z clock=1 class=best-effort integer=1762721020395837441 dashed=3kxn-lhr-3gxq-23`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per line")
		return func(c *call, args []string) int {
			c.jsonPerItem = *asJSON
			return c.eachItem(args, func(w *bufio.Writer, arg string) error {
				t, err := tid.ParseLenient(arg)
				if err != nil {
					if *asJSON { // one object per input, valid or not, as check -json writes
						r := checkResult{Input: arg, Error: err.Error()}
						if off, ok := errOffset(err); ok {
							r.Offset = &off
						}
						writeJSONLine(w, r)
					}
					return err
				}
				if *asJSON {
					info := tidInfo{
						TID:        t.String(),
						ClockID:    t.ClockID(),
						ClockClass: t.ClockClass().String(),
						Integer:    strconv.FormatUint(uint64(t), 10),
						Dashed:     t.Dashed(),
					}
					if hasTopBit(t) {
						info.TopBit = true
					} else {
						when, micro := formatTime(t.Time()), t.UnixMicro()
						info.Time, info.UnixMicro = &when, &micro
					}
					writeJSONLine(w, info)
					return nil
				}
				w.WriteString("tid=" + t.String())
				for _, p := range tidFields(t) {
					w.WriteString(" " + p.key + "=" + p.value)
				}
				w.WriteString("\n")
				return nil
			})
		}
	},
}

// tidInfo is one line of "tid inspect -json". Time and UnixMicro are absent, and TopBit true,
// for a TID with the top bit set (see hasTopBit).
type tidInfo struct {
	TID        string  `json:"tid"`
	Time       *string `json:"time,omitempty"`
	UnixMicro  *int64  `json:"unix_micro,omitempty"`
	TopBit     bool    `json:"top_bit,omitempty"`
	ClockID    uint    `json:"clock"`
	ClockClass string  `json:"class"`
	Integer    string  `json:"integer"`
	Dashed     string  `json:"dashed"`
}

// hasTopBit tells whether t has the top bit set: valid syntax (a TID starting with c-j), but a
// bit that holds no time and that no generator sets (DECISIONS rules 4 and 5; tid.ErrTopBit, as
// "tid range" reports for such a prefix). t.Time() masks the bit off, and would show a time the
// TID does not hold.
func hasTopBit(t tid.TID) bool { return t>>63 != 0 }

// tidFields returns what "tid inspect" and "inspect" show of a TID, after the TID itself: its
// time, or top-bit=true in its place, then its clock id and class, integer and dashed forms.
func tidFields(t tid.TID) []part {
	when := part{"time", formatTime(t.Time()), false}
	if hasTopBit(t) {
		when = part{"top-bit", "true", true}
	}
	return []part{
		when,
		{"clock", strconv.FormatUint(uint64(t.ClockID()), 10), true},
		{"class", t.ClockClass().String(), false},
		{"integer", strconv.FormatUint(uint64(t), 10), false},
		{"dashed", t.Dashed(), false},
	}
}

var tidRangeCommand = &command{
	name:     "tid range",
	synopsis: "[-json] [PREFIX...]",
	summary:  "show the first and last instant a TID prefix covers",
	doc: `
A TID prefix of 1 to 13 characters names every TID that starts with it, and so a span of
time. Prints one line per prefix: the first and the last instant of that span (RFC 3339,
microseconds, UTC), separated by a space. With -json, one JSON object per line. With no
PREFIX, or "-", reads them from standard input, one per line.`,
	example: `
$ atcore tid range 3kxn
2024-07-19T11:28:52.498432Z 2024-07-19T21:01:32.236799Z`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per line")
		return func(c *call, args []string) int {
			return c.eachItem(args, func(w *bufio.Writer, prefix string) error {
				first, last, err := tid.PrefixRange(prefix)
				if err != nil {
					return err
				}
				if *asJSON {
					writeJSONLine(w, struct {
						Prefix string `json:"prefix"`
						First  string `json:"first"`
						Last   string `json:"last"`
					}{prefix, formatTime(first), formatTime(last)})
					return nil
				}
				w.WriteString(formatTime(first) + " " + formatTime(last) + "\n")
				return nil
			})
		}
	},
}

var tidAtCommand = &command{
	name:     "tid at",
	synopsis: "[-json] [TIME...]",
	summary:  "show the smallest and largest TID at an instant",
	doc: `
For each TIME, prints one line: the smallest and the largest TID of that microsecond (clock
ids 0 and 1023), separated by a space. Use them as the bounds of a range query over a table
keyed by TID. TIME is RFC 3339 (2024-07-19T16:40:46.48031Z), "now", or Unix time as an
integer: seconds (at most 11 digits) or microseconds (16 digits); other lengths, such as
the 13 digits of milliseconds, are refused as ambiguous. With -json, one JSON object per
line. With no TIME, or "-", reads them from standard input, one per line.`,
	example: `
$ atcore tid at 2024-07-19T16:40:46.48031Z 1721407246480310
3kxnlhr3gxq22 3kxnlhr3gxqzz
3kxnlhr3gxq22 3kxnlhr3gxqzz`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per line")
		return func(c *call, args []string) int {
			return c.eachItem(args, func(w *bufio.Writer, arg string) error {
				t, err := parseInstant(arg, time.Now)
				if err != nil {
					return err
				}
				lo, hi, err := tid.Bounds(t)
				if err != nil {
					return err // the message names the time
				}
				if *asJSON {
					writeJSONLine(w, struct {
						Time string `json:"time"`
						Min  string `json:"min"`
						Max  string `json:"max"`
					}{formatTime(t), lo.String(), hi.String()})
					return nil
				}
				w.WriteString(lo.String() + " " + hi.String() + "\n")
				return nil
			})
		}
	},
}

// parseInstant reads the TIME of "tid at": RFC 3339, "now", or Unix seconds or microseconds.
func parseInstant(s string, now func() time.Time) (time.Time, error) {
	if s == "now" {
		return now(), nil
	}
	if s != "" && strings.Trim(s, "0123456789") == "" {
		n, err := strconv.ParseInt(s, 10, 64)
		switch {
		case err != nil:
		case len(s) <= 11:
			return time.Unix(n, 0), nil
		case len(s) == 16:
			return time.UnixMicro(n), nil
		}
		return time.Time{}, fmt.Errorf("invalid time %q: %d digits; give Unix seconds (at most 11 digits) or microseconds (16)", s, len(s))
	}
	// The datetime package's lenient reader: RFC 3339 and the looser forms records hold, with
	// an error that says what is wrong and where (time.Parse takes a +24:00 offset, and says
	// neither).
	d, err := datetime.ParseLenient(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%v; want RFC 3339 (2024-07-19T16:40:46.48031Z), now, or Unix seconds or microseconds", err)
	}
	return d.Time(), nil
}

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w *bufio.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil { // only plain structs of strings and numbers are passed
		panic(err)
	}
	w.Write(append(b, '\n'))
}
