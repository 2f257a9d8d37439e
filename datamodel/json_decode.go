package datamodel

import (
	"strconv"
)

// UnmarshalJSON decodes one atproto JSON value (https://atproto.com/specs/data-model, "JSON Representation") into
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
// The strings in the result are views of a few shared chunks instead of an allocation each: a
// small string kept from the result keeps its chunk, at most the size of the input, alive.
func UnmarshalJSON(data []byte, opts ...Option) (any, error) {
	return unmarshalJSON(data, limitsOf(opts), false)
}

// unmarshalJSON is UnmarshalJSON; careful makes every object take the careful path, for tests
// that compare the two paths.
func unmarshalJSON(data []byte, limits Limits, careful bool) (any, error) {
	if len(data) > limits.MaxJSONSize {
		return nil, &Error{Err: ErrTooLarge, Offset: limits.MaxJSONSize,
			Detail: overLimit(len(data), "bytes", limits.MaxJSONSize)}
	}
	d := getJSONDecoder()
	v, err := d.decode(data, limits, careful)
	putJSONDecoder(d)
	return v, err
}

// decode is unmarshalJSON's work on a decoder of its own (taken from the pool, or a test's),
// which it leaves ready for another decode.
func (d *jsonDecoder) decode(data []byte, limits Limits, careful bool) (any, error) {
	d.data, d.pos, d.depth, d.limits, d.left = data, 0, 0, limits, limits.MaxValues-1
	d.keyMisses = 0
	d.earlyRoom()
	// The values of earlier decodes keep their own slabs and string arenas; the new slabs are
	// sized from the input. The slabs size themselves for CBOR, which is about half as long as
	// the same record pretty-printed in JSON (quoted keys, indentation), and $type strings take no
	// slab.
	d.slabs, d.strs = cborSlabs{size: len(data) / 2}, nil
	d.careful = careful
	d.skipSpace()
	v, err := d.value()
	if err == errJSONCareful {
		// Something unusual (usually an error) that only the careful path reports exactly: start
		// again, once, with that path for every object.
		d.careful, d.pos, d.depth, d.left = true, 0, 0, limits.MaxValues-1
		d.items, d.members = d.items[:0], d.members[:0]
		d.skipSpace()
		v, err = d.value()
	}
	if err == nil {
		d.skipSpace()
		if d.pos < len(d.data) {
			v, err = nil, d.fail(ErrTrailingBytes, d.pos, "")
		}
	} else {
		v = nil // "t" fails as a literal after value() chose true (FuzzJSONDecoder)
	}
	d.data, d.slabs, d.strs = nil, cborSlabs{}, nil
	d.trimScratch(jsonMaxPooledScratch) // one huge input must not pin its scratch in the pool
	return v, finished(err)
}

// trimScratch drops the decoder's scratch stacks if any has room for more than n entries, so that
// a decoder kept for later does not pin what one large value grew.
func (d *jsonDecoder) trimScratch(n int) {
	if cap(d.items) > n || cap(d.members) > n || cap(d.buf) > n || cap(d.typeOpen) > n {
		d.items, d.members, d.buf, d.typeOpen = nil, nil, nil, nil
	}
}

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
	left    int       // values the record may still hold (Limits.MaxValues)
	slabs   cborSlabs // one allocation for many boxed values (see slabs.go)

	// Scratch stacks shared by all nesting levels: a container pushes its members, then pops them
	// into a value of the exact size.
	members []jsonMember
	items   []any
	buf     []byte // unescaped string being built

	// strs is the current chunk of this decode's string arena, of which the decoded strings are
	// views (see carve).
	strs []byte
	// roomMade is set once the decode has made room on the stack for a deep value, and wentDeep
	// once it has opened a container at jsonRoomDepth (stackroom.go, earlyRoom).
	roomMade, wentDeep bool
	// fromSpare is set on a decoder taken from the spare, and spareAgain if a decode took the
	// spare before it in the same gcEpoch (see putJSONDecoder).
	fromSpare, spareAgain bool
	// jsonCaches are the keys and $type values this decoder has met, kept across decodes.
	jsonCaches
	// mapProto is an empty map that object clones into each map it builds (see newMap), made
	// when the decoder builds its first map.
	mapProto map[string]any
	// keyMisses counts the keys this decode has added to the caches (see uncachedKey).
	keyMisses int
	// typeAt, in a typed decode, maps the offset of each object that a union member's look for
	// its "$type" has skipped over to the offset of that object's "$type" value, so that no
	// member's look skips the same bytes again (see typedJSONDecoder.union); nil until a look
	// notes one. noteTypes is set during such a look, and typeOpen is peekSkipValue's stack of
	// the objects it is in.
	typeAt    map[int]int
	noteTypes bool
	typeOpen  []int
}

// jsonMember is one key/value pair of an object being read.
type jsonMember struct {
	key    string
	val    any
	keyOff int // offset of the key's opening quote
	valOff int // offset of the value's first byte
}

// fail makes the error of a decode that stops at off. Not inlined: it allocates, with the write
// barriers of its fields, and inlined at each of the decoder's error sites it made the functions
// that run on good input larger (the JSON decoder's methods by 4.6 KB, escapedString 3 411 ->
// 2 878 bytes), in a decoder whose code is larger than the instruction cache.
//
//go:noinline
func (d *jsonDecoder) fail(err error, off int, detail string) *Error {
	return &Error{Err: err, Offset: off, Detail: detail}
}

// failTooManyElements reports an array or object with more than MaxElements members, at d.pos.
// Not inlined, so that this rare path adds nothing to the frames of the recursive decoders
// (object, array), which every level of nesting pays for in stack.
//
//go:noinline
func (d *jsonDecoder) failTooManyElements() *Error {
	return d.fail(ErrTooManyElements, d.pos, overLimit(-1, "", d.limits.MaxElements))
}

// failEnd reports input that ends where a token was expected. Not inlined, as fail.
//
//go:noinline
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
	case c >= '0' && c <= '9' || c == '-':
		// The usual number: an integer of up to 18 digits, read in one loop. Anything else (a
		// fraction, an exponent, a 19th digit, a leading zero, an unsafe integer, no digit) is
		// read again in full by number, a function too large to call for every 0 or -1: on
		// big50k it was 111 of a decode's 4 661 instruction-cache misses, for 15 numbers.
		data, digits := d.data, d.pos
		if c == '-' {
			digits++
		}
		i, u := digits, int64(0)
		for ; i < len(data) && i-digits < 18 && data[i] >= '0' && data[i] <= '9'; i++ {
			u = u*10 + int64(data[i]-'0')
		}
		if i > digits && (data[digits] != '0' || i == digits+1) &&
			(i == len(data) || data[i] != '.' && data[i] != 'e' && data[i] != 'E' && (data[i] < '0' || data[i] > '9')) &&
			(u <= MaxSafeInteger || !d.limits.safeInts) {
			d.pos = i
			if c == '-' {
				u = -u
			}
			return d.slabs.boxInt64(u), nil
		}
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

// room makes room on the stack for the levels below the container just opened, if it is at
// jsonRoomDepth (stackroom.go) and earlyRoom has not, once per decode.
func (d *jsonDecoder) room() {
	if d.depth == jsonRoomDepth {
		d.deepRoom()
	}
}

// deepRoom is room's work at jsonRoomDepth, out of line so that room is inlined.
//
//go:noinline
func (d *jsonDecoder) deepRoom() {
	d.wentDeep = true
	if !d.roomMade {
		d.roomMade = true
		stackRoom(jsonRoomDepth, d.limits.MaxDepth, decodeLevelStack)
	}
}

// earlyRoom starts a decode's account of stack room. A decoder whose last decode opened a
// container at jsonRoomDepth makes the room at once, for every level, while the stack holds only
// the caller's frames: made at that depth, the stack's growth also copies and adjusts the frames
// of every level open there. A goroutine whose stack a collection has halved grows it again at
// its next deep decode either way; the decoders of one service meet records of the same few
// shapes, so the last decode is the guess for the next.
func (d *jsonDecoder) earlyRoom() {
	d.roomMade, d.wentDeep = d.wentDeep, false
	if d.roomMade {
		stackRoom(0, d.limits.MaxDepth, decodeLevelStack)
	}
}

// nested reports whether the next value opens with c. object and array call object directly
// for a nested object instead of through value, so that each level of nesting puts one frame on
// the stack instead of two: after a collection shrinks a goroutine's stack, a deep decode grows
// it again, and each growth copies and adjusts every frame on it.
func (d *jsonDecoder) nested(c byte) bool {
	return d.pos < len(d.data) && d.data[d.pos] == c
}

// literal reads word (true, false or null) at d.pos.
func (d *jsonDecoder) literal(word string) error {
	if err := d.matchLiteral(word); err != nil {
		return err // not returned as a nil *Error, which is no nil error
	}
	return nil
}

// matchLiteral is literal, for the peek functions, which return *Error: word cut short by the
// end of input is ErrTruncated at the end (what a stream waits for more input on), any other
// difference ErrSyntax at the word's start.
func (d *jsonDecoder) matchLiteral(word string) *Error {
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
		return nil, d.fail(ErrTooDeep, start, overLimit(-1, "", d.limits.MaxDepth))
	}
	d.room()
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
			return d.arrayFail(base, d.failTooManyElements())
		}
		if d.left--; d.left < 0 {
			return d.arrayFail(base, errTooManyValues(d.pos, d.limits.MaxValues))
		}
		var v any
		var err error
		if d.nested('{') {
			v, err = d.object() // see nested
		} else {
			v, err = d.value()
		}
		if err != nil {
			return d.arrayFail(base, atIndex(err, n))
		}
		d.items = append(d.items, v)
		if d.pos < len(d.data) && d.data[d.pos] == ',' { // the common case, without a call
			d.pos++
			d.skipSpace()
			continue
		}
		more, serr := d.next(']', "',' or ']'")
		if serr != nil {
			return d.arrayFail(base, serr)
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

// arrayFail drops the items of a failing array, from base, and returns err. Out of line, so that
// array's error paths add one call each to the code that runs on good input.
//
//go:noinline
func (d *jsonDecoder) arrayFail(base int, err error) (any, error) {
	d.popItems(base)
	return nil, err
}

// take counts the n values of the object that starts at start against Limits.MaxValues. Objects
// are counted once read, as a $link or $bytes object is one value, not a map of one; the quick
// and careful paths count at the same point, so that they report the same error.
func (d *jsonDecoder) take(n, start int) error {
	if d.left -= n; d.left < 0 {
		return errTooManyValues(start, d.limits.MaxValues)
	}
	return nil
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
