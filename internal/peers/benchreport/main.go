// Command benchreport reads `go test -bench` output of the peers benchmarks and prints, in
// Markdown, the ratios between atcore and each peer (medians of the run) and whether each target
// of issues 5 and 16 (and of issue 15 for typed records, issue 17 for Lexicon validation) is met. bench.sh calls it to write BENCHMARKS.md.
//
//	go run ./benchreport < bench.txt
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// sample is one benchmark line's measurements.
type sample struct {
	ns, allocs, mbps float64
}

// results maps a benchmark (its name without the impl= element and the GOMAXPROCS suffix) to
// each implementation's samples.
type results map[string]map[string][]sample

var lineRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func parse(r io.Reader) (results, error) {
	res := results{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name, impl, ok := splitImpl(m[1])
		if !ok {
			continue
		}
		var s sample
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = v
			case "allocs/op":
				s.allocs = v
			case "MB/s":
				s.mbps = v
			}
		}
		if res[name] == nil {
			res[name] = map[string][]sample{}
		}
		res[name][impl] = append(res[name][impl], s)
	}
	return res, sc.Err()
}

// splitImpl takes "BenchmarkX/rec=post/impl=indigo" apart into "BenchmarkX/rec=post", "indigo".
func splitImpl(full string) (name, impl string, ok bool) {
	parts := strings.Split(full, "/")
	for i, p := range parts {
		if v, found := strings.CutPrefix(p, "impl="); found {
			rest := slices.Delete(slices.Clone(parts), i, i+1)
			return strings.Join(rest, "/"), v, true
		}
	}
	return "", "", false
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// med returns the median ns/op and allocs/op of one implementation in one benchmark.
func (r results) med(name, impl string) (ns, allocs float64, ok bool) {
	ss := r[name][impl]
	if len(ss) == 0 {
		return 0, 0, false
	}
	var n, a []float64
	for _, s := range ss {
		n = append(n, s.ns)
		a = append(a, s.allocs)
	}
	return median(n), median(a), true
}

// medMBps returns the median throughput of one implementation in one benchmark (0 if the
// benchmark does not report bytes).
func (r results) medMBps(name, impl string) (float64, bool) {
	var m []float64
	for _, s := range r[name][impl] {
		m = append(m, s.mbps)
	}
	return median(m), len(m) > 0 && median(m) > 0
}

// steps lists, for every implementation but atcore and skip measured in both benchmarks, its cost
// per byte in big over its cost per byte in small.
func (r results) steps(big, small, skip string) string {
	var out []string
	for impl := range r[big] {
		if impl == "atcore" || impl == skip {
			continue
		}
		b, ok1 := r.medMBps(big, impl)
		s, ok2 := r.medMBps(small, impl)
		if ok1 && ok2 {
			out = append(out, fmt.Sprintf("%s %.2f×", impl, s/b))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// names returns the benchmarks whose name starts with prefix, sorted.
func (r results) names(prefix string) []string {
	var out []string
	for n := range r {
		if n == prefix || strings.HasPrefix(n, prefix+"/") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func formatNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.1f ns", ns)
	}
}

// A target is one goal of issue 5 or 16: in benchmark group prefix, ratio = other/atcore time (or
// atcore/other when atcoreOver is set) compared with want.
type target struct {
	what       string
	prefix     string
	other      string
	ours       string // atcore's impl name, default "atcore"
	atcoreOver bool   // the ratio is atcore's time over the other's (a bound on our cost)
	want       float64
	atLeast    bool // met if ratio >= want; otherwise met if ratio <= want (or < want when strict)
	strict     bool
	zeroAllocs bool
	// otherIn, if set, is the benchmark in which the other implementation is measured (for
	// comparing atcore's generic decode with a typed one).
	otherIn string
	// floor, if set, is the impl of a row measuring a cost that every implementation pays and
	// that bounds the ratio: the report gives the other's time over it, the best ratio possible.
	floor, floorWhat string
	// perByte compares costs per byte instead of per operation: ratio = the cost per byte of
	// atcore in the benchmark over that of other in otherIn (MB/s of the second over the first).
	// It says whether a cost grows in proportion to the input (issue 16: "linear in output size").
	perByte bool
}

// readCopyWhat describes the read-copy row of the large encode benchmarks (internal/peers
// encode_floor_test.go); the read-all row beside it, which allocates and writes nothing, is
// reported with the other implementations' steps.
const readCopyWhat = "reading every byte an encoder reads in the same tree (entries, keys, strings, links, bytes) and copying them, unordered and unframed, into a new buffer of the encoder's output size (not an encoder: the least one that returns a new slice does)"

var targets = []target{
	{what: "tid.Next at least 3× faster than indigo TIDClock.Next, 0 allocs", prefix: "BenchmarkTIDNext", other: "indigo", want: 3, atLeast: true, zeroAllocs: true,
		floor: "clock-read", floorWhat: "the monotonic clock read alone (time.Since), which every TID needs"},
	{what: "TID parse at least 10× faster than indigo ParseTID", prefix: "BenchmarkTIDParse", other: "indigo", want: 10, atLeast: true},
	{what: "record key validation at least 20× faster than indigo ParseRecordKey", prefix: "BenchmarkRecordKeyValidate", other: "indigo", want: 20, atLeast: true},
	{what: "NSID parse at least 10× faster than indigo ParseNSID, 0 allocs", prefix: "BenchmarkNSIDParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "DID parse at least 10× faster than indigo ParseDID, 0 allocs", prefix: "BenchmarkDIDParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true,
		floor: "read-only", floorWhat: "reading the 32 bytes of a did:plc once and storing the result, with no check of its alphabet (not a parser: the least any parser does)"},
	{what: "handle parse at least 10× faster than indigo ParseHandle, 0 allocs", prefix: "BenchmarkHandleParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "at-identifier parse at least 10× faster than indigo ParseAtIdentifier, 0 allocs", prefix: "BenchmarkAtIdentifierParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true,
		floor: "read-only", floorWhat: "reading the 32 bytes of a did:plc once and storing the result, with no check of its alphabet (not a parser: the least any parser does)"},
	{what: "AT URI parse at least 10× faster than indigo ParseATURI, 0 allocs", prefix: "BenchmarkATURIParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "datetime parse at least 10× faster than indigo ParseDatetime, 0 allocs", prefix: "BenchmarkDatetimeParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "lenient datetime parse at least 10× faster than indigo ParseDatetimeLenient, 0 allocs", prefix: "BenchmarkDatetimeParseLenient", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "language tag parse at least 10× faster than indigo ParseLanguage, 0 allocs", prefix: "BenchmarkLanguageParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "generic CBOR decode at least 5× faster than indigo atdata.UnmarshalCBOR (issue 16: on every input)", prefix: "BenchmarkCBORDecode", other: "indigo", want: 5, atLeast: true},
	{what: "generic CBOR decode faster than go-ipld-prime", prefix: "BenchmarkCBORDecode", other: "ipld", want: 1, atLeast: true, strict: true},
	{what: "generic CBOR encode at least 5× faster than indigo atdata.MarshalCBOR", prefix: "BenchmarkCBOREncode", other: "indigo", want: 5, atLeast: true},
	{what: "typed FeedPost decode within 1.5× of cbor-gen", prefix: "BenchmarkFeedPostDecode", other: "cbor-gen", atcoreOver: true, want: 1.5},
	{what: "stretch: generic decode of the post as fast as cbor-gen's typed decode", prefix: "BenchmarkCBORDecode/rec=post", other: "cbor-gen", otherIn: "BenchmarkFeedPostDecode", atcoreOver: true, want: 1},
	{what: "JSON decode at least 3× faster than indigo atdata.UnmarshalJSON", prefix: "BenchmarkJSONDecode", other: "indigo", want: 3, atLeast: true},
	{what: "record CID within 1.2× of bare sha256 of the same bytes", prefix: "BenchmarkRecordCID", other: "sha256", atcoreOver: true, want: 1.2},
	{what: "record CID as bytes (AppendSumCBOR) within 1.2× of bare sha256", prefix: "BenchmarkRecordCID", other: "sha256", ours: "atcore-append", atcoreOver: true, want: 1.2},
	{what: "issue 16: CBOR encode linear in output size: cost per byte of the 900 KB record within 1.25× of the 50 KB one's", prefix: "BenchmarkCBOREncode/rec=big900k", other: "atcore", otherIn: "BenchmarkCBOREncode/rec=big50k", perByte: true, want: 1.25,
		floor: "read-copy", floorWhat: readCopyWhat},
	{what: "issue 16: JSON encode linear in output size: cost per byte of the 900 KB record within 1.25× of the 50 KB one's", prefix: "BenchmarkJSONEncode/rec=big900k", other: "atcore", otherIn: "BenchmarkJSONEncode/rec=big50k", perByte: true, want: 1.25,
		floor: "read-copy", floorWhat: readCopyWhat},
	{what: "issue 16: wide-map CBOR encode (32 768 keys) within 1.5× of go-ipld-prime", prefix: "BenchmarkCBOREncode/rec=wide32k", other: "ipld", atcoreOver: true, want: 1.5},
	{what: "issue 16: MarshalJSON at least as fast as goccy/go-json (encoding the same tree into any)", prefix: "BenchmarkJSONEncode", other: "goccy", want: 1, atLeast: true},
	{what: "issue 16: UnmarshalJSON at least as fast as sonic (decoding into any)", prefix: "BenchmarkJSONDecode", other: "sonic", want: 1, atLeast: true},
	{what: "issue 16, context: UnmarshalJSON at least as fast as sonic doing the same work (sonic-copy: strings copied out of the input, UTF-8 checked)", prefix: "BenchmarkJSONDecode", other: "sonic-copy", want: 1, atLeast: true},
	// Issue 15: the typed path against the code cbor-gen v0.3.1 generates for a plain struct with
	// the same fields (internal/peers/cborgenpeer), on the same bytes.
	{what: "issue 15: typed decode no slower than cbor-gen's generated code for a plain struct (cborgenpeer)", prefix: "BenchmarkTypedDecode", other: "cborgen", atcoreOver: true, want: 1},
	{what: "issue 15: typed encode no slower than cbor-gen's generated code for a plain struct (cborgenpeer)", prefix: "BenchmarkTypedEncode", other: "cborgen", atcoreOver: true, want: 1},
	{what: "issue 15: reading a record's $type alone (RecordTypeCBOR, RecordTypeJSON) at least 20× faster than a full generic decode of the same record, 0 allocs", prefix: "BenchmarkRecordType", other: "atcore-decode", want: 20, atLeast: true, zeroAllocs: true},
	// Filled by the registry work of issue 15: BenchmarkUnionDecode rows impl=atcore (a record
	// decoded through the registry, by its $type) and impl=atcore-concrete (the same bytes into
	// the registered struct directly). Until they exist the row says "not run".
	{what: "issue 15: union decode through the registry within 1.2× of decoding into the concrete struct", prefix: "BenchmarkUnionDecode", other: "atcore-concrete", atcoreOver: true, want: 1.2},
	{what: "Lexicon record validation (issue 17) at least 5× faster than indigo lexicon.ValidateRecord, 0 allocs", prefix: "BenchmarkLexiconValidate", other: "indigo", want: 5, atLeast: true, zeroAllocs: true},
}

// An interleavedTarget is a target (of issues 15 and 16) read from a benchmark that times atcore and the
// other implementation in turn, batch by batch (internal/peers interleaved): it reports metric, the
// other's median batch time over atcore's, which on a machine whose load changes is steadier than
// the ratio of two rows measured apart.
type interleavedTarget struct {
	what, bench, metric string
	want                float64 // met if the ratio is at least want
	// within marks a "within" target: the ratio shown is atcore's time over the other's (the
	// inverse of metric), met if it is at most want.
	within bool
	// atMost marks a target met if metric itself is at most want (the "linear" ones, whose
	// metric is a cost per byte over another).
	atMost bool
	// context marks a row that is shown beside a target, measured another way, and is not
	// itself a target: its verdict reads "context" and it is never counted as missed.
	context bool
}

var interleavedTargets = []interleavedTarget{
	{what: "generic CBOR decode at least 5× faster than indigo", bench: "BenchmarkCBORDecodeRatio", metric: "x-indigo", want: 5},
	{what: "MarshalJSON at least as fast as goccy/go-json", bench: "BenchmarkJSONEncodeRatio", metric: "x-goccy", want: 1},
	{what: "UnmarshalJSON at least as fast as sonic", bench: "BenchmarkJSONDecodeRatio", metric: "x-sonic", want: 1},
	{what: "(context) UnmarshalJSON against sonic, batches of 16 MiB that run through their own collections", bench: "BenchmarkJSONDecodeRatioCollected", metric: "x-sonic", want: 1, context: true},
	{what: "(context) UnmarshalJSON against sonic, forty posts nested wrap levels deeper (stack room)", bench: "BenchmarkJSONDecodeNestedRatio", metric: "x-sonic", want: 1, context: true},
	{what: "issue 15: union decode through the registry within 1.2× of decoding into the concrete struct", bench: "BenchmarkUnionDecodeRatio", metric: "x-atcore-concrete", want: 1.2, within: true},
	{what: "issue 16: encoders linear in output size: cost per byte of the 900 KB record within 1.25× of the 50 KB one's", bench: "BenchmarkEncodeLinearRatio", metric: "x-per-byte", want: 1.25, atMost: true},
}

var metricLineRE = regexp.MustCompile(`^(Benchmark[^/\s]+)/(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// parseMetric collects, for each sub-benchmark of bench, the values of one custom metric.
func parseMetric(text, bench, metric string) map[string][]float64 {
	out := map[string][]float64{}
	for _, line := range strings.Split(text, "\n") {
		m := metricLineRE.FindStringSubmatch(line)
		if m == nil || m[1] != bench {
			continue
		}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i++ {
			if f[i+1] == metric {
				if v, err := strconv.ParseFloat(f[i], 64); err == nil {
					out[m[2]] = append(out[m[2]], v)
				}
			}
		}
	}
	return out
}

// reportInterleaved writes the table of interleavedTargets and returns what it missed.
func reportInterleaved(w io.Writer, text string) (missed []string) {
	fmt.Fprintln(w, "The same targets, timed in turn (the two implementations alternate batch by batch in one loop,")
	fmt.Fprintln(w, "each batch after a collection, at least 10 rounds a sample; \"ratio\" is the median over this run's")
	fmt.Fprintln(w, "samples of the other's median batch time over atcore's, or of atcore's over the other's in the")
	fmt.Fprintln(w, "\"within\" targets; in the \"linear\" one, atcore's cost per byte on the large record over that")
	fmt.Fprintln(w, "on the small one):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | benchmark | samples | ratio (lowest, highest) | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, tg := range interleavedTargets {
		byRec := parseMetric(text, tg.bench, tg.metric)
		if len(byRec) == 0 {
			fmt.Fprintf(w, "| %s | %s | | | not run |\n", tg.what, tg.bench)
			if !tg.context {
				missed = append(missed, tg.what+", timed in turn: not run")
			}
			continue
		}
		var recs []string
		for r := range byRec {
			recs = append(recs, r)
		}
		sort.Strings(recs)
		for _, r := range recs {
			vs := byRec[r]
			if tg.within {
				for i, v := range vs {
					vs[i] = 1 / v
				}
			}
			ratio := median(vs)
			verdict := "yes"
			if tg.context {
				verdict = "context"
			} else if atMost := tg.within || tg.atMost; atMost && ratio > tg.want || !atMost && ratio < tg.want {
				verdict = "**no**"
				missed = append(missed, fmt.Sprintf("%s, timed in turn (`%s/%s`): %.2f×", tg.what, tg.bench, r, ratio))
			}
			fmt.Fprintf(w, "| %s | `%s/%s` | %d | %.2f× (%.2f, %.2f) | %s |\n", tg.what, tg.bench, r, len(vs), ratio, slices.Min(vs), slices.Max(vs), verdict)
		}
	}
	return missed
}

func main() {
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	res, err := parse(strings.NewReader(string(input)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()

	fmt.Fprintln(w, "## Targets (issues 5, 15, 16 and 17)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ratios of medians from this run. \"×\" is the other implementation's time over atcore's, so")
	fmt.Fprintln(w, "higher is better for atcore, except in the \"within\" targets, which bound atcore's time over")
	fmt.Fprintln(w, "the reference's, and in the \"linear\" ones, which bound atcore's cost per byte on the large")
	fmt.Fprintln(w, "record over its cost per byte on the smaller one (lower is better there).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | benchmark | atcore | other | ratio | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	var missed, bounds []string
	for _, tg := range targets {
		ours := tg.ours
		if ours == "" {
			ours = "atcore"
		}
		names := res.names(tg.prefix)
		if len(names) == 0 {
			fmt.Fprintf(w, "| %s | %s | | | | not run |\n", tg.what, tg.prefix)
			missed = append(missed, tg.what+": not run")
			continue
		}
		for _, n := range names {
			a, aAllocs, ok1 := res.med(n, ours)
			otherIn := n
			if tg.otherIn != "" {
				otherIn = tg.otherIn
			}
			o, _, ok2 := res.med(otherIn, tg.other)
			if !ok1 || !ok2 {
				fmt.Fprintf(w, "| %s | `%s` | | | | not measured (%s or %s missing) |\n", tg.what, n, ours, tg.other)
				missed = append(missed, fmt.Sprintf("%s (`%s`): not measured", tg.what, n))
				continue
			}
			ratio := o / a
			if tg.atcoreOver {
				ratio = a / o
			}
			if tg.perByte {
				am, ok1 := res.medMBps(n, ours)
				om, ok2 := res.medMBps(otherIn, tg.other)
				if !ok1 || !ok2 {
					fmt.Fprintf(w, "| %s | `%s` | | | | not measured (no MB/s) |\n", tg.what, n)
					missed = append(missed, fmt.Sprintf("%s (`%s`): not measured", tg.what, n))
					continue
				}
				ratio = om / am
			}
			met := ratio <= tg.want
			switch {
			case tg.atLeast && tg.strict:
				met = ratio > tg.want
			case tg.atLeast:
				met = ratio >= tg.want
			}
			if tg.zeroAllocs && aAllocs != 0 {
				met = false
			}
			verdict := "yes"
			if !met {
				verdict = "**no**"
				missed = append(missed, fmt.Sprintf("%s (`%s`): %.2f× (atcore %s, %s %s, atcore %.0f allocs/op)",
					tg.what, n, ratio, formatNs(a), tg.other, formatNs(o), aAllocs))
			}
			otherLabel := tg.other
			if tg.otherIn != "" {
				otherLabel += " in `" + otherIn + "`"
			}
			fmt.Fprintf(w, "| %s | `%s` | %s, %.0f allocs | %s %s | %.2f× | %s |\n",
				tg.what, n, formatNs(a), aAllocs, otherLabel, formatNs(o), ratio, verdict)
			if f, ok := res.medMBps(n, tg.floor); tg.floor != "" && tg.perByte && ok {
				if g, ok := res.medMBps(otherIn, tg.floor); ok {
					bounds = append(bounds, fmt.Sprintf("`%s` over `%s`: %s: its cost per byte steps %.2f× in this run, atcore's %.2f×. The other rows of the same benchmarks step: %s.",
						n, otherIn, tg.floorWhat, g/f, ratio, res.steps(n, otherIn, tg.floor)))
				}
			} else if f, _, ok := res.med(n, tg.floor); tg.floor != "" && ok {
				bounds = append(bounds, fmt.Sprintf("`%s`: %s: %s. No implementation that pays it can be more than %.2f× faster than %s (%s); atcore takes %.2f× this floor.",
					n, tg.floorWhat, formatNs(f), o/f, tg.other, formatNs(o), a/f))
			}
		}
	}
	fmt.Fprintln(w)
	missed = append(missed, reportInterleaved(w, string(input))...)
	fmt.Fprintln(w)
	if len(missed) == 0 {
		fmt.Fprintln(w, "Every target is met in this run.")
	} else {
		fmt.Fprintln(w, "Missed in this run:")
		fmt.Fprintln(w)
		for _, m := range missed {
			fmt.Fprintf(w, "- %s\n", m)
		}
	}

	if len(bounds) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Floors measured in the same run:")
		fmt.Fprintln(w)
		for _, b := range bounds {
			fmt.Fprintf(w, "- %s\n", b)
		}
	}

	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Every comparison, in words")
	fmt.Fprintln(w)
	var all []string
	for n := range res {
		all = append(all, n)
	}
	sort.Strings(all)
	for _, n := range all {
		a, aAllocs, ok := res.med(n, "atcore")
		if !ok {
			continue
		}
		var impls []string
		for impl := range res[n] {
			if impl != "atcore" {
				impls = append(impls, impl)
			}
		}
		sort.Strings(impls)
		var parts []string
		for _, impl := range impls {
			o, oAllocs, _ := res.med(n, impl)
			parts = append(parts, fmt.Sprintf("%s %s (%s, %.0f allocs)", describeRatio(o/a), impl, formatNs(o), oAllocs))
		}
		fmt.Fprintf(w, "- `%s`: atcore %s, %.0f allocs; %s.\n", n, formatNs(a), aAllocs, strings.Join(parts, "; "))
	}
}

// describeRatio says how atcore's time compares, given other/atcore.
func describeRatio(r float64) string {
	switch {
	case r >= 1.05:
		return fmt.Sprintf("%.1f× faster than", r)
	case r <= 1/1.05:
		return fmt.Sprintf("%.1f× slower than", 1/r)
	default:
		return "on par with"
	}
}
