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
// Why: the data-model decoders validate every string they read, and on mixed-script text
// utf8.Valid's branch per character mispredicts; see dfa.go for the
// method and bench_test.go for the measurements.
package utf8v
