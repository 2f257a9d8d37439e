package datamodel

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/atcore/atcore/cidutil"
	cid "github.com/ipfs/go-cid"
)

// The JSON decoder's caches and strings: records repeat the same few keys, mime types and $type
// values, which the caches hand out without allocating; the strings they do not hold are views of
// a string arena.
//
//   - memberKey and the short-key cache: keys of 1 to 8 plain bytes, found by one word.
//   - quickLongKey and the long-key cache: keys of 9 to 15 plain bytes, found by two words.
//   - key and the key cache: longer keys, keys with escapes, mime types.
//   - typeValue and the type cache: $type values, already boxed.
//   - jsonKeyHash: the hash both caches index by.
//   - carve: the string arena.

// The key cache has jsonKeyCacheSets sets of jsonKeyCacheWays slots, the type cache
// jsonTypeCacheSets sets of as many, and jsonMaxCachedKey is the longest string they keep: with
// the short-key cache's 256 keys of at most 8 bytes and the long-key cache's 64 of at most 15, at
// most 896 short strings stay alive per pooled decoder (and as many in the spare, see
// jsonDecoderSpare). Four ways let the 30 to 40 distinct keys of a record share sets without
// evicting each other; 48 bytes hold most NSIDs.
const (
	jsonKeyCacheBits  = 7
	jsonKeyCacheSets  = 1 << jsonKeyCacheBits
	jsonKeyCacheWays  = 4
	jsonMaxCachedKey  = 48
	jsonTypeCacheBits = 4
	jsonTypeCacheSets = 1 << jsonTypeCacheBits
)

// jsonCaches are a JSON decoder's caches, which it keeps from one decode to the next (see
// getJSONDecoder for how they outlive garbage collections).
type jsonCaches struct {
	// keys caches map keys across decodes: records repeat the same few keys ($type, text,
	// createdAt, uri, cid…), which then cost no allocation at all. It holds the keys memberKey
	// does not take (longer than 15 bytes, or spelled with escapes) and mime types. A key's
	// hash picks a set of jsonKeyCacheWays slots; a full set forgets its oldest key.
	keys [jsonKeyCacheSets * jsonKeyCacheWays]string
	// shortKeys caches the keys of 1 to 8 plain bytes, most of a record's, by their bytes read
	// as one little-endian word (see memberKey): two ways per set, compared as words.
	shortKeys [jsonShortKeySets * 2]jsonShortKey
	// longKeys caches the keys of 9 to 15 plain bytes in the same way (see quickLongKey).
	longKeys [jsonLongKeySets * 2]jsonLongKey
	// types caches the values of $type (NSIDs such as app.bsky.feed.post), which repeat as much
	// as keys, already boxed: an interface value is immutable, so one box serves every decode.
	types [jsonTypeCacheSets * jsonKeyCacheWays]any
}

// jsonShortKey is a short key and its bytes as a zero-padded word. A plain byte is never zero, so
// the word tells the key's length too, and an empty slot (w = 0) matches no key.
type jsonShortKey struct {
	w uint64
	s string
}

// jsonShortKeySets is the number of two-way sets of the short-key cache.
const (
	jsonShortKeyBits = 7
	jsonShortKeySets = 1 << jsonShortKeyBits
)

// memberKey reads the key of a member and the colon after it, and skips the whitespace that
// follows; the whitespace before the key has been skipped. A key of 1 to 8 plain bytes (printable
// ASCII other than '"' and '\\') within MaxKeyLen, most of a record's, is read here and returned
// from the short-key cache: one word load finds the closing quote, and the same word is the
// cache's hash and tag. A key of 9 to 15 plain bytes goes to quickLongKey; any other key, and a
// colon that does not follow the key at once, go the long way (keyLongWay). One function for the
// usual key and its colon, rather than a call to a key reader of its own (quickKey, before
// bd138f0): the position and the input stay in registers from the quote to the value (cachegrind, a decode of internal/peers' big50k,
// 1 345 keys: 176K -> 158K instructions in the key functions).
func (d *jsonDecoder) memberKey() (string, error) {
	data, p := d.data, d.pos
	if p+10 > len(data) || data[p] != '"' {
		return d.keyLongWay()
	}
	// The key's first eight bytes and the one after them, sliced once so that the loads below
	// need no bounds checks of their own.
	b := data[p+1 : p+10]
	w := binary.LittleEndian.Uint64(b)
	n := 8
	if m := jsonSpecial8(w); m != 0 {
		n = bits.TrailingZeros64(m) / 8
		w &= 1<<(8*n) - 1
	}
	var key string
	switch {
	case n == 8 && b[8] != '"':
		var ok bool
		if key, p, ok = d.quickLongKey(p+1, w); !ok {
			return d.keyLongWay()
		}
	case n == 0 || b[n] != '"' || n > d.limits.MaxKeyLen:
		return d.keyLongWay()
	default:
		set := d.shortKeys[(w*0x9E3779B97F4A7C15)>>(64-jsonShortKeyBits)*2:][:2]
		switch w {
		case set[0].w:
			key = set[0].s
		case set[1].w:
			key = set[1].s
		default:
			key = d.uncachedShortKey(set, w, b[:n])
		}
		p += n + 2
	}
	if p >= len(data) || data[p] != ':' {
		d.pos = p
		return d.colon(key)
	}
	// Pretty-printed JSON has one space after the colon: skip it here rather than in a call.
	if p+2 < len(data) && data[p+1] == ' ' && data[p+2] > ' ' {
		d.pos = p + 2
	} else {
		d.pos = p + 1
		d.skipSpace()
	}
	return key, nil
}

// uncachedShortKey returns b, a key of 1 to 8 plain bytes read as the word w, which the
// short-key cache's set does not hold, and caches it if it may (see uncachedKey).
func (d *jsonDecoder) uncachedShortKey(set []jsonShortKey, w uint64, b []byte) string {
	key, ok := d.uncachedKey(b)
	if ok {
		set[1] = set[0]
		set[0] = jsonShortKey{w, key}
	}
	return key
}

// quickLongKey reads for memberKey a key of 9 to 15 plain bytes (createdAt, byteStart,
// aspectRatio, displayName, description…) starting at p, whose first eight are w: the rest is
// read as a second word, and the two words are the long-key cache's hash and tag: no key bytes
// are copied or hashed byte by byte. It returns the key and the offset after its closing quote,
// or ok false for another key. (Whole-process instruction counts once quoted here, 1 to 4 %
// fewer per decode, are within what such counts move between two runs of the same binary;
// timings on the shared machine did not resolve it either.)
func (d *jsonDecoder) quickLongKey(p int, w uint64) (key string, end int, ok bool) {
	data := d.data
	if p+17 > len(data) {
		return "", 0, false
	}
	b := data[p+8 : p+17] // as in memberKey
	v := binary.LittleEndian.Uint64(b)
	m := jsonSpecial8(v)
	if m == 0 {
		return "", 0, false // 16 bytes or more
	}
	n := bits.TrailingZeros64(m) / 8
	if n == 0 || b[n] != '"' || 8+n > d.limits.MaxKeyLen {
		return "", 0, false
	}
	v &= 1<<(8*n) - 1
	set := d.longKeys[((w^bits.RotateLeft64(v, 29))*0x9E3779B97F4A7C15)>>(64-jsonLongKeyBits)*2:][:2]
	switch {
	case set[0].w == w && set[0].v == v:
		key = set[0].s
	case set[1].w == w && set[1].v == v:
		key = set[1].s
	default:
		if key, ok = d.uncachedKey(data[p : p+8+n]); ok {
			set[1] = set[0]
			set[0] = jsonLongKey{w, v, key}
		}
	}
	return key, p + 8 + n + 1, true
}

// jsonLongKey is a key of 9 to 15 plain bytes: its first eight bytes as a word, and the rest as
// a zero-padded word (which, as in jsonShortKey, tells the length too).
type jsonLongKey struct {
	w, v uint64
	s    string
}

// jsonLongKeySets is the number of two-way sets of the long-key cache.
const (
	jsonLongKeyBits = 5
	jsonLongKeySets = 1 << jsonLongKeyBits
)

// carve returns b, the bytes of a string that string (or peekString) just read, as a string
// that does not alias the input (nor d.buf, into which escapedString unescapes): a view of the
// decode's string arena, to which it is appended. The arena is a few large chunks, so that the
// strings of a record cost a few allocations in all, however many there are; a string kept from
// the result keeps its chunk alive.
//
// Only the strings are copied, not the whole input: pretty-printed JSON is mostly indentation
// (testdata/records/deep.json: 69 %). A copy of the whole input made a decode of deep.json
// allocate 23.9 KB, against 16.7 KB with the arena (UnmarshalJSONStruct: 12.3 KB against 5.1).
func (d *jsonDecoder) carve(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(d.strs)-len(d.strs) < len(b) {
		d.newStrs(len(b))
	}
	n := len(d.strs)
	d.strs = append(d.strs, b...) // within capacity: the chunk never moves
	return unsafe.String(&d.strs[n], len(b))
}

// parseCID reads s, the string of a $link, into a CID whose binary form is in the string arena
// rather than in an allocation of its own, as the CBOR decoder's CIDs are views of its copy of
// the input. The error is cidutil.ParseString's.
func (d *jsonDecoder) parseCID(s string) (cid.Cid, error) {
	// A CID's binary form is shorter than its string (a multibase character carries less than a
	// byte), so room for len(s) bytes keeps the append within the chunk.
	if cap(d.strs)-len(d.strs) < len(s) {
		d.newStrs(len(s))
	}
	n := len(d.strs)
	b, err := cidutil.AppendBinaryString(d.strs, s)
	if err != nil {
		return cid.Undef, err
	}
	d.strs = b
	return cidutil.ParseKeyString(unsafe.String(&b[n], len(b)-n))
}

// jsonStrsMin is the smallest chunk newStrs allocates, so that the strings of a record of up to
// 1 KiB (follow, like and profile in testdata/records) cost one allocation.
const jsonStrsMin = 1024

// newStrs starts a new chunk of the string arena with room for need bytes at least. Chunks double,
// from a quarter of the input, but never exceed what the rest of the input could still hold: the
// strings yet to come are no longer than the input after d.pos, and the one being carved (need)
// was read before it.
//
//go:noinline
func (d *jsonDecoder) newStrs(need int) {
	size := max(2*cap(d.strs), len(d.data)/4, jsonStrsMin)
	size = need + min(size, len(d.data)-d.pos)
	d.strs = make([]byte, 0, size)
}

// key returns b, a decoded map key (or mime type), as a string: from the key cache if it is there.
func (d *jsonDecoder) key(b []byte) string {
	if len(b) > jsonMaxCachedKey || len(b) == 0 {
		return d.carve(b)
	}
	set := d.keys[(jsonKeyHash(b)>>(64-jsonKeyCacheBits))*jsonKeyCacheWays:][:jsonKeyCacheWays]
	for _, k := range set {
		if k == string(b) {
			return k
		}
	}
	s, cache := d.uncachedKey(b)
	if cache {
		copy(set[1:], set)
		set[0] = s
	}
	return s
}

// jsonKeyMissBudget is how many keys missing from the caches one decode copies into strings of
// their own and caches. A record has 30 to 40 distinct keys, which the caches learn within a decode
// or two; an object with thousands of distinct keys (a wide map) would only cycle through the
// caches, at one allocation per key, so past the budget the keys are carved from the string arena
// like any other string, and left out of the caches, which outlive the arena.
const jsonKeyMissBudget = 64

// uncachedKey returns b, a key (or mime type) the caches do not hold, as a string, and whether
// the caller may cache it: a copy of its own while the decode's miss budget lasts, else a view
// of the string arena (carve), which must not be cached.
func (d *jsonDecoder) uncachedKey(b []byte) (string, bool) {
	if d.keyMisses < jsonKeyMissBudget {
		d.keyMisses++
		return string(b), true
	}
	return d.carve(b), false
}

// typeValue returns b, the decoded value of a $type, as a boxed string: from the type cache if
// it is there.
func (d *jsonDecoder) typeValue(b []byte) any {
	if len(b) > jsonMaxCachedKey || len(b) == 0 {
		return d.slabs.boxString(d.carve(b))
	}
	set := d.types[(jsonKeyHash(b)>>(64-jsonTypeCacheBits))*jsonKeyCacheWays:][:jsonKeyCacheWays]
	for _, v := range set {
		if s, _ := v.(string); s == string(b) {
			return v
		}
	}
	var v any = string(b)
	copy(set[1:], set)
	set[0] = v
	return v
}

// jsonKeyHash hashes a key of 1 to jsonMaxCachedKey bytes for the caches, which take its top
// bits. It reads the length and the first and last bytes, as one or two words rather than byte
// by byte: keys that share both ends and the length only share a set, and are still told apart
// by the comparison.
func jsonKeyHash(b []byte) uint64 {
	n := len(b)
	var x uint64
	switch {
	case n >= 8:
		x = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 31)
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	default:
		x = uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
	}
	x ^= uint64(n) << 58
	// Fibonacci hashing: the top bits of the product depend on every bit of x.
	return x * 0x9E3779B97F4A7C15
}
