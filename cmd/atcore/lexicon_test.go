package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const realLexicons = "../../lexicon/testdata/lexicons"

func TestGoldenLexicon(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "lexicon-check", rule: "the 402 real schemas load, every reference resolved",
			args: []string{"lexicon", "check", realLexicons}, code: exitOK},
		{name: "lexicon-check-invalid", rule: "a refused document: one line per problem, with the file, the JSON Pointer and the rule",
			args: []string{"lexicon", "check", "testdata/lexicon-bad"}, code: exitData,
			stderrHas: []string{
				`testdata/lexicon-bad/com/example/note.json" at "/defs/main/record/properties/text/maxLength": maxLength:`,
				`testdata/lexicon-bad/com/example/list.json" at "/defs/main/record/properties/items/items/ref": ref: com.example.list#item: no such definition`,
			}},
		{name: "lexicon-check-no-dir", rule: "lexicon check needs a DIR",
			args: []string{"lexicon", "check"}, code: exitUsage, stderrHas: []string{"no DIR given"}},
		{name: "lexicon-check-missing-dir", rule: "a missing DIR is named",
			args: []string{"lexicon", "check", "testdata/no-such-dir"}, code: exitData, stderrHas: []string{"testdata/no-such-dir"}},
		{name: "validate-lexicon", rule: "valid data-model values checked against their schema: every problem, one line each",
			args: []string{"validate", "-lexicon", realLexicons, "../../testdata/records/post.json", "../../testdata/records/like.cbor", "testdata/bad-post.json"},
			code: exitData,
			stderrHas: []string{
				`testdata/bad-post.json: path "/createdAt": format: not a valid datetime`,
				`testdata/bad-post.json: path "/text": type: expected a string, found an integer`,
			}},
		{name: "validate-lexicon-json", rule: "-json gives the first problem's rule, detail and path, and every problem in error",
			args: []string{"validate", "-json", "-lexicon", realLexicons, "testdata/bad-post.json"}, code: exitData,
			stderrHas: []string{`path "/text"`}},
		{name: "validate-lexicon-unknown-type", rule: "a $type the schemas do not hold is an error, not a pass",
			args: []string{"validate", "-lexicon", realLexicons, "../../testdata/records/list.json"}, code: exitData,
			stderrHas: []string{`"com.example.graph.listSnapshot" is not a record type`}},
		{name: "validate-lexicon-strict-datetime", rule: "a datetime without a time zone is refused by default",
			args: []string{"validate", "-lexicon", realLexicons, "testdata/old-post.json"}, code: exitData,
			stderrHas: []string{`path "/createdAt": format`}},
		{name: "validate-lexicon-lenient", rule: "-lenient reads the looser datetimes of old records",
			args: []string{"validate", "-lenient", "-lexicon", realLexicons, "testdata/old-post.json"}, code: exitOK},
		{name: "validate-lexicon-bad-schemas", rule: "schemas that do not load stop the command before any record",
			args: []string{"validate", "-lexicon", "testdata/lexicon-bad", "testdata/bad-post.json"}, code: exitData,
			stderrHas: []string{"-lexicon testdata/lexicon-bad", `note.json" at "/defs/main/record/properties/text/maxLength"`}},
		{name: "validate-lexicon-seq", rule: "-lexicon checks whole records, not -seq's CBOR sequences",
			args: []string{"validate", "-seq", "-lexicon", realLexicons, "testdata/bad-post.json"}, code: exitUsage,
			stderrHas: []string{"does not apply to -seq"}},
		{name: "validate-lenient-alone", rule: "-lenient tolerates what -lexicon checks: alone, it would do nothing",
			args: []string{"validate", "-lenient", "testdata/old-post.json"}, code: exitUsage,
			stderrHas: []string{"give -lexicon DIR with it"}},
		{name: "help-lexicon-check", rule: "the command's help, with its example",
			args: []string{"help", "lexicon", "check"}, code: exitOK},
	})
}

// An empty -lexicon names no schemas: "validate -lexicon "$DIR" post.json" with DIR unset used to
// check the data model only and say ok, exit status 0, as if the schemas had passed the record.
// It is a usage error, as -lenient without -lexicon is.
func TestValidateLexiconEmptyDir(t *testing.T) {
	for _, args := range [][]string{
		{"validate", "-lexicon", "", "testdata/bad-post.json"},
		{"validate", "-lexicon=", "testdata/bad-post.json"},
		{"validate", "-lexicon", "", "-lenient", "testdata/old-post.json"},
		{"validate", "-json", "-lexicon", "", "testdata/bad-post.json"},
	} {
		r := atcore(nil, args...)
		if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "-lexicon needs a DIR") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, r.code, r.stdout, r.stderr)
		}
	}
}

// The count of schemas reads as English, as the counts in error messages do (internal/plural):
// "1 schema", not "1 schemas".
func TestLexiconCheckCount(t *testing.T) {
	dir := t.TempDir()
	doc := `{"lexicon":1,"id":"com.example.one","defs":{"main":{"type":"record","key":"tid","record":{"type":"object","properties":{}}}}}`
	if err := os.WriteFile(filepath.Join(dir, "one.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := atcore(nil, "lexicon", "check", dir)
	if want := "ok " + dir + ": 1 schema\n"; r.code != exitOK || r.stdout != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
}

// An empty DIR is a usage error, as validate's empty -lexicon is; it used to be an error that
// named no input, from os.DirFS: "atcore lexicon check: os: DirFS with empty root".
func TestLexiconCheckEmptyDir(t *testing.T) {
	r := atcore(nil, "lexicon", "check", realLexicons, "")
	if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "atcore lexicon check: empty DIR") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a usage error", r.code, r.stdout, r.stderr)
	}
}
