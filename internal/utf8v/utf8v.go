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
// scripts mix. This package skips runs of ASCII a word at a time, and checks the rest with SSSE3,
// 16 bytes a step (vector.go, on amd64), or with a table-driven automaton that has no such
// branch (dfa.go), two bytes a step (pairs.go), on short text and where there is no vector unit.
// Measured with BenchmarkRatio (best of interleaved batches, so that the load of a shared machine
// cancels out; go test -bench Ratio -count 5 -benchtime 3000x, 2-core Intel Xeon, Go 1.26,
// 2026-11-27), median of 5:
//
//	input (bench_test.go)           utf8v       utf8.Valid   ratio
//	mixed scripts, 40 B / 300 B     1.98 / 4.23 0.94 / 0.95  2.11x / 4.48x
//	mixed scripts, 64 KiB           5.78 GB/s   0.96 GB/s    6.05x
//	CJK / Cyrillic, 64 KiB          5.78 / 5.78 0.90 / 0.83  6.42x / 6.97x
//	CJK, 12 B / 40 B                0.98 / 1.49 0.86 / 0.94  1.13x / 1.59x
//	ASCII, 300 B / 64 KiB           24 / 29     18 / 29      1.33x / 1.02x
//	English, an emoji per 166 B,
//	40 B / 300 B / 64 KiB           4.0/14/16   2.9/8.1/14   1.38x / 1.69x / 1.17x
//
// With the automaton alone (before the vector path, 2026-11-26, the same machine and benchmark)
// mixed scripts ran at 2.49x (40 B), 2.92x (300 B) and 2.86x (64 KiB), CJK 64 KiB at 2.48x. The
// English row was the loss (0.62-0.84x, on an AMD EPYC) until the ASCII loop stopped exactly at
// the emoji and the automaton took it in four bytes before looking for ASCII again (valid.go).
package utf8v
