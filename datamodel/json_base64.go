package datamodel

import "encoding/base64"

// jsonBase64 is standard base64 (RFC 4648 §4) without padding. The encoder writes with it, so
// every byte string is written in its one canonical spelling; the decoder reads with it too, and
// it is not Strict, so the unused low bits of the last character need not be zero (DECISIONS rule
// 10: "123" reads as d7 6d, as in the interop vector lexicon/record-data-valid.json "full", which
// both reference implementations read).
var jsonBase64 = base64.RawStdEncoding

// jsonDecodeBase64 decodes standard base64 (RFC 4648 §4) with optional padding, as jsonBase64
// does, with the same result and the same error (the offset of the first byte that is not
// base64, or of a lone last character); unlike encoding/base64 it does not skip \r and \n, which
// atproto JSON does not allow. A loop of its own rather than jsonBase64.Decode: the decoder's
// code does not fit the instruction cache (see BENCHMARKS.md), and encoding/base64's decoder with
// its quantum routine is 2.4 KB of it. cachegrind, a decode of internal/peers' big50k (12 $bytes,
// 2.4 KB of base64): 29.9K -> 28.9K instructions and 273 -> 34 simulated instruction-cache misses
// in the base64 functions, 4 595 -> 2 714 misses in the whole decode (the rest being where the
// linker put the other functions). In turn with sonic, eight runs alternating builds: ahead in
// 6 of 8, x-sonic medians 0.967 -> 0.969 (a first version with bounds checks in its loop: 7 of 8,
// 0.946 -> 0.968). TestJSONDecodeBase64 and FuzzJSONDecodeBase64 hold it to encoding/base64.
func jsonDecodeBase64(s string) (Bytes, error) {
	n := len(s)
	if n%4 == 0 && n > 0 && s[n-1] == '=' {
		n--
		if s[n-1] == '=' {
			n--
		}
	}
	out := make(Bytes, n*3/4)
	src, dst := s[:n], out
	for len(src) >= 4 {
		a, b, c, d := jsonBase64Values[src[0]], jsonBase64Values[src[1]], jsonBase64Values[src[2]], jsonBase64Values[src[3]]
		if (a|b|c|d)&0x80 != 0 {
			return nil, jsonBase64Error(s, n-len(src))
		}
		_ = dst[2]
		dst[0], dst[1], dst[2] = a<<2|b>>4, b<<4|c>>2, c<<6|d
		src, dst = src[4:], dst[3:]
	}
	switch len(src) {
	case 1:
		return nil, base64.CorruptInputError(n - 1) // a lone character, or one that is not base64
	case 2, 3:
		a, b, c := jsonBase64Values[src[0]], jsonBase64Values[src[1]], byte(0)
		if len(src) == 3 {
			c = jsonBase64Values[src[2]]
		}
		if (a|b|c)&0x80 != 0 {
			return nil, jsonBase64Error(s, n-len(src))
		}
		dst[0] = a<<2 | b>>4
		if len(src) == 3 {
			dst[1] = b<<4 | c>>2
		}
	}
	return out, nil
}

// jsonBase64Error reports the first byte of s from i that is not base64.
func jsonBase64Error(s string, i int) error {
	for jsonBase64Values[s[i]] != 0xff {
		i++
	}
	return base64.CorruptInputError(i)
}

// jsonBase64Values maps each byte to its value in the standard base64 alphabet, 0xff where it is
// not in it.
var jsonBase64Values = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = byte(i)
	}
	return t
}()
