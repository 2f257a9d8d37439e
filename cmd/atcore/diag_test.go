package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

func TestGoldenDiag(t *testing.T) {
	deep := append(bytes.Repeat([]byte{0x81}, diagMaxDepth+10), 0x01) // [[[…1…]]] nested too deep to show
	checkGolden(t, []goldenCase{
		{name: "diag", rule: "a valid record: offsets, heads, nesting, CID links decoded",
			args: []string{"diag", "testdata/interop2.cbor"}, code: exitOK},
		{name: "diag-float", rule: "a float is shown and marked; the error names offset, path and rule",
			args: []string{"diag"}, stdin: cborFloat, code: exitData,
			stderrHas: []string{"atcore diag: -: offset 3, path \"/a\": floating-point number"}},
		{name: "diag-truncated", rule: "truncated input is shown up to where it breaks",
			args: []string{"diag"}, stdin: cborTruncated, code: exitData, stderrHas: []string{"atcore diag: -: offset 4"}},
		{name: "diag-unsorted", rule: "unsorted keys: the second key is marked",
			args: []string{"diag"}, stdin: cborUnsorted, code: exitData, stderrHas: []string{"atcore diag: -: offset 4"}},
		{name: "diag-non-minimal", rule: "a non-minimal head is shown with its bytes",
			args: []string{"diag"}, stdin: cborNonMinimal, code: exitData, stderrHas: []string{"atcore diag: -: offset 3"}},
		{name: "diag-indefinite", rule: "indefinite lengths are shown with their break codes",
			args: []string{"diag"}, stdin: cborIndefinite, code: exitData, stderrHas: []string{"atcore diag: -: offset 0"}},
		{name: "diag-trailing", rule: "bytes after the record are shown as further items",
			args: []string{"diag"}, stdin: cborTrailing, code: exitData, stderrHas: []string{"atcore diag: -: offset 4"}},
		{name: "diag-tag", rule: "a tag other than 42 is shown and marked",
			args: []string{"diag"}, stdin: cborTag, code: exitData, stderrHas: []string{"atcore diag: -: offset 3"}},
		{name: "diag-bad-utf8", rule: "invalid UTF-8 is shown escaped and noted",
			args: []string{"diag"}, stdin: cborBadUTF8, code: exitData, stderrHas: []string{"atcore diag: -: offset 3"}},
		{name: "diag-bad-link", rule: "a tag 42 without the 0x00 prefix is noted",
			args: []string{"diag"}, stdin: cborLinkNoZero, code: exitData, stderrHas: []string{"atcore diag: -: offset "}},
		{name: "diag-too-deep", rule: "nesting beyond what diag shows stops the walk, not the program",
			args: []string{"diag"}, stdin: deep, code: exitData, stderrHas: []string{"atcore diag: -: offset "}},
		{name: "diag-json", rule: "JSON input gets a hint",
			args: []string{"diag", "testdata/post.json"}, code: exitData, stderrHas: []string{"atcore json2cbor testdata/post.json | atcore diag"}},
	})
}

// The "<--" mark is on the line of the item the strict decoder's error is about. Most errors give
// the offset where that item starts; an invalid CID gives one inside the tag 42's content or just
// past it, where the next item may start: the mark stays on the content.
func TestDiagMark(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		cbor   string // hex
		offset string // the marked line's offset
		item   string // and its item, as diag shows it
	}{
		{"a CID cut short, a key after it (the review's case)", "a2 6161 d82a 45 0001020304 6162 01", "5", `h'0001020304'`},
		{"a CID cut short, the map's end after it", "a1 6161 d82a 45 0001020304", "5", `h'0001020304'`},
		{"a CID with a truncated varint", "a2 6161 d82a 44 00017112 6162 01", "5", `h'00017112'`},
		{"a link of the 0x00 prefix alone", "a2 6161 d82a 41 00 6162 01", "5", `h'00'`},
		{"an empty link, no 0x00 prefix", "a2 6161 d82a 40 6162 01", "5", `h''`},
		{"a link whose content is text", "a2 6161 d82a 6178 6162 01", "5", `"x"`},
		{"a link whose content is a map", "a2 6161 d82a a0 6162 01", "5", `{`},
		{"a link in an array, then an item", "a1 6161 82 d82a 41 00 01", "6", `h'00'`},
		{"a float: its own line", "a1 6161 f93e00", "3", `1.5`},
		{"unsorted keys: the second key", "a2 6162 01 6161 02", "4", `"a":`},
		{"trailing bytes: the first of them, not the closing brace", "a1 6161 01 00", "4", `0`},
		{"a $type that is no string: its value", "a1 65 2474797065 01", "7", `1`},
		{"a $link key: the key", "a1 65 246c696e6b 01", "1", `"$link":`},
		{"a malformed blob: its map", "a1 6161 a1 65 2474797065 64 626c6f62", "3", `{`},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := atcore(unhex(tc.cbor), "diag")
			marked := markedLines(r.stdout)
			if r.code != exitData || len(marked) != 1 || strings.Fields(marked[0])[0] != tc.offset || !strings.Contains(marked[0], "  "+tc.item+"  ") {
				t.Errorf("exit %d, marked %q; want one mark, on %s at offset %s\n%s%s", r.code, marked, tc.item, tc.offset, r.stdout, r.stderr)
			}
		})
	}
}

// markedLines returns the lines of diag's output that carry the "<--" mark, trimmed.
func markedLines(out string) []string {
	var marked []string
	for _, l := range lines(out) {
		if strings.Contains(l, "<--") {
			marked = append(marked, strings.TrimSpace(l))
		}
	}
	return marked
}

// When the item the strict decoder's error is about is malformed, the walk stops at it, and the
// line that says so is the one marked: the mark used to go on the item before it (a key, a value
// that is fine), or on no line at all when the malformed item came first.
func TestDiagMarkMalformed(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		cbor   string // hex
		offset string // the marked line's offset, the stopped line's
	}{
		{"a value cut short: not its key", "a1 6161 65 6162", "3"},
		{"a key cut short: not the value before it", "a2 6161 01 61", "4"},
		{"a head cut short", "a1 6161 19 01", "3"},
		{"reserved additional information", "a1 6161 1c", "3"},
		{"the first item cut short: the only line", "65 6162", "0"},
		{"the first head malformed: the only line", "1c", "0"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := atcore(unhex(tc.cbor), "diag")
			marked := markedLines(r.stdout)
			if r.code != exitData || len(marked) != 1 || strings.Fields(marked[0])[0] != tc.offset || !strings.Contains(marked[0], "stopped: ") {
				t.Errorf("exit %d, marked %q; want one mark, on the stopped line at offset %s\n%s%s", r.code, marked, tc.offset, r.stdout, r.stderr)
			}
		})
	}
}

// Every valid record of the repository is shown in full (one line per item, balanced brackets)
// without error, and every one of its truncations stops with an error, never a panic.
func TestDiagRecords(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "records", "*.cbor"))
	local, _ := filepath.Glob(filepath.Join("testdata", "interop*.cbor"))
	files = append(files, local...)
	if len(files) < 4 {
		t.Fatalf("only %d CBOR records found", len(files))
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r := atcore(nil, "diag", name)
		if r.code != exitOK || r.stderr != "" || strings.Contains(r.stdout, "<--") {
			t.Errorf("diag %s: exit %d\n%s", name, r.code, r.stderr)
		}
		opens := strings.Count(r.stdout, "{  # map(") + strings.Count(r.stdout, "[  # array(")
		closes := 0
		for _, l := range lines(r.stdout) {
			if f := strings.Fields(l); len(f) == 2 && (f[1] == "}" || f[1] == "]") {
				closes++
			}
		}
		if opens == 0 || opens != closes {
			t.Errorf("diag %s: %d containers opened, %d closed", name, opens, closes)
		}
		step := max(1, len(data)/300)          // long records: a sample of prefixes keeps the test fast
		for n := 0; n < len(data); n += step { // every proper prefix is truncated
			if err := walkCBOR(data[:n], func(diagLine) {}); err == nil && n > 0 {
				t.Errorf("%s[:%d]: the walk did not notice the truncation", name, n)
			}
		}
	}
}

// FuzzDiag: the walker never panics, its lines have increasing offsets within the input, and it
// walks everything the strict decoder accepts.
func FuzzDiag(f *testing.F) {
	for _, seed := range [][]byte{cborFloat, cborTruncated, cborUnsorted, cborNonMinimal, cborIndefinite,
		cborTrailing, cborTag, cborBadUTF8, cborLinkNoZero, unhex("5f 41 00 ff"), unhex("fb 3ff0000000000000")} {
		f.Add(seed)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.cbor"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		last, stops := 0, 0
		err := walkCBOR(data, func(l diagLine) {
			if l.offset < last || l.offset > len(data) {
				t.Fatalf("line at offset %d after %d, input of %d bytes", l.offset, last, len(data))
			}
			if l.stop {
				stops++
			}
			last = l.offset
		})
		if (err != nil) != (stops == 1) || stops > 1 {
			t.Fatalf("error %v, %d stop lines", err, stops)
		}
		if err != nil && datamodel.ScanCBOR(data) == nil {
			t.Fatalf("strict DAG-CBOR the walker cannot walk: %v", err)
		}
	})
}

// diag shows diagMaxDepth levels of nesting whatever the containers: a map's value is indented
// two steps (after its key), but is one level deeper, not two. Forty maps in maps, beyond the
// data model's 32, are all shown; as with arrays (diag-too-deep), diagMaxDepth+1 maps are shown
// and the walk stops inside the last, at its key, and says so.
func TestDiagDeepMaps(t *testing.T) {
	nested := func(n int) []byte { // {"a": {"a": … 1 …}}, n maps
		return append(bytes.Repeat([]byte{0xa1, 0x61, 'a'}, n), 0x01)
	}
	r := atcore(nested(40), "diag")
	if r.code != exitData || strings.Contains(r.stdout, "stopped:") || strings.Count(r.stdout, "{  # map(1)") != 40 {
		t.Errorf("40 nested maps: exit %d; want all 40 shown, no stop\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = atcore(nested(diagMaxDepth+10), "diag")
	stop := lines(r.stdout)[len(lines(r.stdout))-1]
	if f := strings.Fields(stop); r.code != exitData || len(f) == 0 || f[0] != strconv.Itoa(3*diagMaxDepth+1) ||
		!strings.Contains(stop, "stopped: nested deeper than 64 levels") || strings.Count(r.stdout, "{  # map(1)") != diagMaxDepth+1 {
		t.Errorf("%d nested maps: exit %d, last line %q; want a stop %d levels deep, offset %d",
			diagMaxDepth+10, r.code, stop, diagMaxDepth+1, 3*diagMaxDepth+1)
	}
}
