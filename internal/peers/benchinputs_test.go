package peers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/bluesky-social/indigo/atproto/atdata"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/peers/benchinputs"
	"github.com/atcore/atcore/lexicon"
)

// The inputs of the speed issue (issue 16), made by package benchinputs from its fixed seed at
// benchmark time (not committed: the large ones and the stream weigh megabytes). A benchmark
// family runs them after the records of testdata/records, as rec=NAME rows.

var (
	genOnce   sync.Once
	genInputs []benchinputs.Input
	genErr    error
)

func generatedInputs(t testing.TB) []benchinputs.Input {
	t.Helper()
	genOnce.Do(func() { genInputs, genErr = benchinputs.Generate(benchinputs.Seed) })
	if genErr != nil {
		t.Fatal(genErr)
	}
	return genInputs
}

// A benchRecord is one benchmark input: a record of testdata/records (one part) or a generated
// input (the stream has one part per record; an operation processes every part).
type benchRecord struct {
	name  string
	parts []benchinputs.Part
	size  int // CBOR bytes of all parts, for b.SetBytes
	jsize int // JSON bytes of all parts
}

// benchRecords returns the records of testdata/records, then the generated inputs.
func benchRecords(b testing.TB) []benchRecord {
	b.Helper()
	var out []benchRecord
	for _, r := range loadRecords(b) {
		out = append(out, benchRecord{name: r.name, parts: []benchinputs.Part{{CBOR: r.cbor, JSON: r.json}}, size: len(r.cbor), jsize: len(r.json)})
	}
	for _, in := range generatedInputs(b) {
		br := benchRecord{name: in.Name, parts: in.Parts}
		for _, p := range in.Parts {
			br.size += len(p.CBOR)
			br.jsize += len(p.JSON)
		}
		out = append(out, br)
	}
	return out
}

// benchParts runs f on every part of an input per operation, as the sub-benchmark impl=name
// (see benchImpl): f takes a part's index, so that it can use trees decoded beforehand.
func benchParts[T any](b *testing.B, name string, size, n int, f func(i int) (T, error)) {
	benchImpl(b, name, size, func() (T, error) {
		var last T
		for i := range n {
			v, err := f(i)
			if err != nil {
				return last, err
			}
			last = v
		}
		return last, nil
	})
}

// decodeParts decodes every part with dec, for the encode benchmarks.
func decodeParts[T any](b *testing.B, parts []benchinputs.Part, json bool, dec func([]byte) (T, error)) []T {
	b.Helper()
	out := make([]T, len(parts))
	for i, p := range parts {
		data := p.CBOR
		if json {
			data = p.JSON
		}
		v, err := dec(data)
		if err != nil {
			b.Fatal(err)
		}
		out[i] = v
	}
	return out
}

// benchInputsDigest is the SHA-256 of every generated input (names, CBOR and JSON). It pins the
// inputs: they were made once, not tuned on any implementation. If the generator changes on
// purpose, update it and say why in the commit.
const benchInputsDigest = "d73c7d855952ecea638b6a03ff09619b98a011823a77afa137c655d03023e900"

func TestBenchInputsPinned(t *testing.T) {
	h := sha256.New()
	for _, in := range generatedInputs(t) {
		h.Write([]byte(in.Name))
		h.Write(in.CBOR)
		h.Write(in.JSON)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != benchInputsDigest {
		t.Errorf("generated inputs changed: SHA-256 %s, want %s", got, benchInputsDigest)
	}
}

// TestBenchInputsShape checks what the speed issue asks of each input.
func TestBenchInputsShape(t *testing.T) {
	ins := map[string]benchinputs.Input{}
	for _, in := range generatedInputs(t) {
		ins[in.Name] = in
	}
	one := func(name string) any {
		t.Helper()
		in, ok := ins[name]
		if !ok || len(in.Parts) != 1 {
			t.Fatalf("input %s: missing or not one record", name)
		}
		v, err := datamodel.UnmarshalJSON(in.JSON)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Text that mixes Latin, CJK, Cyrillic, Arabic and emoji.
	scripts := []struct {
		name string
		in   func(rune) bool
	}{
		{"Latin beyond ASCII", func(r rune) bool { return r > 0x7f && unicode.Is(unicode.Latin, r) }},
		{"CJK", func(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Hangul) }},
		{"Cyrillic", func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }},
		{"Arabic", func(r rune) bool { return unicode.Is(unicode.Arabic, r) }},
		{"emoji", func(r rune) bool { return r >= 0x1f300 && r <= 0x1faff }},
	}
	for _, c := range []struct{ name, field string }{{"mixprofile", "description"}, {"mixpost", "text"}} {
		text, _ := one(c.name).(map[string]any)[c.field].(string)
		for _, s := range scripts {
			if !strings.ContainsFunc(text, s.in) {
				t.Errorf("%s %s has no %s: %q", c.name, c.field, s.name, text)
			}
		}
	}
	post := one("mixpost").(map[string]any)
	if imgs := post["embed"].(map[string]any)["images"].([]any); len(imgs) != 4 {
		t.Errorf("mixpost has %d images, want 4", len(imgs))
	}
	if n := len(ins["big900k"].CBOR); n < 900_000 || n >= datamodel.DefaultMaxCBORSize {
		t.Errorf("big900k is %d bytes of CBOR, want 900 000 up to the 1 MiB limit", n)
	}
	if n := len(ins["big50k"].CBOR); n < 50_000 || n > 64<<10 {
		t.Errorf("big50k is %d bytes of CBOR, want 50 000 up to 64 KiB", n)
	}
	counts := one("wide32k").(map[string]any)["counts"].(map[string]any)
	if len(counts) != benchinputs.WideMapKeys {
		t.Errorf("wide32k has %d keys, want %d", len(counts), benchinputs.WideMapKeys)
	}
	st := ins["stream10k"]
	if len(st.Parts) < 10_000 {
		t.Errorf("stream10k has %d records, want at least 10 000", len(st.Parts))
	}
	types := map[string]int{}
	sizes := map[int]bool{}
	for _, p := range st.Parts {
		v, err := datamodel.UnmarshalCBOR(p.CBOR)
		if err != nil {
			t.Fatal(err)
		}
		types[v.(map[string]any)["$type"].(string)]++
		sizes[len(p.CBOR)/100] = true
	}
	if len(types) < 8 || len(sizes) < 10 {
		t.Errorf("stream10k: %d collections %v, %d size classes of 100 bytes; want at least 8 and 10", len(types), types, len(sizes))
	}
	if !bytes.Equal(st.JSON, slices.Concat(joinLines(st.Parts)...)) {
		t.Error("stream10k JSON is not its records as NDJSON")
	}
}

func joinLines(parts []benchinputs.Part) [][]byte {
	var out [][]byte
	for _, p := range parts {
		out = append(out, p.JSON, []byte("\n"))
	}
	return out
}

// TestBenchInputsValid checks every generated record: its CBOR is the canonical encoding of its
// JSON (atcore), indigo reads both forms to the same record, and the records of a real
// collection pass its Lexicon (atcore's validator with the Bluesky schemas).
func TestBenchInputsValid(t *testing.T) {
	cat, err := lexicon.LoadDir(filepath.Join(repoRoot, "lexicon", "testdata", "lexicons"))
	if err != nil {
		t.Fatal(err)
	}
	validated := 0
	for _, in := range generatedInputs(t) {
		if len(in.Parts) > 1 && !bytes.Equal(in.CBOR, slices.Concat(cborParts(in.Parts)...)) {
			t.Errorf("%s: CBOR is not its records back to back", in.Name)
		}
		for i, p := range in.Parts {
			v, err := datamodel.UnmarshalCBOR(p.CBOR)
			if err != nil {
				t.Fatalf("%s[%d]: %v", in.Name, i, err)
			}
			again, err := datamodel.MarshalCBOR(v)
			if err != nil || !bytes.Equal(again, p.CBOR) {
				t.Fatalf("%s[%d]: CBOR is not canonical (%v)", in.Name, i, err)
			}
			fromJSON, err := datamodel.JSONToCBOR(p.JSON)
			if err != nil || !bytes.Equal(fromJSON, p.CBOR) {
				t.Fatalf("%s[%d]: JSON and CBOR disagree (%v)", in.Name, i, err)
			}
			ic, err := atdata.UnmarshalCBOR(p.CBOR)
			if err != nil {
				t.Fatalf("%s[%d]: indigo refuses the CBOR: %v", in.Name, i, err)
			}
			ij, err := atdata.UnmarshalJSON(p.JSON)
			if err != nil {
				t.Fatalf("%s[%d]: indigo refuses the JSON: %v", in.Name, i, err)
			}
			c1, err1 := atdata.MarshalCBOR(ic)
			c2, err2 := atdata.MarshalCBOR(ij)
			if err1 != nil || err2 != nil || !bytes.Equal(c1, p.CBOR) || !bytes.Equal(c2, p.CBOR) {
				t.Fatalf("%s[%d]: indigo's CBOR differs (%v, %v)", in.Name, i, err1, err2)
			}
			typ := v.(map[string]any)["$type"].(string)
			if strings.HasPrefix(typ, "com.example.") {
				continue
			}
			if err := cat.ValidateRecord(v, lexicon.Options{}); err != nil {
				t.Errorf("%s[%d] (%s): %v", in.Name, i, typ, err)
			}
			validated++
		}
	}
	if validated < 10_000 {
		t.Errorf("%d records validated against a Lexicon, want every real one (over 10 000)", validated)
	}
}

func cborParts(parts []benchinputs.Part) [][]byte {
	var out [][]byte
	for _, p := range parts {
		out = append(out, p.CBOR)
	}
	return out
}

// atcoreCBOR and atcoreJSON are datamodel's decoders with the default limits, as func([]byte).
func atcoreCBOR(data []byte) (any, error) { return datamodel.UnmarshalCBOR(data) }
func atcoreJSON(data []byte) (any, error) { return datamodel.UnmarshalJSON(data) }
