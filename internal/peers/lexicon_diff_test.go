package peers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bluesky-social/indigo/atproto/atdata"
	ilex "github.com/bluesky-social/indigo/atproto/lexicon"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/lexicon"
)

// A lexCase is one input both implementations judge: a schema document (load or refuse) or a
// record (valid or not against its schema).
type lexCase struct {
	set    string // where it comes from
	name   string
	want   string // "valid", "invalid", or "" when no one says (mutations)
	atcore string // "valid" or the error
	indigo string
}

func verdict(err error) string {
	if err == nil {
		return "valid"
	}
	return "invalid: " + err.Error()
}

func short(v string) string {
	if strings.HasPrefix(v, "invalid") {
		return "invalid"
	}
	return v
}

// lexiconSchemaCases runs the interop schema vectors through both: atcore's ParseSchema then
// NewCatalog, indigo's json.Unmarshal of a SchemaFile, FinishParse, CheckSchema (as indigo's own
// interop test does).
func lexiconSchemaCases(t testing.TB) []lexCase {
	var out []lexCase
	for _, f := range []struct{ file, want string }{
		{"lexicon-valid.json", "valid"}, {"lexicon-invalid.json", "invalid"},
	} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "interop", "lexicon", f.file))
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Name    string          `json:"name"`
			Lexicon json.RawMessage `json:"lexicon"`
		}
		if err := json.Unmarshal(data, &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			c := lexCase{set: f.file, name: v.Name, want: f.want}
			s, err := lexicon.ParseSchema(v.Name, v.Lexicon)
			if err == nil {
				_, err = lexicon.NewCatalog(s)
			}
			c.atcore = verdict(err)
			var sf ilex.SchemaFile
			err = json.Unmarshal(v.Lexicon, &sf)
			if err == nil {
				err = sf.FinishParse()
			}
			if err == nil {
				err = sf.CheckSchema()
			}
			c.indigo = verdict(err)
			out = append(out, c)
		}
	}
	return out
}

// vectorCatalogs loads the record vectors' catalog: atcore with the real schemas too (its
// procedure.json refers to app.bsky.actor.defs, and atcore resolves references at load),
// indigo alone (it resolves when it validates).
func vectorCatalogs(t testing.TB) (*lexicon.Catalog, *ilex.BaseCatalog) {
	dir := filepath.Join(repoRoot, "testdata", "interop", "lexicon", "catalog")
	vec, err := lexicon.ParseFS(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	real, err := lexicon.ParseFS(os.DirFS(lexiconDir), ".")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := lexicon.NewCatalog(append(vec, real...)...)
	if err != nil {
		t.Fatal(err)
	}
	icat := ilex.NewBaseCatalog()
	if err := icat.LoadDirectory(dir); err != nil {
		t.Fatal(err)
	}
	return cat, icat
}

// validateBoth decodes JSON with each implementation's decoder and validates it against the
// record type typ. A decoder's refusal is the verdict.
func validateBoth(cat *lexicon.Catalog, icat *ilex.BaseCatalog, typ string, data []byte) (ours, theirs string) {
	v, err := datamodel.UnmarshalJSON(data)
	if err == nil {
		err = cat.ValidateRecord(v, lexicon.Options{})
	} else {
		err = fmt.Errorf("datamodel: %w", err)
	}
	ours = verdict(err)
	iv, err := atdata.UnmarshalJSON(data)
	if err == nil {
		err = ilex.ValidateRecord(icat, iv, typ, 0)
	} else {
		err = fmt.Errorf("atdata: %w", err)
	}
	return ours, verdict(err)
}

func lexiconRecordCases(t testing.TB) []lexCase {
	cat, icat := vectorCatalogs(t)
	var out []lexCase
	for _, f := range []struct{ file, want string }{
		{"record-data-valid.json", "valid"}, {"record-data-invalid.json", "invalid"},
	} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "interop", "lexicon", f.file))
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Name string          `json:"name"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(data, &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			c := lexCase{set: f.file, name: v.Name, want: f.want}
			c.atcore, c.indigo = validateBoth(cat, icat, "example.lexicon.record", v.Data)
			out = append(out, c)
		}
	}
	return out
}

// lexiconMutationCases validates the real records of testdata/records and, for each, every
// mutation of every member at any depth: a wrong type (5), null, removed, an empty string, a
// 3,001-byte string, a string that no identifier format allows, -1 and 2^40 for integers, an
// empty array, an extra member, a $type that names nothing and one with #main.
func lexiconMutationCases(t testing.TB) []lexCase {
	cat, icat := lexiconCatalogs(t)
	var out []lexCase
	for _, name := range lexiconRecords {
		data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "records", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		v, err := datamodel.UnmarshalJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		typ := v.(map[string]any)["$type"].(string)
		c := lexCase{set: "records", name: name, want: "valid"}
		c.atcore, c.indigo = validateBoth(cat, icat, typ, data)
		out = append(out, c)
		for _, m := range mutations(v, "") {
			b, err := datamodel.MarshalJSON(m.value)
			if err != nil {
				continue // a mutation the data model cannot hold
			}
			c := lexCase{set: "mutations of " + name, name: m.desc}
			c.atcore, c.indigo = validateBoth(cat, icat, typ, b)
			out = append(out, c)
		}
	}
	return out
}

type mutation struct {
	desc  string
	value any
}

// mutations returns copies of v, each with one change at one place.
func mutations(v any, path string) []mutation {
	var out []mutation
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		with := func(k string, x any, remove bool) map[string]any {
			c := make(map[string]any, len(v)+1)
			for kk, vv := range v {
				c[kk] = vv
			}
			if remove {
				delete(c, k)
			} else {
				c[k] = x
			}
			return c
		}
		out = append(out, mutation{path + " + extra member", with("zzzExtra", int64(1), false)})
		for _, k := range keys {
			p := path + "/" + k
			if k == "$type" {
				if path == "" {
					continue // the record's own type picks the schema
				}
				out = append(out,
					mutation{p + " = unknown type", with(k, "com.example.nothing.here", false)},
					mutation{p + " + #main", with(k, v[k].(string)+"#main", false)})
				continue
			}
			out = append(out,
				mutation{p + " = 5", with(k, int64(5), false)},
				mutation{p + " = null", with(k, nil, false)},
				mutation{p + " removed", with(k, nil, true)})
			switch v[k].(type) {
			case string:
				out = append(out,
					mutation{p + " = \"\"", with(k, "", false)},
					mutation{p + " = 3001 bytes", with(k, strings.Repeat("x", 3001), false)},
					mutation{p + " = \"not a value!\"", with(k, "not a value!", false)})
			case int64:
				out = append(out,
					mutation{p + " = -1", with(k, int64(-1), false)},
					mutation{p + " = 2^40", with(k, int64(1)<<40, false)})
			case []any:
				out = append(out, mutation{p + " = []", with(k, []any{}, false)})
			}
			for _, m := range mutations(v[k], p) {
				out = append(out, mutation{m.desc, with(k, m.value, false)})
			}
		}
	case []any:
		for i, e := range v {
			for _, m := range mutations(e, fmt.Sprintf("%s/%d", path, i)) {
				c := slices.Clone(v)
				c[i] = m.value
				out = append(out, mutation{m.desc, c})
			}
		}
	}
	return out
}

// lexiconDisagreement explains one kind of case on which atcore and indigo disagree (or on
// which atcore misses an official vector's verdict), and who is right by the spec. The test
// fails on a disagreement no entry explains, and on an entry that no longer explains anything.
type lexiconDisagreement struct {
	match  func(c lexCase) bool
	right  string // "atcore" or "indigo"
	reason string
}

var lexiconDisagreements = []lexiconDisagreement{
	{
		match: func(c lexCase) bool {
			return strings.HasSuffix(c.name, "+ #main") && strings.Contains(c.atcore, "without #main") && c.indigo == "valid"
		},
		right: "atcore",
		reason: "a union variant whose `$type` names a main definition with `#main` (`app.bsky.embed.images#main`): " +
			"the spec says a `$type` must name it without the suffix (\"use of a #main suffix is invalid\"); indigo resolves it anyway",
	},
}

// lexiconComparison runs every case and sorts out the disagreements.
func lexiconComparison(t testing.TB) (all []lexCase, explained map[int][]lexCase, unexplained []lexCase) {
	all = append(all, lexiconSchemaCases(t)...)
	all = append(all, lexiconRecordCases(t)...)
	all = append(all, lexiconMutationCases(t)...)
	explained = map[int][]lexCase{}
	for _, c := range all {
		wrong := c.want != "" && short(c.atcore) != c.want
		if !wrong && short(c.atcore) == short(c.indigo) {
			continue
		}
		i := slices.IndexFunc(lexiconDisagreements, func(d lexiconDisagreement) bool { return d.match(c) })
		if i < 0 {
			unexplained = append(unexplained, c)
			continue
		}
		explained[i] = append(explained[i], c)
	}
	return all, explained, unexplained
}

func TestLexiconDifferential(t *testing.T) {
	all, explained, unexplained := lexiconComparison(t)
	for _, c := range unexplained {
		t.Errorf("unexplained: %s %q (vector: %q): atcore %s; indigo %s", c.set, c.name, c.want, c.atcore, c.indigo)
	}
	for i, d := range lexiconDisagreements {
		if len(explained[i]) == 0 {
			t.Errorf("stale explanation (matches nothing now): %s", d.reason)
		}
	}
	n := 0
	for _, cs := range explained {
		n += len(cs)
	}
	t.Logf("%d cases, %d explained disagreements", len(all), n)
}

// lexiconSection is the Lexicon part of CONFORMANCE.md.
func lexiconSection(t testing.TB) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	all, explained, unexplained := lexiconComparison(t)
	p("\n## Lexicon validation (indigo `atproto/lexicon`)\n\n")
	p("`lexicon.ParseSchema` + `NewCatalog` against indigo's `SchemaFile` parse, `FinishParse` and `CheckSchema`\n")
	p("on the schema vectors; `Catalog.ValidateRecord` against indigo's `ValidateRecord` (flags 0, both strict)\n")
	p("on the record vectors (catalog `testdata/interop/lexicon/catalog`), on the records of `testdata/records`\n")
	p("that have a real schema (402 files, `lexicon/testdata/lexicons`) and on mutations of them: each member at\n")
	p("any depth set to a wrong type, null, removed, emptied, 3,001 bytes long, a string no identifier format\n")
	p("allows, -1 or 2^40, an empty array, an extra member, a union `$type` naming nothing or ending in `#main`.\n")
	p("Each side decodes the JSON with its own decoder; a decoder's refusal counts as \"invalid\".\n\n")
	p("| vectors | case | expected | atcore | indigo |\n|---|---|---|---|---|\n")
	sets := map[string][2]int{}
	var order []string
	for _, c := range all {
		if c.want != "" {
			at, in := short(c.atcore), short(c.indigo)
			if at != c.want {
				at = "**" + at + "**"
			}
			if in != c.want {
				in = "**" + in + "**"
			}
			p("| %s | %s | %s | %s | %s |\n", c.set, escapeCell(c.name), c.want, at, in)
			continue
		}
		if _, ok := sets[c.set]; !ok {
			order = append(order, c.set)
		}
		n := sets[c.set]
		n[0]++
		if short(c.atcore) != short(c.indigo) {
			n[1]++
		}
		sets[c.set] = n
	}
	p("\nMutations (no official verdict; compared with each other):\n\n")
	for _, set := range order {
		p("- %s: %d cases, %d disagreements\n", set, sets[set][0], sets[set][1])
	}
	p("\nEvery disagreement, or miss of an official verdict, and who is right by the spec\n")
	p("(https://atproto.com/specs/lexicon):\n\n")
	for i, d := range lexiconDisagreements {
		cs := explained[i]
		if len(cs) == 0 {
			continue
		}
		p("- **%s is right** (%d cases): %s. E.g. %s %q.\n", d.right, len(cs), d.reason, cs[0].set, cs[0].name)
	}
	if len(unexplained) > 0 {
		p("- Unexplained: %d (the differential test fails)\n", len(unexplained))
	}
	return b.String()
}
