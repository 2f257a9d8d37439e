package echo

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	tests := []struct {
		name, in string
		want     int // length kept
	}{
		{"short input kept whole", "abc", 3},
		{"exactly Max kept whole", strings.Repeat("a", Max), Max},
		{"long ASCII cut at Max", strings.Repeat("a", Max+10), Max},
		{"cut moves back before a split character", strings.Repeat("a", Max-1) + "é" + "zz", Max - 1},
		{"invalid UTF-8 cut at Max", strings.Repeat("\xff", Max+5), Max},
	}
	for _, tt := range tests {
		got := Clip(tt.in)
		if len(got) != tt.want {
			t.Errorf("%s: Clip kept %d bytes, want %d", tt.name, len(got), tt.want)
		}
		if utf8.ValidString(tt.in) && !utf8.ValidString(got) {
			t.Errorf("%s: Clip split a character: %q", tt.name, got)
		}
	}
}

func TestQuoteAt(t *testing.T) {
	tests := []struct {
		in   string
		i    int
		want string
	}{
		{"a/b", 1, `'/'`},
		{"a\x00", 1, `'\x00'`},
		{"aé", 1, `'\u00e9'`},
		{"a\xff", 1, `'\xff'`},
	}
	for _, tt := range tests {
		if got := QuoteAt(tt.in, tt.i); got != tt.want {
			t.Errorf("QuoteAt(%q, %d) = %s, want %s", tt.in, tt.i, got, tt.want)
		}
	}
}

func TestMessage(t *testing.T) {
	if got, want := Message("record key", "a/b", 3, "'/' at offset 1 is not allowed"),
		`invalid record key "a/b": '/' at offset 1 is not allowed`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	long := strings.Repeat("x", 100)
	if got, want := Message("NSID", Clip(long), len(long), "too long"),
		`invalid NSID "`+strings.Repeat("x", Max)+`"… (100 bytes): too long`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// The cut never splits a UTF-8 sequence of a valid input.
func TestClipCutsAtCharacterBoundary(t *testing.T) {
	for pad := 0; pad < 4; pad++ {
		s := strings.Repeat("a", pad) + strings.Repeat("日", 40)
		got := Clip(s)
		if !strings.HasPrefix(s, got) || len(got) > Max || len(got) <= Max-3 {
			t.Errorf("pad %d: echo is %d bytes", pad, len(got))
		}
		if strings.ContainsRune(got, '\uFFFD') || !strings.HasSuffix(got, "日") {
			t.Errorf("pad %d: echo %q splits a character", pad, got)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"web", `"web"`},
		{"a\xffé", `"a\xff\u00e9"`},
		{strings.Repeat("a", Max), `"` + strings.Repeat("a", Max) + `"`},
		{strings.Repeat("a", 3000), `"` + strings.Repeat("a", Max) + `"…`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.20q…) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestQuotePath(t *testing.T) {
	short := "/embed/images/0/alt"
	if got := QuotePath(short); got != `"/embed/images/0/alt"` {
		t.Errorf("short path: %s", got)
	}
	exact := "/" + strings.Repeat("k", MaxPath-1)
	if got := QuotePath(exact); got != strconv.Quote(exact) {
		t.Errorf("a path of MaxPath bytes is cut: %s", got)
	}
	long := "/a/" + strings.Repeat("é", 5000) + "/z"
	got := QuotePath(long)
	want := strconv.Quote("/a/"+strings.Repeat("é", (MaxPath/2-3)/2)+"…"+strings.Repeat("é", (MaxPath/2-2)/2)+"/z") + " (10005 bytes)"
	if got != want {
		t.Errorf("long path:\n got %s\nwant %s", got, want)
	}
	if len(got) > 2*MaxPath {
		t.Errorf("long path: %d bytes quoted", len(got))
	}
}
