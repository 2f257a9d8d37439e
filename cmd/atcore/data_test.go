package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/atcore/atcore/datamodel"
	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"
)

// unhex decodes a hex string with spaces, for hand-written CBOR.
func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// Hand-written CBOR, each breaking one rule of DECISIONS 9 (or none).
var (
	cborFloat      = unhex("a1 6161 f93e00")       // {"a": 1.5} as a float16
	cborTruncated  = unhex("a2 6161 01 61")        // {"a": 1, then a key without its byte
	cborUnsorted   = unhex("a2 6162 01 6161 02")   // {"b": 1, "a": 2}
	cborNonMinimal = unhex("a1 6161 1801")         // {"a": 1} with a 1-byte argument
	cborIndefinite = unhex("bf 6161 01 ff")        // {_ "a": 1}
	cborTrailing   = unhex("a1 6161 01 00")        // {"a": 1} 0
	cborTag        = unhex("a1 6161 c1 01")        // {"a": 1(1)}
	cborBadUTF8    = unhex("a1 6161 62 c328")      // {"a": "\xc3("}
	cborLinkNoZero = unhex("a1 6161 d82a 42 0171") // {"a": 42(h'0171')}
	// An event-stream frame: the header {"op": 1, "t": "#commit"}, then a body {"seq": 7}.
	cborFrame = unhex("a2 6174 67 23636f6d6d6974 626f70 01" + "a1 63736571 07")
)

func TestGoldenData(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "json2cbor", rule: "JSON to canonical DAG-CBOR: keys sorted length-first, blob and link as tag 42",
			args: []string{"json2cbor", "testdata/post.json"}, code: exitOK},
		{name: "json2cbor-stdin", rule: "no FILE reads standard input",
			args: []string{"json2cbor"}, stdin: []byte(`{"text": "hi", "n": 123.0, "b": {"$bytes": "AQID"}}`), code: exitOK},
		{name: "json2cbor-float", rule: "a fraction is an error with the input, offset, path and rule (DECISIONS 10)",
			args: []string{"json2cbor", "testdata/bad-float.json"}, code: exitData,
			stderrHas: []string{"testdata/bad-float.json: offset ", `path "/embed/images/0/aspectRatio/height"`}},
		{name: "json2cbor-syntax", rule: "malformed JSON: offset of the bad byte",
			args: []string{"json2cbor"}, stdin: []byte(`{"a": [1, 2,]}`), code: exitData,
			stderrHas: []string{"atcore json2cbor: -: offset 12"}},
		{name: "json2cbor-missing-file", rule: "a missing file is named",
			args: []string{"json2cbor", "testdata/no-such-file.json"}, code: exitData,
			stderrHas: []string{"testdata/no-such-file.json: no such file or directory"}},
		{name: "json2cbor-two-files", rule: "json2cbor converts one input",
			args: []string{"json2cbor", "a.json", "b.json"}, code: exitUsage, stderrHas: []string{"too many arguments: want at most 1, got 2"}},
		{name: "cbor2json", rule: "DAG-CBOR to atproto JSON, pretty: $link, $bytes, blob",
			args: []string{"cbor2json", "testdata/interop2.cbor"}, code: exitOK},
		{name: "cbor2json-compact", rule: "-compact: one line",
			args: []string{"cbor2json", "-compact", "testdata/interop1.cbor"}, code: exitOK},
		{name: "cbor2json-float", rule: "a float is rejected with offset and path (DECISIONS 9)",
			args: []string{"cbor2json"}, stdin: cborFloat, code: exitData,
			stderrHas: []string{"atcore cbor2json: -: offset 3", `path "/a"`}},
		{name: "cbor2json-truncated", rule: "truncated input: the offset where it ends",
			args: []string{"cbor2json"}, stdin: cborTruncated, code: exitData, stderrHas: []string{"atcore cbor2json: -: offset "}},
		{name: "cbor2json-json-input", rule: "JSON given to cbor2json is rejected as CBOR",
			args: []string{"cbor2json", "testdata/post.json"}, code: exitData,
			stderrHas: []string{"atcore cbor2json: testdata/post.json: offset "}},
		{name: "cid", rule: "CIDs of records in both forms: dag-cbor, sha2-256, CIDv1 (DECISIONS 12)",
			args: []string{"cid", "testdata/interop1.json", "testdata/interop1.cbor", "testdata/interop2.cbor", "testdata/post.json"},
			code: exitOK},
		{name: "cid-stdin", rule: "no FILE reads standard input, named -",
			args: []string{"cid"}, stdin: []byte(`{"a": 1}`), code: exitOK},
		{name: "cid-raw", rule: "-raw: the CID of the bytes as a blob (raw codec)",
			args: []string{"cid", "-raw", "testdata/post.json", "testdata/interop1.cbor"}, code: exitOK},
		{name: "cid-invalid", rule: "the CID of non-canonical CBOR is refused; the other inputs still print",
			args: []string{"cid", "testdata/interop1.cbor", "-", "testdata/bad-float.json"}, stdin: cborUnsorted, code: exitData,
			stderrHas: []string{"atcore cid: -: offset ", "atcore cid: testdata/bad-float.json: offset "}},
		{name: "validate", rule: "records in either form, detected by their first byte",
			args: []string{"validate", "testdata/post.json", "testdata/interop1.json", "testdata/interop1.cbor", "testdata/interop2.cbor", "testdata/interop3.cbor"},
			code: exitOK},
		{name: "validate-invalid", rule: "each invalid record on standard error with name, offset, path and rule",
			args: []string{"validate", "testdata/bad-float.json", "-", "testdata/post.json"}, stdin: cborNonMinimal, code: exitData,
			stderrHas: []string{"atcore validate: testdata/bad-float.json: offset ", "atcore validate: -: offset 3"}},
		{name: "validate-json", rule: "-json: one object per input, with the error's parts",
			args:  []string{"validate", "-json", "testdata/post.json", "testdata/bad-float.json", "-", "testdata/missing.json"},
			stdin: cborTruncated, code: exitData,
			stderrHas: []string{"atcore validate: testdata/bad-float.json: offset 116", "atcore validate: -: offset 4", "testdata/missing.json"}},
		{name: "cid-json", rule: "-json: CID and size of records and blobs",
			args: []string{"cid", "-json", "testdata/interop1.json", "testdata/interop1.cbor"}, code: exitOK},
		{name: "cid-raw-json", rule: "-json: CID and size of blobs",
			args: []string{"cid", "-raw", "-json", "testdata/interop1.json", "-"}, stdin: []byte("abc"), code: exitOK},
		{name: "validate-directory", rule: "a directory is not a record, nor a blob",
			args: []string{"validate", "testdata/golden"}, code: exitData, stderrHas: []string{"atcore validate: testdata/golden: is a directory"}},
		{name: "cid-raw-directory", rule: "a directory is not a blob",
			args: []string{"cid", "-raw", "testdata/golden"}, code: exitData, stderrHas: []string{"atcore cid: testdata/golden: is a directory"}},
		{name: "validate-safe-ints", rule: "-safe-ints: integers within ±(2^53−1), in either form",
			args: []string{"validate", "-safe-ints", "testdata/post.json", "-"}, stdin: []byte(`{"n":9007199254740993}`), code: exitData,
			stderrHas: []string{"atcore validate: -: offset 5, path \"/n\": integer outside ±(2^53−1)"}},
		{name: "validate-not-record", rule: "a record is an object",
			args: []string{"validate"}, stdin: []byte(`"blah"`), code: exitData, stderrHas: []string{"atcore validate: -: "}},
		{name: "validate-bom", rule: "a JSON file that starts with a UTF-8 byte-order mark is read as JSON; offsets count the mark",
			args: []string{"validate"}, stdin: []byte("\xef\xbb\xbf{\"a\": 1.5}"), code: exitData,
			stderrHas: []string{"atcore validate: -: offset 9"}},
		{name: "json2cbor-bom", rule: "json2cbor skips a byte-order mark",
			args: []string{"json2cbor"}, stdin: []byte("\xef\xbb\xbf{\"a\": 1}"), code: exitOK},
		{name: "json2cbor-cbor-input", rule: "CBOR given to json2cbor: the error says it looks like CBOR",
			args: []string{"json2cbor", "testdata/interop1.cbor"}, code: exitData,
			stderrHas: []string{"the input looks like CBOR, not JSON (atcore cbor2json converts it)"}},
		{name: "cbor2json-seq", rule: "-seq: values back to back, as in an event-stream frame (header, then body)",
			args: []string{"cbor2json", "-seq", "-compact"}, stdin: cborFrame, code: exitOK},
		{name: "cbor2json-no-seq", rule: "without -seq, a second value is trailing bytes",
			args: []string{"cbor2json"}, stdin: cborFrame, code: exitData, stderrHas: []string{"trailing bytes"}},
		{name: "cbor2json-seq-bad", rule: "-seq: the values before a bad one are written; its offset counts from the start",
			args: []string{"cbor2json", "-seq", "-compact"}, stdin: append(bytes.Clone(cborFrame), cborFloat...), code: exitData,
			stderrHas: []string{"atcore cbor2json: -: offset 24, path \"/a\""}},
		{name: "validate-seq", rule: "-seq: each value of the input checked and named NAME[i]",
			args: []string{"validate", "-seq", "-", "testdata/interop1.cbor"}, stdin: append(bytes.Clone(cborFrame), cborUnsorted...), code: exitData,
			stderrHas: []string{"atcore validate: -[2]: offset 25"}},
		{name: "validate-seq-json", rule: "-seq reads CBOR only",
			args: []string{"validate", "-seq", "testdata/post.json"}, code: exitData,
			stderrHas: []string{"-seq reads CBOR values back to back; the input looks like JSON"}},
		{name: "diag-seq", rule: "diag -seq: a header and a body, both valid",
			args: []string{"diag", "-seq"}, stdin: cborFrame, code: exitOK},
		{name: "diag-seq-bad", rule: "diag -seq: the mark is on the bad item of the second value",
			args: []string{"diag", "-seq"}, stdin: append(unhex("a0"), cborFloat...), code: exitData,
			stderrHas: []string{"atcore diag: -: offset 4"}},
		{name: "validate-empty", rule: "empty input is no record",
			args: []string{"validate"}, stdin: []byte{}, code: exitData, stderrHas: []string{"atcore validate: -: offset 0"}},
	})
}

type fixture struct {
	JSON       json.RawMessage `json:"json"`
	CBORBase64 string          `json:"cbor_base64"`
	CID        string          `json:"cid"`
	Note       string          `json:"note"`
}

func readFixtures(t *testing.T, name string) []fixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "interop", "data-model", name))
	if err != nil {
		t.Fatal(err)
	}
	var fs []fixture
	if err := json.Unmarshal(data, &fs); err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return fs
}

// The interop fixtures through the commands: JSON → CBOR gives exactly the fixture's bytes,
// both forms give the fixture's CID, CBOR → JSON gives back an equal JSON value.
func TestInteropFixtures(t *testing.T) {
	for i, f := range readFixtures(t, "data-model-fixtures.json") {
		want, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(f.CBORBase64, "="))
		if err != nil {
			t.Fatal(err)
		}
		if r := atcore(f.JSON, "json2cbor"); r.code != exitOK || r.stdout != string(want) {
			t.Errorf("fixture %d: json2cbor: exit %d, %x, want %x\n%s", i, r.code, r.stdout, want, r.stderr)
		}
		for _, in := range [][]byte{f.JSON, want} {
			if r := atcore(in, "cid"); r.code != exitOK || r.stdout != f.CID+"  -\n" {
				t.Errorf("fixture %d: cid: exit %d, %q, want %q\n%s", i, r.code, r.stdout, f.CID+"  -\n", r.stderr)
			}
		}
		for _, flag := range []string{"-compact", "-compact=false"} {
			r := atcore(want, "cbor2json", flag)
			if r.code != exitOK || !jsonEqual(t, []byte(r.stdout), f.JSON) {
				t.Errorf("fixture %d: cbor2json %s: exit %d\n%s\nwant a value equal to\n%s\n%s", i, flag, r.code, r.stdout, f.JSON, r.stderr)
			}
		}
	}
}

// jsonEqual compares two JSON texts as values, numbers exactly.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	decode := func(data []byte) any {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%v in %s", err, data)
		}
		return v
	}
	va, vb := decode(a), decode(b)
	ja, _ := json.Marshal(va) // encoding/json sorts map keys: equal values, equal texts
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// validate accepts every valid case of the interop vectors and rejects every invalid one with a
// message naming the input.
func TestValidateInterop(t *testing.T) {
	for _, f := range readFixtures(t, "data-model-valid.json") {
		if r := atcore(f.JSON, "validate"); r.code != exitOK || r.stdout != "ok -\n" {
			t.Errorf("valid %q: exit %d, stdout %q, stderr %q", f.Note, r.code, r.stdout, r.stderr)
		}
	}
	for _, f := range readFixtures(t, "data-model-invalid.json") {
		if r := atcore(f.JSON, "validate"); r.code != exitData || r.stdout != "" || !strings.HasPrefix(r.stderr, "atcore validate: -: ") {
			t.Errorf("invalid %q: exit %d, stdout %q, stderr %q", f.Note, r.code, r.stdout, r.stderr)
		}
	}
}

// cid hashes records only, as its help says: a value that is not an object, in either form, is
// refused with validate's error, and -json reports it as validate -json does.
func TestCIDRecordIsObject(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		stdin []byte
		found string // what the value is, in the error
	}{
		{"a JSON string", []byte(`"x"` + "\n"), "found a string"},
		{"a JSON integer", []byte("123\n"), "found an integer"},
		{"a JSON array", []byte(`[{"a": 1}]`), "found an array"},
		{"JSON null", []byte("null"), "found null"},
		{"a CBOR integer", unhex("01"), "found an integer"},
		{"a CBOR array", unhex("81 a0"), "found an array"},
		{"a CBOR byte string", unhex("41 00"), "found bytes"},
		{"a CBOR link", unhex("d82a 5825 00 01711220" + strings.Repeat("00", 32)), "found a link"},
		// A map shaped as a blob is read as a blob: no record, though its first byte is a map's.
		{"a JSON blob", []byte(`{"$type": "blob", "ref": {"$link": "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u"}, "mimeType": "text/plain", "size": 1075}`), "found a blob"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			v := atcore(tc.stdin, "validate")
			c := atcore(tc.stdin, "cid")
			if v.code != exitData || !strings.Contains(v.stderr, "record is not an object ("+tc.found+")") {
				t.Fatalf("validate: exit %d, stderr %q", v.code, v.stderr)
			}
			if want := strings.Replace(v.stderr, "atcore validate:", "atcore cid:", 1); c.code != exitData || c.stdout != "" || c.stderr != want {
				t.Errorf("cid: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.code, c.stdout, c.stderr, want)
			}
			vj, cj := atcore(tc.stdin, "validate", "-json"), atcore(tc.stdin, "cid", "-json")
			if cj.code != exitData || cj.stdout != vj.stdout {
				t.Errorf("cid -json: exit %d, %q; validate -json: %q", cj.code, cj.stdout, vj.stdout)
			}
		})
	}
	// An object, even empty, is a record.
	if r := atcore([]byte("{}"), "cid"); r.code != exitOK || r.stderr != "" {
		t.Errorf("cid of {}: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Input of only white space is empty input, whatever the command that detects the form: not a
// CBOR integer (a newline is 10), nor trailing bytes after one. And json2cbor says its input looks
// like CBOR only when it starts as a CBOR record does, with a map head, not for any text that is
// not JSON.
func TestBlankInput(t *testing.T) {
	const empty = `offset 0, path "": unexpected end of input`
	for _, tc := range []struct {
		rule    string
		args    []string
		stdin   string
		want    string // standard error
		wantNot string // never in standard error
	}{
		{"spaces and a newline: validate", []string{"validate"}, "   \n",
			"atcore validate: -: offset 4, path \"\": unexpected end of input (only white space, no value)\n", "trailing"},
		{"a newline: validate", []string{"validate"}, "\n",
			"atcore validate: -: offset 1, path \"\": unexpected end of input (only white space, no value)\n", "not an object"},
		{"tabs and CRLF: validate -json", []string{"validate", "-json"}, "\t\r\n", "offset 3", "not an object"},
		{"a newline: validate -seq", []string{"validate", "-seq"}, "\n", "atcore validate: -: offset 1, path \"\": unexpected end of input", "not an object"},
		{"a byte-order mark alone: validate", []string{"validate"}, "\xef\xbb\xbf", "atcore validate: -: offset 3, path \"\": unexpected end of input", "malformed"},
		{"a newline: cid", []string{"cid"}, "\n", "atcore cid: -: offset 1, path \"\": unexpected end of input (only white space, no value)\n", ""},
		{"empty input keeps its error: validate", []string{"validate"}, "", "atcore validate: -: " + empty + "\n", ""},
		{"empty input keeps its error: cid", []string{"cid"}, "", "atcore cid: -: " + empty + "\n", ""},
		// Empty input holds no value [0]: it is named as white space alone is, by the input's name.
		{"empty input: validate -seq names the input, not a value", []string{"validate", "-seq"}, "", "atcore validate: -: " + empty + "\n", "-[0]"},
		{"spaces and a newline: json2cbor, no CBOR hint", []string{"json2cbor"}, "   \n",
			"atcore json2cbor: -: offset 4, path \"\": unexpected end of input (expected a value)\n", "CBOR"},
		{"plain text: json2cbor, no CBOR hint", []string{"json2cbor"}, "hello",
			"atcore json2cbor: -: offset 0, path \"\": malformed input (expected a value, found 'h')\n", "CBOR"},
		{"empty input: json2cbor, no CBOR hint", []string{"json2cbor"}, "", "atcore json2cbor: -: " + empty, "CBOR"},
		{"a CBOR record: json2cbor hints at cbor2json", []string{"json2cbor"}, string(unhex("a1 6161 01")),
			"; the input looks like CBOR, not JSON (atcore cbor2json converts it)\n", ""},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := atcore([]byte(tc.stdin), tc.args...)
			if r.code != exitData || !strings.Contains(r.stderr, tc.want) || tc.wantNot != "" && strings.Contains(r.stderr, tc.wantNot) {
				t.Errorf("exit %d, stderr %q; want exit 1 and %q, without %q", r.code, r.stderr, tc.want, tc.wantNot)
			}
		})
	}
}

// The repository's realistic records (testdata/records, both forms) validate, and their two
// forms have the same CID.
func TestRecords(t *testing.T) {
	jsons, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "records", "*.json"))
	if len(jsons) == 0 {
		t.Fatal("no records in ../../testdata/records")
	}
	for _, j := range jsons {
		c := strings.TrimSuffix(j, ".json") + ".cbor"
		if r := atcore(nil, "validate", j, c); r.code != exitOK || r.stdout != "ok "+j+"\nok "+c+"\n" {
			t.Errorf("validate %s %s: exit %d\n%s%s", j, c, r.code, r.stdout, r.stderr)
		}
		r := atcore(nil, "cid", j, c)
		out := lines(r.stdout)
		if r.code != exitOK || len(out) != 2 || strings.Fields(out[0])[0] != strings.Fields(out[1])[0] {
			t.Errorf("cid %s %s: exit %d, the two forms differ:\n%s%s", j, c, r.code, r.stdout, r.stderr)
		}
		if r := atcore(nil, "json2cbor", j); r.code != exitOK || r.stdout != string(mustRead(t, c)) {
			t.Errorf("json2cbor %s differs from %s", j, c)
		}
	}
}

func mustRead(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cid -raw is the raw-codec CID of the bytes, computed here independently with go-cid.
func TestCIDRaw(t *testing.T) {
	data := mustRead(t, "testdata/post.json")
	sum := sha256.Sum256(data)
	hash, err := mh.Encode(sum[:], mh.SHA2_256)
	if err != nil {
		t.Fatal(err)
	}
	want := cid.NewCidV1(cid.Raw, hash).String() + "  testdata/post.json\n"
	if r := atcore(nil, "cid", "-raw", "testdata/post.json"); r.code != exitOK || r.stdout != want {
		t.Errorf("got %q, want %q (%s)", r.stdout, want, r.stderr)
	}
}

// A blob's CID is computed as it streams: hashing 64 MiB allocates far less than 64 MiB.
func TestCIDRawStreams(t *testing.T) {
	const size = 64 << 20
	var stdout, stderr bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code := run([]string{"cid", "-raw"}, io.LimitReader(zeros{}, size), &stdout, &stderr)
	runtime.ReadMemStats(&after)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	sum := sha256.Sum256(make([]byte, size))
	hash, _ := mh.Encode(sum[:], mh.SHA2_256)
	if want := cid.NewCidV1(cid.Raw, hash).String() + "  -\n"; stdout.String() != want {
		t.Errorf("got %q, want %q", stdout.String(), want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/8 {
		t.Errorf("hashing %d bytes allocated %d bytes: the blob is not streamed", size, alloc)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Records are read up to the limit and no further: a huge input costs at most limit+1 bytes.
func TestInputLimit(t *testing.T) {
	huge := io.LimitReader(zeros{}, 1<<30)
	var stdout, stderr bytes.Buffer
	code := run([]string{"cbor2json"}, huge, &stdout, &stderr)
	if code != exitData || !strings.Contains(stderr.String(), "input larger than the limit") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if n := huge.(*io.LimitedReader).N; n < 1<<30-(1<<21) {
		t.Errorf("read %d bytes of a 1 GiB input to find it too large for 1 MiB", 1<<30-n)
	}
}

// CBOR beyond its limit of 1 MiB is refused with that limit and at that offset, however far
// beyond it is: validate and cid read up to the larger limit, JSON's 2 MiB, before they know the
// form, and CBOR of more than 2 MiB used to be refused with JSON's limit, at offset 2097152,
// while CBOR of 1.5 MiB was refused with its own.
func TestCBORLimitBeyondJSONLimit(t *testing.T) {
	for _, size := range []int{1_500_000, 3_000_000} {
		rec, err := datamodel.MarshalCBOR(map[string]any{"$type": "a.b.c", "a": strings.Repeat("x", size)})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"validate", "cid", "cbor2json"} {
			r := atcore(rec, cmd)
			if r.code != exitData || r.stdout != "" || !strings.Contains(r.stderr, "atcore "+cmd+": -: offset 1048576, ") ||
				!strings.Contains(r.stderr, "limit 1048576)") {
				t.Errorf("%s of %d bytes of CBOR: exit %d, stdout %d bytes, stderr %q; want CBOR's limit", cmd, len(rec), r.code, len(r.stdout), r.stderr)
			}
		}
	}
	// JSON keeps its own limit.
	big := []byte(`{"$type": "a.b.c", "a": "` + strings.Repeat("x", 3_000_000) + `"}`)
	for _, cmd := range []string{"validate", "cid"} {
		if r := atcore(big, cmd); r.code != exitData || !strings.Contains(r.stderr, "offset 2097152, ") || !strings.Contains(r.stderr, "limit 2097152)") {
			t.Errorf("%s of 3 MB of JSON: exit %d, stderr %q; want JSON's limit", cmd, r.code, r.stderr)
		}
	}
}

// A record within one form's limit whose other form is beyond its own: no command writes a file
// that the commands then refuse to read. A string takes about as many bytes in CBOR as in
// JSON, so a JSON record of 1.5 MB is 1.5 MB of CBOR, beyond 1 MiB; a control character is one
// byte in CBOR and six in JSON ("\u0001").
func TestOtherFormTooLarge(t *testing.T) {
	big := []byte(`{"$type": "a.b.c", "a": "` + strings.Repeat("x", 1_500_000) + `"}`)
	for _, cmd := range []string{"validate", "cid", "json2cbor"} {
		r := atcore(big, cmd)
		if r.code != exitData || r.stdout != "" || !strings.Contains(r.stderr, "the DAG-CBOR form would be 1500020 bytes, limit 1048576") {
			t.Errorf("%s of 1.5 MB of JSON: exit %d, stdout %d bytes, stderr %q", cmd, r.code, len(r.stdout), r.stderr)
		}
	}
	ctl, err := datamodel.MarshalCBOR(map[string]any{"$type": "a.b.c", "a": strings.Repeat("\x01", 400_000)})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"cbor2json"}, {"cbor2json", "-compact"}} {
		r := atcore(ctl, args...)
		if r.code != exitData || r.stdout != "" || !strings.Contains(r.stderr, "the JSON form would be") {
			t.Errorf("%s of 400 KB of control characters: exit %d, stdout %d bytes, stderr %q", args, r.code, len(r.stdout), r.stderr)
		}
	}
	if r := atcore(ctl, "validate"); r.code != exitData || !strings.Contains(r.stderr, "the JSON form would be") {
		t.Errorf("validate of the CBOR record itself: exit %d, %q; want the JSON form's size refused", r.code, r.stderr)
	}
	// -seq checks each value as validate checks a record, as cbor2json -seq converts each.
	frame := append(append([]byte{}, cborFrameHeader...), ctl...)
	r := atcore(frame, "validate", "-seq")
	if r.code != exitData || r.stdout != "ok -[0]\n" || !strings.Contains(r.stderr, "atcore validate: -[1]: ") ||
		!strings.Contains(r.stderr, "the JSON form would be") {
		t.Errorf("validate -seq of a header and that record: exit %d, stdout %q, stderr %q; want -[1]'s JSON form's size refused", r.code, r.stdout, r.stderr)
	}
	if r := atcore(frame, "cbor2json", "-seq"); r.code != exitData || !strings.Contains(r.stderr, "the JSON form would be") {
		t.Errorf("cbor2json -seq of a header and that record: exit %d, %q", r.code, r.stderr)
	}
}

// cborFrameHeader is an event-stream frame header, {"op": 1, "t": "#commit"}.
var cborFrameHeader = []byte("\xa2\x61t\x67#commit\x62op\x01")

// The -json lines decode, and carry the error's parts separately.
func TestValidateJSON(t *testing.T) {
	r := atcore(cborFloat, "validate", "-json", "testdata/post.json", "-")
	out := lines(r.stdout)
	if r.code != exitData || len(out) != 2 {
		t.Fatalf("exit %d, %d lines", r.code, len(out))
	}
	var ok, bad inputResult
	if err := json.Unmarshal([]byte(out[0]), &ok); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out[1]), &bad); err != nil {
		t.Fatal(err)
	}
	if !ok.OK || ok.Name != "testdata/post.json" || ok.Error != "" {
		t.Errorf("valid record: %+v", ok)
	}
	if bad.OK || bad.Name != "-" || bad.Offset == nil || *bad.Offset != 3 || bad.Path == nil || *bad.Path != "/a" ||
		bad.Rule != "floating-point number" {
		t.Errorf("float: %+v", bad)
	}
}

// FuzzDataCommands: whatever the input, the data commands exit 0 with nothing on standard
// error, or 1 with exactly one line on standard error naming standard input; never 2, never a
// panic. What validate accepts, cid hashes and cbor2json or json2cbor converts.
func FuzzDataCommands(f *testing.F) {
	for _, seed := range [][]byte{cborFloat, cborTruncated, cborUnsorted, cborIndefinite, cborTrailing,
		[]byte(`{"a": [1, {"$link": "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"}]}`), []byte(" {}"), nil} {
		f.Add(seed)
	}
	for _, name := range []string{"testdata/post.json", "testdata/interop2.cbor", "testdata/interop3.json"} {
		f.Add(mustRead(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		results := map[string]result{}
		for _, args := range [][]string{{"validate"}, {"cid"}, {"cbor2json"}, {"json2cbor"}, {"diag"}} {
			r := atcore(data, args...)
			results[args[0]] = r
			switch r.code {
			case exitOK:
				if r.stderr != "" {
					t.Fatalf("%s: exit 0 with %q", args[0], r.stderr)
				}
			case exitData:
				if !strings.HasPrefix(r.stderr, "atcore "+args[0]+": -: ") || strings.Count(r.stderr, "\n") != 1 {
					t.Fatalf("%s: exit 1 with %q", args[0], r.stderr)
				}
			default:
				t.Fatalf("%s: exit %d: %s", args[0], r.code, r.stderr)
			}
		}
		if results["validate"].code == exitOK {
			if results["cid"].code != exitOK {
				t.Fatalf("validate accepts what cid refuses: %s", results["cid"].stderr)
			}
			form := "cbor2json"
			if isJSON(data) {
				form = "json2cbor"
			}
			if results[form].code != exitOK {
				t.Fatalf("validate accepts what %s refuses: %s", form, results[form].stderr)
			}
		}
	})
}
