// Package utf8v validates UTF-8 faster than unicode/utf8 on text that is not ASCII.
//
//	ok := utf8v.Valid(b)            // exactly utf8.Valid(b)
//	i := utf8v.FirstInvalid(b)      // -1, or where the first invalid sequence starts
//	n, ok := utf8v.JSONText(b)      // a JSON string's text up to its next '"', '\\' or control byte
//
// Valid and ValidString give exactly the verdicts of utf8.Valid and utf8.ValidString:
// surrogates (U+D800..U+DFFF), overlong forms, code points above U+10FFFF, stray continuation
// bytes and truncated sequences are all invalid. The tests check every 1-, 2- and 3-byte input
// and a sample of the 4-byte ones against utf8.Valid, and a fuzz target compares verdicts and
// offsets on arbitrary input.
//
// Why: the data-model decoders and encoders validate every string they read or write, and on
// text that is not ASCII utf8.Valid branches on each character's length, which mispredicts when
// scripts mix. This package runs a table-driven automaton with no such branch (dfa.go) and
// skips runs of ASCII a word at a time. Measured with BenchmarkRatio (best of interleaved
// batches, so that the load of a shared machine cancels out; go test -bench Ratio -count 8
// -benchtime 3000x, 2-core AMD EPYC, Go 1.26), median of 8:
//
//	input (bench_test.go)           utf8v       utf8.Valid   ratio
//	mixed scripts, 300 B            3.05 GB/s   1.27 GB/s    2.40x
//	mixed scripts, 64 KiB           3.06 GB/s   1.31 GB/s    2.33x
//	CJK / Cyrillic, 64 KiB          3.18 / 3.19 1.37 / 1.12  2.33x / 2.85x
//	CJK, 12 B / 40 B                1.25 / 1.82 1.14 / 1.30  1.10x / 1.40x
//	ASCII, 300 B / 64 KiB           30 / 50     23 / 45      1.27x / 1.09x
//	English, an emoji per 166 B,
//	40 B / 300 B / 64 KiB           5.0/18/21   3.6/9.0/19   1.38x / 1.96x / 1.14x
//
// The last row was the loss (0.62-0.84x) until the ASCII loop stopped exactly at the emoji and the
// automaton took it in four steps before looking for ASCII again (valid.go).
package utf8v
