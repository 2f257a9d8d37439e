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
// skips runs of ASCII a word at a time; the automaton takes two bytes a step (pairs.go).
// Measured with BenchmarkRatio (best of interleaved batches, so that the load of a shared machine
// cancels out; go test -bench Ratio -count 8 -benchtime 3000x, 2-core Intel Xeon, Go 1.26,
// 2026-11-26), median of 8:
//
//	input (bench_test.go)           utf8v       utf8.Valid   ratio
//	mixed scripts, 40 B / 300 B     3.40 / 3.83 1.37 / 1.29  2.49x / 2.92x
//	mixed scripts, 64 KiB           3.74 GB/s   1.32 GB/s    2.86x
//	CJK / Cyrillic, 64 KiB          3.77 / 3.53 1.51 / 1.13  2.48x / 3.12x
//	CJK, 12 B / 40 B                1.54 / 2.54 1.22 / 1.45  1.27x / 1.76x
//	ASCII, 300 B / 64 KiB           29 / 36     21 / 30      1.39x / 1.18x
//	English, an emoji per 166 B,
//	40 B / 300 B / 64 KiB           6.8/21/20   3.7/11/19    1.82x / 2.01x / 1.09x
//
// The last row was the loss (0.62-0.84x, on an AMD EPYC) until the ASCII loop stopped exactly at
// the emoji and the automaton took it in four bytes before looking for ASCII again (valid.go). A
// byte a step, the same Intel machine ran mixed scripts at 1.80x (300 B) and CJK at 1.59x (64
// KiB).
package utf8v
