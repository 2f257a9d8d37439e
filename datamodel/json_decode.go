package datamodel

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/atcore/atcore/cidutil"
)

// UnmarshalJSON decodes one atproto JSON value (spec/data-model.txt, "JSON Representation") into
// the Go values described in the package doc, the same values UnmarshalCBOR returns:
//
//   - {"$link": "<CID>"} is a Link and {"$bytes": "<base64>"} is Bytes; each must have exactly that
//     one key (DECISIONS rule 10). CIDv0 is never valid (rule 12).
//   - {"$type": "blob", "ref": …, "mimeType": …, "size": …} is a Blob, with exactly those keys
//     (rule 13); the legacy {"cid": "<CID>", "mimeType": …} is a Blob with Legacy set when the
//     string is a CID in its canonical form, so that it re-encodes to the same bytes.
//   - $type, on any object, must be a non-empty string (rule 11). Other keys starting with $ are
//     kept as they are.
//   - Numbers are read exactly into int64: 123.0 and 1e2 are integers, 1.5 is ErrFraction, and
//     integers beyond int64 are ErrIntegerRange; no float64 rounding ever happens (rule 10).
//
// The grammar is RFC 8259's, strictly: no trailing commas, comments, leading zeros, NaN, byte
// order mark, raw control characters in strings, invalid UTF-8 or lone surrogate escapes.
// Duplicate keys are an error (ErrDuplicateKey), as are bytes after the value. The limits of
// rule 14 (MaxJSONSize, MaxDepth, MaxElements, MaxKeyLen; see WithLimits) are checked as the
// input is read; a $link or $bytes object is a leaf, as in CBOR, and does not count towards
// MaxDepth, while a blob counts as one level (it is a map in CBOR). Errors are *Error values with
// the byte offset and the JSON Pointer of the value.
//
// Any value may be at the top level; ValidateRecord checks that it is a record (an object).
//
// The strings in the result share a few allocations (chunks of an arena) instead of one each: a
// small string kept from the result keeps its chunk, at most the size of the input, alive.
func UnmarshalJSON(data []byte, opts ...Option) (any, error) {
	return unmarshalJSON(data, limitsOf(opts), false)
}

// unmarshalJSON is UnmarshalJSON; careful makes every object take the careful path, for tests
// that compare the two paths.
func unmarshalJSON(data []byte, limits Limits, careful bool) (any, error) {
	if len(data) > limits.MaxJSONSize {
		return nil, &Error{Err: ErrTooLarge, Offset: int64(limits.MaxJSONSize),
			Detail: strconv.Itoa(len(data)) + " bytes, limit " + strconv.Itoa(limits.MaxJSONSize)}
	}
	d := jsonDecoderPool.Get().(*jsonDecoder)
	d.data, d.pos, d.depth, d.limits = data, 0, 0, limits
	// The values of earlier decodes keep their own slabs and arena; the new ones are sized from
	// the input. The slabs size themselves for CBOR, which is about half as long as the same
	// record pretty-printed in JSON (quoted keys, indentation), and $type strings take no slab.
	d.slabs = cborSlabs{size: len(data) / 2}
	d.arena.Reset()
	d.careful = careful
	d.skipSpace()
	v, err := d.value()
	if err == errJSONCareful {
		// Something unusual (usually an error) that only the careful path reports exactly: start
		// again, once, with that path for every object.
		d.careful, d.pos, d.depth = true, 0, 0
		d.items, d.members = d.items[:0], d.members[:0]
		d.skipSpace()
		v, err = d.value()
	}
	if err == nil {
		d.skipSpace()
		if d.pos < len(d.data) {
			v, err = nil, d.fail(ErrTrailingBytes, d.pos, "")
		}
	}
	d.data, d.slabs = nil, cborSlabs{}
	d.arena.Reset()
	if cap(d.items) > jsonMaxPooledScratch || cap(d.members) > jsonMaxPooledScratch || cap(d.buf) > jsonMaxPooledScratch {
		// One huge input must not pin its scratch space in the pool.
		d.items, d.members, d.buf = nil, nil, nil
	}
	jsonDecoderPool.Put(d)
	return v, err
}

// jsonDecoderPool recycles decoders for their scratch stacks, so that a decode allocates only
// what it returns.
var jsonDecoderPool = sync.Pool{New: func() any { return new(jsonDecoder) }}

// jsonMaxPooledScratch is the largest scratch capacity a pooled decoder keeps.
const jsonMaxPooledScratch = 4096

// jsonDecoder is a single-pass recursive-descent reader over data.
type jsonDecoder struct {
	data  []byte
	pos   int
	depth int // containers open around pos
	// careful makes every object take the careful path (objectCareful): set for a second pass
	// when the quick path (object) met something it does not decide itself.
	careful bool
	limits  Limits
	slabs   cborSlabs // one allocation for many boxed values (see cbor_box.go)

	// Scratch stacks shared by all nesting levels: a container pushes its members, then pops them
	// into a value of the exact size.
	members []jsonMember
	items   []any
	buf     []byte // unescaped string being built

	// arena holds the bytes of the decoded strings, back to back: each string is a view of its
	// bytes, which are never written again (see carve).
	arena strings.Builder
	// keys caches map keys across the decodes this pooled decoder makes: records repeat the same
	// few keys ($type, text, createdAt, uri, cid…), which then cost no allocation at all. It holds
	// the keys quickKey does not take (longer than 8 bytes, or spelled with escapes) and mime
	// types. A key's hash picks a set of jsonKeyCacheWays slots; a full set forgets its oldest key.
	keys [jsonKeyCacheSets * jsonKeyCacheWays]string
	// shortKeys caches the keys of 1 to 8 plain bytes, most of a record's, by their bytes read
	// as one little-endian word (see quickKey): two ways per set, compared as words.
	shortKeys [jsonShortKeySets * 2]jsonShortKey
	// types caches the values of $type (NSIDs such as app.bsky.feed.post), which repeat as much
	// as keys, already boxed: an interface value is immutable, so one box serves every decode.
	types [jsonTypeCacheSets * jsonKeyCacheWays]any
}

// The key cache has jsonKeyCacheSets sets of jsonKeyCacheWays slots, the type cache
// jsonTypeCacheSets sets of as many, and jsonMaxCachedKey is the longest string they keep: with
// the short-key cache's 256 keys of at most 8 bytes, at most 832 short strings stay alive per
// pooled decoder. Four ways let the 30 to 40 distinct keys of a record share sets without
// evicting each other; 48 bytes hold most NSIDs.
const (
	jsonKeyCacheBits  = 7
	jsonKeyCacheSets  = 1 << jsonKeyCacheBits
	jsonKeyCacheWays  = 4
	jsonMaxCachedKey  = 48
	jsonTypeCacheBits = 4
	jsonTypeCacheSets = 1 << jsonTypeCacheBits
)

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

// quickKey reads the key whose opening quote is at d.pos if it is 1 to 8 plain bytes (printable
// ASCII other than '"' and '\\') within MaxKeyLen, and returns it from the short-key cache: one
// word load finds the closing quote, and the same word is the cache's hash and tag. For any other
// key ok is false and d.pos is unmoved: memberKey reads it the long way.
func (d *jsonDecoder) quickKey() (key string, ok bool) {
	data, p := d.data, d.pos+1
	if p+9 > len(data) {
		return "", false
	}
	w := binary.LittleEndian.Uint64(data[p:])
	n := 8
	if m := jsonSpecial8(w); m != 0 {
		n = bits.TrailingZeros64(m) / 8
		w &= 1<<(8*n) - 1
	}
	if n == 0 || data[p+n] != '"' || n > d.limits.MaxKeyLen {
		return "", false
	}
	set := d.shortKeys[(w*0x9E3779B97F4A7C15)>>(64-jsonShortKeyBits)*2:][:2]
	switch w {
	case set[0].w:
		key = set[0].s
	case set[1].w:
		key = set[1].s
	default:
		key = string(data[p : p+n])
		set[1] = set[0]
		set[0] = jsonShortKey{w, key}
	}
	d.pos = p + n + 1
	return key, true
}

// carve returns a string with the bytes of b, carved from the arena. The arena is allocated in
// chunks of the input left to read (half of it when that is large), so that a record's strings
// take one or two allocations instead of one each. The trade-off: a string kept from the result
// keeps its whole chunk alive.
//
// A chunk is a strings.Builder grown once: Grow allocates without zeroing (the bytes are written
// before anyone reads them) and guarantees that the writes up to its size append in place, so the
// strings already carved from the chunk stay valid and unchanged.
func (d *jsonDecoder) carve(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	start := d.arena.Len()
	if d.arena.Cap()-start < len(b) {
		n := len(d.data) - d.pos + len(b) // the strings left cannot be longer than this
		if n > jsonSmallInput {
			n /= 2
		}
		d.arena.Reset() // the strings carved so far keep the old chunk
		d.arena.Grow(max(n, len(b), jsonMinArenaChunk))
		start = 0
	}
	d.arena.Write(b)
	return d.arena.String()[start:]
}

// An arena chunk has at least jsonMinArenaChunk bytes. It is as long as the input left to read
// (so it holds all the strings left) when that is at most jsonSmallInput bytes, else half as long:
// in a pretty-printed record about half the bytes are indentation, keys and punctuation, and a
// chunk that falls short is followed by another.
const (
	jsonMinArenaChunk = 64
	jsonSmallInput    = 1024
)

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
	s := string(b)
	copy(set[1:], set)
	set[0] = s
	return s
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

// jsonMember is one key/value pair of an object being read.
type jsonMember struct {
	key    string
	val    any
	keyOff int // offset of the key's opening quote
	valOff int // offset of the value's first byte
}

func (d *jsonDecoder) fail(err error, off int, detail string) *Error {
	return &Error{Err: err, Offset: int64(off), Detail: detail}
}

// failEnd reports input that ends where a token was expected.
func (d *jsonDecoder) failEnd(what string) *Error {
	return d.fail(ErrTruncated, len(d.data), "expected "+what)
}

// failByte reports an unexpected byte at d.pos, or the end of input.
func (d *jsonDecoder) failByte(what string) *Error {
	if d.pos >= len(d.data) {
		return d.failEnd(what)
	}
	return d.fail(ErrSyntax, d.pos, "expected "+what+", found "+jsonQuoteByte(d.data[d.pos]))
}

// next reads what follows an element of an array or an object: ',' and the whitespace after it
// (more is true) or the closing byte (more is false); anything else is a syntax error naming what
// was expected.
func (d *jsonDecoder) next(closing byte, what string) (more bool, err *Error) {
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			return true, nil
		case closing:
			d.pos++
			return false, nil
		}
	}
	return false, d.failByte(what)
}

func jsonQuoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// jsonWithKey and jsonWithIndex put one more JSON Pointer token in front of an error's path as it
// travels up from the value where it happened: the happy path pays nothing for paths.
func jsonWithKey(err error, key string) error {
	if e, ok := err.(*Error); ok {
		e.Path = string(appendPointerToken(nil, key)) + e.Path
	}
	return err
}

func jsonWithIndex(err error, i int) error {
	if e, ok := err.(*Error); ok {
		e.Path = "/" + strconv.Itoa(i) + e.Path
	}
	return err
}

// skipSpace skips whitespace. It is small enough to be inlined where it is called: most calls
// find no whitespace at all.
func (d *jsonDecoder) skipSpace() {
	if d.pos < len(d.data) && d.data[d.pos] > ' ' {
		return
	}
	d.skipSpaceRun()
}

// skipSpaceRun skips whitespace, up to eight spaces at a time through the indentation of
// pretty-printed input. Not inlined, so that skipSpace is.
//
//go:noinline
func (d *jsonDecoder) skipSpaceRun() {
	data, i := d.data, d.pos
	// The usual run in pretty-printed JSON: a newline and up to fifteen spaces of indentation.
	if i+17 <= len(data) && data[i] == '\n' {
		j := i + 1
		x := binary.LittleEndian.Uint64(data[j:]) ^ jsonSpaces8
		if x == 0 {
			j += 8
			x = binary.LittleEndian.Uint64(data[j:]) ^ jsonSpaces8
		}
		if x != 0 {
			if j += bits.TrailingZeros64(x) / 8; data[j] > ' ' {
				d.pos = j
				return
			}
		}
	}
	for i < len(data) {
		c := data[i]
		if c > ' ' {
			break
		}
		if c == ' ' && i+8 <= len(data) {
			// The bytes of x are zero where data has a space: skip as many as lead the word.
			if x := binary.LittleEndian.Uint64(data[i:]) ^ jsonSpaces8; x != 0 {
				i += bits.TrailingZeros64(x) / 8
			} else {
				i += 8
			}
			continue
		}
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	d.pos = i
}

// Word-at-a-time constants: a byte repeated in each of the 8 bytes of a uint64.
const (
	jsonOnes8   = 0x0101010101010101
	jsonHighs8  = 0x8080808080808080
	jsonSpaces8 = ' ' * jsonOnes8
)

// jsonSpecial8 has the high bit set in the lowest byte of x that is not plain (see jsonPlain): a
// control character, '"', '\\' or a byte of a multi-byte UTF-8 sequence. The bytes above it may be
// flagged falsely (borrows), which only matters to a caller that looks past the first.
func jsonSpecial8(x uint64) uint64 {
	quote := x ^ '"'*jsonOnes8
	backslash := x ^ '\\'*jsonOnes8
	// (lt|eq)&^x | x, on the high bits, is lt|eq|x: one operation fewer than writing both terms.
	return ((x - 0x20*jsonOnes8) | (quote - jsonOnes8) | (backslash - jsonOnes8) | x) & jsonHighs8
}

// value reads one value; the whitespace before it has been skipped.
func (d *jsonDecoder) value() (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.failEnd("a value")
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		b, err := d.string()
		if err != nil {
			return nil, err
		}
		return d.slabs.boxString(d.carve(b)), nil
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c >= '1' && c <= '9':
		// The usual number: a non-negative integer of up to 18 digits, read in one loop.
		data, i, u := d.data, d.pos, int64(0)
		for ; i < len(data) && i-d.pos < 18 && data[i] >= '0' && data[i] <= '9'; i++ {
			u = u*10 + int64(data[i]-'0')
		}
		if i == len(data) || data[i] != '.' && data[i] != 'e' && data[i] != 'E' && (data[i] < '0' || data[i] > '9') {
			d.pos = i
			return d.slabs.boxInt64(u), nil
		}
		return d.number() // a fraction, an exponent or a 19th digit: read it again in full
	case c == '-' || c == '0':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return nil, d.failByte("a value")
	}
}

func (d *jsonDecoder) literal(word string) error {
	start := d.pos
	for i := 0; i < len(word); i++ {
		if d.pos >= len(d.data) {
			return d.failEnd(strconv.Quote(word))
		}
		if d.data[d.pos] != word[i] {
			return d.fail(ErrSyntax, start, "expected "+strconv.Quote(word))
		}
		d.pos++
	}
	return nil
}

// array reads [ value, … ].
func (d *jsonDecoder) array() (any, error) {
	start := d.pos
	d.depth++
	if d.depth > d.limits.MaxDepth {
		return nil, d.fail(ErrTooDeep, start, "limit "+strconv.Itoa(d.limits.MaxDepth))
	}
	d.pos++ // [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return []any{}, nil
	}
	base := len(d.items)
	for n := 0; ; n++ {
		if n >= d.limits.MaxElements {
			d.popItems(base)
			return nil, d.fail(ErrTooManyElements, d.pos, "limit "+strconv.Itoa(d.limits.MaxElements))
		}
		v, err := d.value()
		if err != nil {
			d.popItems(base)
			return nil, jsonWithIndex(err, n)
		}
		d.items = append(d.items, v)
		if d.pos < len(d.data) && d.data[d.pos] == ',' { // the common case, without a call
			d.pos++
			d.skipSpace()
			continue
		}
		more, serr := d.next(']', "',' or ']'")
		if serr != nil {
			d.popItems(base)
			return nil, serr
		}
		if !more {
			break
		}
	}
	out := d.slabs.array(len(d.items) - base)
	copy(out, d.items[base:])
	d.popItems(base)
	d.depth--
	return d.slabs.boxArray(out), nil
}

// popItems drops the scratch items above base, clearing them so they don't pin memory.
func (d *jsonDecoder) popItems(base int) {
	clear(d.items[base:])
	d.items = d.items[:base]
}

func (d *jsonDecoder) popMembers(base int) {
	clear(d.members[base:])
	d.members = d.members[:base]
}

// errJSONCareful is returned up the stack by the quick path of object when the input needs the
// careful path (objectCareful) to decide the result or the error. UnmarshalJSON then decodes the
// whole input again the careful way: at most twice the work, whatever the nesting.
var errJSONCareful = errors.New("datamodel: internal: JSON needs the careful path")

// object reads { "key": value, … } and turns it into a map, a Link, Bytes or a Blob.
//
// This quick path puts the members straight into a map, which is sized as it grows and finds
// duplicate keys as it is filled. It gives the same result as objectCareful, which collects the
// members first and then checks them in one place. It hands over to objectCareful for a blob and
// for objects at the depth limit, and returns errJSONCareful when it meets anything else it does
// not decide: a duplicate key, a misplaced $link or $bytes, an invalid $type. Its own errors
// (syntax, limits, values) are the ones objectCareful would report first.
func (d *jsonDecoder) object() (any, error) {
	if d.careful || d.depth+1 > d.limits.MaxDepth {
		return d.objectCareful()
	}
	start := d.pos
	d.depth++
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return map[string]any{}, nil
	}
	var out map[string]any // made once the first member shows it is a map
	// The values of "cid" and "mimeType" among the first two members: a map of exactly these
	// two keys may be a legacy blob, checked at the end without looking them up.
	var cidVal, mimeVal any
	for n := 0; ; n++ {
		if n >= d.limits.MaxElements {
			return nil, d.fail(ErrTooManyElements, d.pos, "limit "+strconv.Itoa(d.limits.MaxElements))
		}
		keyOff := d.pos
		key, err := d.memberKey()
		if err != nil {
			return nil, err
		}
		var val any
		if key == "" || key[0] != '$' {
			// Most members: the value is decoded in place, not through memberValue or a
			// jsonMember (whose passing around cost more than the rest of the member).
			if val, err = d.value(); err != nil {
				return nil, jsonWithKey(err, key)
			}
		} else {
			m := jsonMember{key: key, keyOff: keyOff, valOff: d.pos}
			if m.val, err = d.memberValue(key); err != nil {
				return nil, err
			}
			val = m.val
			switch m.key {
			case "$link", "$bytes":
				if n > 0 {
					return nil, errJSONCareful
				}
				return d.leafObject(start, m)
			case "$type":
				s, ok := m.val.(string)
				if !ok || s == "" {
					return nil, errJSONCareful
				}
				if s == "blob" {
					if n > 0 {
						return nil, errJSONCareful
					}
					if b, ok := d.quickBlob(); ok {
						d.depth--
						return d.slabs.boxBlob(b), nil
					}
					// Anything unusual in a blob is checked member by member: read it again
					// carefully.
					d.pos = start
					d.depth--
					return d.objectCareful()
				}
			}
		}
		if out == nil {
			out = make(map[string]any)
		}
		size := len(out)
		out[key] = val
		if len(out) == size {
			return nil, errJSONCareful // a duplicate key
		}
		if n < 2 {
			switch key {
			case "cid":
				cidVal = val
			case "mimeType":
				mimeVal = val
			}
		}
		if d.pos < len(d.data) && d.data[d.pos] == ',' { // the common case, without a call
			d.pos++
			d.skipSpace()
			continue
		}
		more, serr := d.next('}', "',' or '}'")
		if serr != nil {
			return nil, serr
		}
		if !more {
			break
		}
	}
	d.depth--
	if len(out) == 2 && cidVal != nil && mimeVal != nil {
		if b, ok := jsonLegacyBlob(cidVal, mimeVal); ok {
			return d.slabs.boxBlob(b), nil
		}
	}
	return out, nil
}

// quickBlob reads the rest of a blob whose first member, "$type": "blob", was just read: the
// members ref, mimeType and size in any order, then '}'. It decodes them without building a map
// or boxing them, and reports ok only when the object is a valid blob (DECISIONS rule 13) within
// the limits, read as objectCareful would; on anything else (another key, a duplicate, a fraction,
// an escape in size, an error) it gives up, and the caller reads the object again carefully.
func (d *jsonDecoder) quickBlob() (b Blob, ok bool) {
	if d.limits.MaxElements < 4 {
		return Blob{}, false // objectCareful reports the limit
	}
	var seen [3]bool // ref, mimeType, size
	for range 3 {
		if !d.quickByte(',') || !d.quickByte('"') {
			return Blob{}, false
		}
		d.pos--
		kb, err := d.string()
		if err != nil || len(kb) > d.limits.MaxKeyLen || !d.quickByte(':') {
			return Blob{}, false
		}
		d.skipSpace()
		switch string(kb) {
		case "ref":
			if seen[0] {
				return Blob{}, false
			}
			seen[0] = true
			if b.Ref, ok = d.quickLink(); !ok {
				return Blob{}, false
			}
		case "mimeType":
			if seen[1] || d.pos >= len(d.data) || d.data[d.pos] != '"' {
				return Blob{}, false
			}
			seen[1] = true
			mb, err := d.string()
			if err != nil || len(mb) == 0 {
				return Blob{}, false
			}
			b.MimeType = d.key(mb) // a handful of types (image/jpeg…) repeat across records
		case "size":
			if seen[2] {
				return Blob{}, false
			}
			seen[2] = true
			if b.Size, ok = d.quickSize(); !ok {
				return Blob{}, false
			}
		default:
			return Blob{}, false
		}
	}
	return b, d.quickByte('}')
}

// quickByte skips whitespace and then c, reporting whether c was there.
func (d *jsonDecoder) quickByte(c byte) bool {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

// quickLink reads {"$link": "<CID>"} for quickBlob, and reports ok only when it is a valid link.
// A link is a leaf one level below the blob, which object has kept within MaxDepth.
func (d *jsonDecoder) quickLink() (Link, bool) {
	if !d.quickByte('{') || !d.quickByte('"') {
		return Link{}, false
	}
	d.pos--
	kb, err := d.string()
	if err != nil || string(kb) != "$link" || !d.quickByte(':') || !d.quickByte('"') {
		return Link{}, false
	}
	d.pos--
	sb, err := d.string()
	if err != nil || !d.quickByte('}') {
		return Link{}, false
	}
	c, err := cidutil.ParseString(d.carve(sb))
	if err != nil || len(c.KeyString()) > d.limits.MaxCIDLen {
		return Link{}, false
	}
	return Link(c), true
}

// quickSize reads a blob size for quickBlob: plain digits, at most 18 of them (no overflow), no
// fraction or exponent; anything else is left to the careful path.
func (d *jsonDecoder) quickSize() (int64, bool) {
	data, i := d.data, d.pos
	var n int64
	for i < len(data) && data[i] >= '0' && data[i] <= '9' && i-d.pos < 18 {
		n = n*10 + int64(data[i]-'0')
		i++
	}
	if i == d.pos || data[d.pos] == '0' && i-d.pos > 1 {
		return 0, false // no digit, or a leading zero
	}
	if i < len(data) && (data[i] >= '0' && data[i] <= '9' || data[i] == '.' || data[i] == 'e' || data[i] == 'E') {
		return 0, false
	}
	d.pos = i
	return n, true
}

// leafObject finishes a $link or $bytes object whose first member is m: with no other member, it
// is decided as objectCareful would.
func (d *jsonDecoder) leafObject(start int, m jsonMember) (any, error) {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '}' {
		return nil, errJSONCareful
	}
	d.pos++
	d.depth--
	ms := [1]jsonMember{m}
	if m.key == "$link" {
		return d.link(start, ms[:], &ms[0])
	}
	return d.bytes(start, ms[:], &ms[0])
}

// objectCareful reads { "key": value, … } and turns it into a map, a Link, Bytes or a Blob,
// collecting the members on a stack and checking them together in finishObject.
func (d *jsonDecoder) objectCareful() (any, error) {
	start := d.pos
	d.depth++
	// A $link or $bytes object is a leaf of the data model (a CBOR tag or byte string, not a map),
	// so it may sit one level below MaxDepth; finish checks the depth of everything else.
	if d.depth > d.limits.MaxDepth+1 {
		return nil, d.fail(ErrTooDeep, start, "limit "+strconv.Itoa(d.limits.MaxDepth))
	}
	d.pos++ // {
	d.skipSpace()
	base := len(d.members)
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
	} else {
		for n := 0; ; n++ {
			if n >= d.limits.MaxElements {
				d.popMembers(base)
				return nil, d.fail(ErrTooManyElements, d.pos, "limit "+strconv.Itoa(d.limits.MaxElements))
			}
			m, err := d.member()
			if err != nil {
				d.popMembers(base)
				return nil, err
			}
			d.members = append(d.members, m)
			more, serr := d.next('}', "',' or '}'")
			if serr != nil {
				d.popMembers(base)
				return nil, serr
			}
			if !more {
				break
			}
		}
	}
	v, err := d.finishObject(start, d.members[base:])
	d.popMembers(base)
	d.depth--
	return v, err
}

// member reads "key": value; the whitespace before it has been skipped.
func (d *jsonDecoder) member() (jsonMember, error) {
	m := jsonMember{keyOff: d.pos}
	key, err := d.memberKey()
	if err != nil {
		return jsonMember{}, err
	}
	m.key, m.valOff = key, d.pos
	if m.val, err = d.memberValue(key); err != nil {
		return jsonMember{}, err
	}
	return m, nil
}

// memberKey reads the key of a member and the colon after it, and skips the whitespace that
// follows; the whitespace before the key has been skipped.
func (d *jsonDecoder) memberKey() (string, error) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", d.failByte("a string key")
	}
	key, ok := d.quickKey()
	if !ok {
		keyOff := d.pos
		kb, err := d.string()
		if err != nil {
			return "", err
		}
		if len(kb) > d.limits.MaxKeyLen {
			return "", d.fail(ErrKeyTooLong, keyOff,
				strconv.Itoa(len(kb))+" bytes, limit "+strconv.Itoa(d.limits.MaxKeyLen))
		}
		key = d.key(kb)
	}
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return "", jsonWithKey(d.failByte("':'"), key)
		}
	}
	d.pos++
	// Pretty-printed JSON has one space after the colon: skip it here rather than in a call.
	if d.pos+1 < len(d.data) && d.data[d.pos] == ' ' && d.data[d.pos+1] > ' ' {
		d.pos++
	} else {
		d.skipSpace()
	}
	return key, nil
}

// memberValue reads the value of the member named key; errors carry the key in their path.
func (d *jsonDecoder) memberValue(key string) (any, error) {
	if key == "$type" && d.pos < len(d.data) && d.data[d.pos] == '"' {
		// A $type string is an NSID that many records repeat: take it from the type cache.
		vb, err := d.string()
		if err != nil {
			return nil, jsonWithKey(err, key)
		}
		return d.typeValue(vb), nil
	}
	v, err := d.value()
	if err != nil {
		return nil, jsonWithKey(err, key)
	}
	return v, nil
}

// jsonQuadraticDupLimit is the member count up to which duplicate keys are found by comparing
// every pair, which beats hashing for the small objects records are made of.
const jsonQuadraticDupLimit = 8

// finishObject checks the members of the object that starts at offset start and builds its value.
func (d *jsonDecoder) finishObject(start int, ms []jsonMember) (any, error) {
	if len(ms) <= jsonQuadraticDupLimit {
		for i := 1; i < len(ms); i++ {
			for j := 0; j < i; j++ {
				if ms[i].key == ms[j].key {
					return nil, d.dupKey(ms[i])
				}
			}
		}
	}
	// The reserved keys that give an object a meaning of its own (DECISIONS rules 10, 11, 13).
	var typ, cidKey, mimeType *jsonMember
	for i := range ms {
		m := &ms[i]
		switch m.key {
		case "$link":
			return d.link(start, ms, m)
		case "$bytes":
			return d.bytes(start, ms, m)
		case "$type":
			typ = m
		case "cid":
			cidKey = m
		case "mimeType":
			mimeType = m
		}
	}
	if d.depth > d.limits.MaxDepth {
		return nil, d.fail(ErrTooDeep, start, "limit "+strconv.Itoa(d.limits.MaxDepth))
	}
	if typ != nil {
		s, ok := typ.val.(string)
		if !ok || s == "" {
			return nil, jsonWithKey(d.fail(ErrType, typ.valOff, jsonDescribe(typ.val)), "$type")
		}
		if s == "blob" {
			return d.blob(start, ms)
		}
	}
	if len(ms) == 2 && cidKey != nil && mimeType != nil {
		if b, ok := jsonLegacyBlob(cidKey.val, mimeType.val); ok {
			return d.slabs.boxBlob(b), nil
		}
	}
	out := make(map[string]any, len(ms))
	for _, m := range ms {
		if len(ms) > jsonQuadraticDupLimit {
			if _, dup := out[m.key]; dup {
				return nil, d.dupKey(m)
			}
		}
		out[m.key] = m.val
	}
	return out, nil
}

func (d *jsonDecoder) dupKey(m jsonMember) error {
	return jsonWithKey(d.fail(ErrDuplicateKey, m.keyOff, strconv.Quote(m.key)), m.key)
}

// jsonDescribe names the JSON kind of a decoded value, for error details.
func jsonDescribe(v any) string {
	switch x := v.(type) {
	case nil:
		return "found null"
	case bool:
		return "found a boolean"
	case int64:
		return "found a number"
	case string:
		if x == "" {
			return "found an empty string"
		}
		return "found a string"
	case []any:
		return "found an array"
	case Link:
		return "found a $link object"
	case Bytes:
		return "found a $bytes object"
	case Blob:
		return "found a blob"
	default:
		return "found an object"
	}
}

// link turns {"$link": "<CID>"} into a Link (DECISIONS rules 10, 12).
func (d *jsonDecoder) link(start int, ms []jsonMember, m *jsonMember) (any, error) {
	if len(ms) != 1 {
		return nil, d.fail(ErrLink, start, "a $link object has no other keys")
	}
	s, ok := m.val.(string)
	if !ok {
		return nil, jsonWithKey(d.fail(ErrLink, m.valOff, "$link must be a string, "+jsonDescribe(m.val)), "$link")
	}
	c, err := cidutil.ParseString(s)
	if err != nil {
		return nil, jsonWithKey(d.fail(ErrInvalidCID, m.valOff, err.Error()), "$link")
	}
	if n := len(c.KeyString()); n > d.limits.MaxCIDLen {
		return nil, jsonWithKey(d.fail(ErrInvalidCID, m.valOff,
			strconv.Itoa(n)+" bytes, limit "+strconv.Itoa(d.limits.MaxCIDLen)), "$link")
	}
	return d.slabs.boxLink(Link(c)), nil
}

// jsonBase64 is standard base64 (RFC 4648 §4) without padding, strict about the unused bits so
// that every byte string has exactly one spelling.
var jsonBase64 = base64.RawStdEncoding.Strict()

// bytes turns {"$bytes": "<base64>"} into Bytes (DECISIONS rule 10: padding optional on read).
func (d *jsonDecoder) bytes(start int, ms []jsonMember, m *jsonMember) (any, error) {
	if len(ms) != 1 {
		return nil, d.fail(ErrBytes, start, "a $bytes object has no other keys")
	}
	s, ok := m.val.(string)
	if !ok {
		return nil, jsonWithKey(d.fail(ErrBytes, m.valOff, "$bytes must be a string, "+jsonDescribe(m.val)), "$bytes")
	}
	b, err := jsonDecodeBase64(s)
	if err != nil {
		return nil, jsonWithKey(d.fail(ErrBytes, m.valOff, err.Error()), "$bytes")
	}
	return b, nil
}

// jsonDecodeBase64 decodes standard base64 with optional padding. encoding/base64 skips \r and \n
// inside the input; atproto JSON does not allow them, so they are refused first.
func jsonDecodeBase64(s string) (Bytes, error) {
	n := len(s)
	if n%4 == 0 && n > 0 && s[n-1] == '=' {
		n--
		if s[n-1] == '=' {
			n--
		}
	}
	for i := 0; i < n; i++ {
		if c := s[i]; c == '\r' || c == '\n' {
			return nil, base64.CorruptInputError(i)
		}
	}
	out := make(Bytes, jsonBase64.DecodedLen(n))
	k, err := jsonBase64.Decode(out, []byte(s[:n]))
	if err != nil {
		return nil, err
	}
	return out[:k], nil
}

// blob checks the shape {"$type": "blob", "ref": <link>, "mimeType": <non-empty string>,
// "size": <integer ≥ 0>} with no other keys (DECISIONS rule 13).
func (d *jsonDecoder) blob(start int, ms []jsonMember) (any, error) {
	var b Blob
	var have int
	for i := range ms {
		m := &ms[i]
		bad := func(detail string) (any, error) {
			return nil, jsonWithKey(d.fail(ErrBlob, m.valOff, detail), m.key)
		}
		switch m.key {
		case "$type":
		case "ref":
			l, ok := m.val.(Link)
			if !ok {
				return bad("ref must be a $link object, " + jsonDescribe(m.val))
			}
			b.Ref = l
		case "mimeType":
			s, ok := m.val.(string)
			if !ok || s == "" {
				return bad("mimeType must be a non-empty string, " + jsonDescribe(m.val))
			}
			b.MimeType = s
		case "size":
			n, ok := m.val.(int64)
			if !ok || n < 0 {
				if ok {
					return bad("size must not be negative")
				}
				return bad("size must be an integer, " + jsonDescribe(m.val))
			}
			b.Size = n
		default:
			return nil, jsonWithKey(d.fail(ErrBlob, m.keyOff, "unexpected key "+strconv.Quote(m.key)), m.key)
		}
		have++
	}
	if have != 4 {
		return nil, d.fail(ErrBlob, start, "a blob has the keys $type, ref, mimeType and size")
	}
	return d.slabs.boxBlob(b), nil
}

// jsonLegacyBlob recognises the deprecated blob {"cid": "<CID>", "mimeType": "<type>"} (DECISIONS
// rule 13). Only a CID string in canonical form qualifies, so that Blob.Ref.String() gives back
// the very string read and the record's bytes survive the round trip; anything else is an
// ordinary map.
func jsonLegacyBlob(cidVal, mimeVal any) (Blob, bool) {
	s, ok := cidVal.(string)
	mt, ok2 := mimeVal.(string)
	if !ok || !ok2 || mt == "" {
		return Blob{}, false
	}
	c, err := cidutil.ParseString(s)
	if err != nil || c.String() != s {
		return Blob{}, false
	}
	return Blob{Ref: Link(c), MimeType: mt, Legacy: true}, true
}

// jsonPlain marks the bytes that stand for themselves inside a string: printable ASCII other
// than '"' and '\\'. The scan loop skips runs of them with one table look-up per byte.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jsonPlainRun returns the offset of the first byte at or after i that is not plain (see
// jsonPlain), or len(data): eight bytes at a time, then one at a time.
func jsonPlainRun(data []byte, i int) int {
	for i+8 <= len(data) {
		if m := jsonSpecial8(binary.LittleEndian.Uint64(data[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(data) && jsonPlain[data[i]] {
		i++
	}
	return i
}

// string reads a string token starting at its opening quote and returns its unescaped bytes:
// a view of the input, or of d.buf when the string has escapes (valid until the next call).
func (d *jsonDecoder) string() ([]byte, error) {
	start := d.pos
	data := d.data
	// The usual string, plain bytes up to the closing quote, in a loop of its own (no call): word
	// by word while eight bytes are left.
	i := start + 1
	for i+8 <= len(data) {
		m := jsonSpecial8(binary.LittleEndian.Uint64(data[i:]))
		if m == 0 {
			i += 8
			continue
		}
		if i += bits.TrailingZeros64(m) / 8; data[i] == '"' {
			d.pos = i + 1
			return data[start+1 : i], nil
		}
		break
	}
	return d.stringRest(start, i)
}

// stringRest finishes the string that string began at start, from offset i: escapes, multi-byte
// UTF-8, errors and the last bytes of the input.
func (d *jsonDecoder) stringRest(start, i int) ([]byte, error) {
	data := d.data
	for {
		i = jsonPlainRun(data, i)
		if i >= len(data) {
			return nil, d.fail(ErrTruncated, start, "unterminated string")
		}
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return data[start+1 : i], nil
		case c == '\\':
			return d.escapedString(start, i)
		case c < 0x20:
			return nil, d.fail(ErrSyntax, i, "control character "+jsonQuoteByte(c)+" in a string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fail(ErrInvalidUTF8, i, "")
			}
			i += size
		}
	}
}

// escapedString finishes a string that holds escapes; i is the offset of the first backslash.
func (d *jsonDecoder) escapedString(start, i int) ([]byte, error) {
	data := d.data
	buf := append(d.buf[:0], data[start+1:i]...)
	defer func() { d.buf = buf[:0] }()
	for i < len(data) {
		if j := jsonPlainRun(data, i); j > i {
			buf = append(buf, data[i:j]...)
			if i = j; i >= len(data) {
				break
			}
		}
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return buf, nil
		case c == '\\':
			if i+1 >= len(data) {
				return nil, d.fail(ErrTruncated, start, "unterminated string")
			}
			esc := data[i+1]
			i += 2
			switch esc {
			case '"', '\\', '/':
				buf = append(buf, esc)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := d.hex4(i)
				if err != nil {
					return nil, err
				}
				i += 4
				if utf16.IsSurrogate(r) {
					// A high surrogate must be followed by an escaped low one (RFC 8259 §7);
					// alone, either half is not a character and has no UTF-8 form.
					if r >= 0xDC00 || i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
						return nil, d.fail(ErrInvalidUTF8, i-6, "lone surrogate "+string(data[i-6:i]))
					}
					lo, err := d.hex4(i + 2)
					if err != nil {
						return nil, err
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						return nil, d.fail(ErrInvalidUTF8, i-6, "lone surrogate "+string(data[i-6:i]))
					}
					r = utf16.DecodeRune(r, lo)
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return nil, d.fail(ErrSyntax, i-2, "invalid escape "+jsonQuoteByte(esc))
			}
		case c < 0x20:
			return nil, d.fail(ErrSyntax, i, "control character "+jsonQuoteByte(c)+" in a string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fail(ErrInvalidUTF8, i, "")
			}
			buf = append(buf, data[i:i+size]...)
			i += size
		}
	}
	return nil, d.fail(ErrTruncated, start, "unterminated string")
}

// hex4 reads the four hex digits of a \u escape at offset i.
func (d *jsonDecoder) hex4(i int) (rune, error) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(d.data) {
			return 0, d.fail(ErrTruncated, i-2, "incomplete \\u escape")
		}
		c := d.data[k]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, d.fail(ErrSyntax, i-2, "invalid \\u escape")
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// number reads a JSON number (RFC 8259 §6) as an exact int64 (DECISIONS rule 10).
func (d *jsonDecoder) number() (any, error) {
	data := d.data
	start := d.pos
	i := start
	neg := data[i] == '-'
	if neg {
		i++
	}
	intStart := i
	switch {
	case i >= len(data):
		return nil, d.fail(ErrTruncated, i, "expected a digit")
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return nil, d.fail(ErrSyntax, i, "expected a digit, found "+jsonQuoteByte(data[i]))
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < len(data) && data[i] == '.' {
		i++
		fracStart = i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		fracEnd = i
		if fracStart == fracEnd {
			return nil, d.digitExpected(i)
		}
	}
	exp, hasExp := 0, false
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		hasExp = true
		i++
		expNeg := false
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			expNeg = data[i] == '-'
			i++
		}
		expStart := i
		for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
			if exp < 1<<30 { // saturate: beyond this the value is out of range or zero anyway
				exp = exp*10 + int(data[i]-'0')
			}
		}
		if i == expStart {
			return nil, d.digitExpected(i)
		}
		if expNeg {
			exp = -exp
		}
	}
	if i < len(data) && data[i] >= '0' && data[i] <= '9' {
		return nil, d.fail(ErrSyntax, intStart, "leading zero")
	}
	d.pos = i
	if fracStart == fracEnd && !hasExp {
		// The common case: plain integer digits.
		digits := data[intStart:intEnd]
		if len(digits) <= 18 {
			var u int64
			for _, c := range digits {
				u = u*10 + int64(c-'0')
			}
			if neg {
				u = -u
			}
			return d.slabs.boxInt64(u), nil
		}
	}
	n, err := jsonExactInt(neg, data[intStart:intEnd], data[fracStart:fracEnd], exp)
	if err != nil {
		return nil, d.fail(err, start, string(data[start:i]))
	}
	return d.slabs.boxInt64(n), nil
}

func (d *jsonDecoder) digitExpected(i int) error {
	if i >= len(d.data) {
		return d.failEnd("a digit")
	}
	return d.fail(ErrSyntax, i, "expected a digit, found "+jsonQuoteByte(d.data[i]))
}

// jsonExactInt computes ±(intDigits.fracDigits × 10^exp) exactly, or reports ErrFraction when the
// value is not an integer and ErrIntegerRange when it is outside int64.
func jsonExactInt(neg bool, intDigits, fracDigits []byte, exp int) (int64, error) {
	digit := func(k int) byte { // k-th digit of intDigits followed by fracDigits
		if k < len(intDigits) {
			return intDigits[k]
		}
		return fracDigits[k-len(intDigits)]
	}
	total := len(intDigits) + len(fracDigits)
	first := 0
	for first < total && digit(first) == '0' {
		first++
	}
	if first == total {
		return 0, nil // every spelling of zero, including -0 and 0e99
	}
	last := total // one past the last non-zero digit
	for digit(last-1) == '0' {
		last--
	}
	// value = digits[first:last] × 10^scale
	scale := exp - len(fracDigits) + (total - last)
	if scale < 0 {
		return 0, ErrFraction
	}
	if last-first+scale > 19 { // int64 has at most 19 digits
		return 0, ErrIntegerRange
	}
	var u uint64 // < 10^19 < 2^64: no overflow
	for k := first; k < last; k++ {
		u = u*10 + uint64(digit(k)-'0')
	}
	for ; scale > 0; scale-- {
		u *= 10
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), nil
	case !neg && u <= 1<<63-1:
		return int64(u), nil
	}
	return 0, ErrIntegerRange
}
