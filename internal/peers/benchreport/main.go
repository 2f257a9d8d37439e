// Command benchreport reads `go test -bench` output of the peers benchmarks and prints, in
// Markdown, the ratios between atcore and each peer (medians of the run) and whether each target
// of issue 5 is met. bench.sh calls it to write BENCHMARKS.md.
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
	ns, allocs float64
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

// A target is one goal of issue 5: in benchmark group prefix, ratio = other/atcore time (or
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
}

var targets = []target{
	{what: "tid.Next at least 3× faster than indigo TIDClock.Next, 0 allocs", prefix: "BenchmarkTIDNext", other: "indigo", want: 3, atLeast: true, zeroAllocs: true,
		floor: "clock-read", floorWhat: "the monotonic clock read alone (time.Since), which every TID needs"},
	{what: "TID parse at least 10× faster than indigo ParseTID", prefix: "BenchmarkTIDParse", other: "indigo", want: 10, atLeast: true},
	{what: "record key validation at least 20× faster than indigo ParseRecordKey", prefix: "BenchmarkRecordKeyValidate", other: "indigo", want: 20, atLeast: true},
	{what: "NSID parse at least 10× faster than indigo ParseNSID, 0 allocs", prefix: "BenchmarkNSIDParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "DID parse at least 10× faster than indigo ParseDID, 0 allocs", prefix: "BenchmarkDIDParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "handle parse at least 10× faster than indigo ParseHandle, 0 allocs", prefix: "BenchmarkHandleParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "at-identifier parse at least 10× faster than indigo ParseAtIdentifier, 0 allocs", prefix: "BenchmarkAtIdentifierParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "AT URI parse at least 10× faster than indigo ParseATURI, 0 allocs", prefix: "BenchmarkATURIParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "datetime parse at least 10× faster than indigo ParseDatetime, 0 allocs", prefix: "BenchmarkDatetimeParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "lenient datetime parse at least 10× faster than indigo ParseDatetimeLenient, 0 allocs", prefix: "BenchmarkDatetimeParseLenient", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "language tag parse at least 10× faster than indigo ParseLanguage, 0 allocs", prefix: "BenchmarkLanguageParse", other: "indigo", want: 10, atLeast: true, zeroAllocs: true},
	{what: "generic CBOR decode at least 5× faster than indigo atdata.UnmarshalCBOR", prefix: "BenchmarkCBORDecode", other: "indigo", want: 5, atLeast: true},
	{what: "generic CBOR decode faster than go-ipld-prime", prefix: "BenchmarkCBORDecode", other: "ipld", want: 1, atLeast: true, strict: true},
	{what: "generic CBOR encode at least 5× faster than indigo atdata.MarshalCBOR", prefix: "BenchmarkCBOREncode", other: "indigo", want: 5, atLeast: true},
	{what: "typed FeedPost decode within 1.5× of cbor-gen", prefix: "BenchmarkFeedPostDecode", other: "cbor-gen", atcoreOver: true, want: 1.5},
	{what: "stretch: generic decode of the post as fast as cbor-gen's typed decode", prefix: "BenchmarkCBORDecode/rec=post", other: "cbor-gen", otherIn: "BenchmarkFeedPostDecode", atcoreOver: true, want: 1},
	{what: "JSON decode at least 3× faster than indigo atdata.UnmarshalJSON", prefix: "BenchmarkJSONDecode", other: "indigo", want: 3, atLeast: true},
	{what: "record CID within 1.2× of bare sha256 of the same bytes", prefix: "BenchmarkRecordCID", other: "sha256", atcoreOver: true, want: 1.2},
	{what: "record CID as bytes (AppendSumCBOR) within 1.2× of bare sha256", prefix: "BenchmarkRecordCID", other: "sha256", ours: "atcore-append", atcoreOver: true, want: 1.2},
	{what: "Lexicon record validation (issue 17) at least 5× faster than indigo lexicon.ValidateRecord, 0 allocs", prefix: "BenchmarkLexiconValidate", other: "indigo", want: 5, atLeast: true, zeroAllocs: true},
}

func main() {
	res, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()

	fmt.Fprintln(w, "## Targets (issue 5)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ratios of medians from this run. \"×\" is the other implementation's time over atcore's, so")
	fmt.Fprintln(w, "higher is better for atcore, except in the two \"within\" targets, which bound atcore's time over")
	fmt.Fprintln(w, "the reference's.")
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
			fmt.Fprintf(w, "| %s | `%s` | %s, %.0f allocs | %s %s | %.2f× | %s |\n",
				tg.what, n, formatNs(a), aAllocs, tg.other, formatNs(o), ratio, verdict)
			if f, _, ok := res.med(n, tg.floor); tg.floor != "" && ok {
				bounds = append(bounds, fmt.Sprintf("`%s`: %s: %s. No implementation that pays it can be more than %.2f× faster than %s (%s); atcore takes %.2f× this floor.",
					n, tg.floorWhat, formatNs(f), o/f, tg.other, formatNs(o), a/f))
			}
		}
	}
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
