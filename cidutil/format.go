package cidutil

import (
	"slices"

	cid "github.com/ipfs/go-cid"
)

// AppendString appends c's string form to dst and returns the extended buffer: the bytes of
// c.String(), written without its allocations. A CIDv1, every atproto link among them, is "b"
// followed by its binary form in lower-case RFC 4648 base32 without padding, the blessed string
// (https://atproto.com/specs/data-model#link-and-cid-formats). A CIDv0, which atproto does not
// use, takes go-cid's String (base58btc). Encoders that write many links, such as atproto JSON's
// {"$link": …}, call it with their output buffer.
func AppendString(dst []byte, c cid.Cid) []byte {
	if c.Version() == 0 {
		return append(dst, c.String()...)
	}
	return appendBase32(append(dst, 'b'), c.KeyString())
}

// appendBase32 appends b in lower-case RFC 4648 base32 without padding.
func appendBase32(dst []byte, b string) []byte {
	n := (len(b)*8 + 4) / 5
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	i, o := 0, 0
	// Whole blocks of 5 bytes (40 bits, 8 characters) at a time: a 36-byte blessed CID is 7 of
	// them and one byte.
	for ; len(b)-i >= 5; i, o = i+5, o+8 {
		in, w := b[i:i+5], out[o:o+8:o+8]
		x := uint64(in[0])<<32 | uint64(in[1])<<24 | uint64(in[2])<<16 | uint64(in[3])<<8 | uint64(in[4])
		w[0] = rfc4648Base32[x>>35&31]
		w[1] = rfc4648Base32[x>>30&31]
		w[2] = rfc4648Base32[x>>25&31]
		w[3] = rfc4648Base32[x>>20&31]
		w[4] = rfc4648Base32[x>>15&31]
		w[5] = rfc4648Base32[x>>10&31]
		w[6] = rfc4648Base32[x>>5&31]
		w[7] = rfc4648Base32[x&31]
	}
	var acc uint // bits not yet written, in the low nbits
	nbits := 0
	for ; i < len(b); i++ {
		acc = acc<<8 | uint(b[i])
		nbits += 8
		for nbits >= 5 {
			nbits -= 5
			out[o] = rfc4648Base32[acc>>nbits&31]
			o++
		}
	}
	if nbits > 0 {
		out[o] = rfc4648Base32[acc<<(5-nbits)&31]
	}
	return dst[:len(dst)+n]
}
