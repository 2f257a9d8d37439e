// Package utf8v validates UTF-8 faster than unicode/utf8 on text that is not ASCII.
//
//	ok := utf8v.Valid(b)            // exactly utf8.Valid(b)
//	i := utf8v.FirstInvalid(b)      // -1, or where the first invalid sequence starts
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
//	mixed scripts, 300 B            2.86 GB/s   1.27 GB/s    2.25x
//	mixed scripts, 64 KiB           2.95 GB/s   1.31 GB/s    2.25x
//	CJK / Cyrillic, 64 KiB          3.11 GB/s   1.37 / 1.12  2.27x / 2.78x
//	CJK, 12 B / 40 B                1.25 / 2.14 1.14 / 1.30  1.10x / 1.64x
//	ASCII, 300 B / 64 KiB           25 / 44     23 / 39      1.05x / 1.16x
//	English, an emoji per 160 B,
//	40 B / 300 B / 64 KiB           2.9/7.6/9.9 3.6/5.5/11.8 0.80x / 1.38x / 0.84x
//
// The last row holds the losses: there utf8.Valid steps over each emoji and is back to ASCII at
// once, while this package runs the automaton over 16 bytes first.
package utf8v
