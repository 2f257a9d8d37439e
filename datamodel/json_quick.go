package datamodel

import (
	"errors"
	"unsafe"
)

// The quick object path: object decodes the common objects straight into a map, and quickBlob,
// quickLink and quickSize read a well-formed blob without building one. Anything it does not
// decide itself goes to the careful path (json_careful.go), which is the reference:
// json_paths_test.go fuzzes the two against each other (value, offset, path and detail).

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
	d.room()
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return map[string]any{}, nil
	}
	var out map[string]any // made once the first member shows it is a map
	regrowAt := jsonRegrowFrom
	// The last two members, kept unconditionally: a map of exactly "cid" and "mimeType" may be
	// a legacy blob. Noting those keys as they went by tested each of the first two keys, a
	// branch on the data in every object; looking them up in the map at the end adds two map
	// look-ups to every two-member map, of which big50k has many (strong refs).
	var prevKey, lastKey string
	var prevVal, lastVal any
	for n := 0; ; n++ {
		if n >= d.limits.MaxElements {
			return nil, d.failTooManyElements()
		}
		key, err := d.memberKey()
		if err != nil {
			return nil, err
		}
		var val any
		if key == "" || key[0] != '$' {
			// Most members: the value is decoded in place, not through memberValue or a
			// jsonMember (whose passing around cost more than the rest of the member). A
			// nested object is read by a direct call (see nested).
			if d.nested('{') {
				val, err = d.object()
			} else {
				val, err = d.value()
			}
			if err != nil {
				return nil, atKey(err, key)
			}
		} else if key == "$link" || key == "$bytes" {
			if n > 0 {
				return nil, errJSONCareful
			}
			return d.leafObject(key)
		} else {
			var whole bool
			if val, whole, err = d.dollarMember(key, n, start); err != nil || whole {
				return val, err
			}
		}
		if out == nil {
			if d.mapProto == nil {
				d.mapProto = make(map[string]any)
			}
			out = newMap(d.mapProto)
		}
		size := len(out)
		out[key] = val
		if len(out) == size {
			return nil, errJSONCareful // a duplicate key
		}
		if size+1 == regrowAt {
			out, regrowAt = d.regrow(out, start)
		}
		prevKey, prevVal, lastKey, lastVal = lastKey, lastVal, key, val
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
	if err := d.take(len(out), start); err != nil {
		return nil, err
	}
	if len(out) == 2 {
		if prevKey == "mimeType" {
			prevKey, prevVal, lastKey, lastVal = lastKey, lastVal, prevKey, prevVal
		}
		if prevKey == "cid" && lastKey == "mimeType" {
			if b, ok := legacyBlob(prevVal, lastVal); ok {
				return d.slabs.boxBlob(b), nil
			}
		}
	}
	return out, nil
}

// dollarMember reads the value of a member of the object at start whose key begins with '$' (other
// than $link and $bytes, which leafObject reads): usually a $type. When the $type makes the object
// a blob, it reads the whole blob, quickly or carefully, and returns it with whole set. It returns
// errJSONCareful for what object leaves to the careful path. A function of its own, so that
// object's loop reads as the common member's path; moving it out took only 8 bytes off object's
// frame (regrow's iterator was the large part).
func (d *jsonDecoder) dollarMember(key string, n, start int) (val any, whole bool, err error) {
	if val, err = d.memberValue(key); err != nil || key != "$type" {
		return val, false, err
	}
	s, ok := val.(string)
	if !ok || s == "" {
		return nil, false, errJSONCareful
	}
	if s != "blob" {
		return val, false, nil
	}
	if n > 0 {
		return nil, false, errJSONCareful
	}
	if b, ok := d.quickBlob(); ok {
		d.depth--
		if err := d.take(4, start); err != nil {
			return nil, false, err
		}
		return d.slabs.boxBlob(b), true, nil
	}
	// Anything unusual in a blob is checked member by member: read it again carefully.
	d.pos = start
	d.depth--
	val, err = d.objectCareful()
	return val, true, err
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
	// The CID is read from a view of sb, not a copy: its binary form goes to the string arena,
	// and an error, which would hold the view, is dropped here.
	c, err := d.parseCID(unsafe.String(unsafe.SliceData(sb), len(sb)))
	if err != nil || len(c.KeyString()) > d.limits.MaxCIDLen {
		return Link{}, false
	}
	return Link(c), true
}

// quickSize reads a blob size for quickBlob: plain digits, at most 18 of them (no overflow), no
// fraction or exponent, within ±(2^53−1) under WithSafeIntegers; anything else is left to the
// careful path.
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
	if i < len(data) && (data[i] >= '0' && data[i] <= '9' || data[i] == '.' || data[i] == 'e' || data[i] == 'E') ||
		d.limits.safeInts && n > MaxSafeInteger {
		return 0, false
	}
	d.pos = i
	return n, true
}

// leafObject finishes a $link or $bytes object whose key, the first, was just read: a string
// and the closing brace. The string is decoded where it lies, in the input (or the unescape
// buffer), rather than copied into the string arena first, as a value of its own would be; a
// CID's binary form goes to the arena (parseCID). Anything else, errors included, is left to
// objectCareful, which decides it as link and bytes do.
func (d *jsonDecoder) leafObject(key string) (any, error) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return nil, errJSONCareful
	}
	sb, err := d.string()
	if err != nil {
		return nil, errJSONCareful
	}
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '}' {
		return nil, errJSONCareful
	}
	d.pos++
	d.depth--
	s := unsafe.String(unsafe.SliceData(sb), len(sb))
	if key == "$link" {
		c, err := d.parseCID(s)
		if err != nil || len(c.KeyString()) > d.limits.MaxCIDLen {
			return nil, errJSONCareful
		}
		return d.slabs.boxLink(Link(c)), nil
	}
	b, err := jsonDecodeBase64(s)
	if err != nil {
		return nil, errJSONCareful
	}
	return b, nil
}

// jsonRegrowFrom is the number of members at which a map being read is first re-made larger
// (see regrow).
const jsonRegrowFrom = 128

// regrow returns out, the map of the first members of the object at start, re-made with room for
// as many members as the object probably has, and the size at which to guess again. A JSON
// object does not say how many members it has, and a map that grows by itself moves its members
// to new tables at every doubling, while one made large enough never does: UnmarshalCBOR, whose
// maps say their size, took 14.5 ms instead of 7.5 ms on the wide32k input of internal/peers when
// its map was made small and left to grow. The guess is the rest of the input at the density of
// the members so far, at most eight times as many members as out has, so that an object followed
// by other data costs at most eight times its own size in empty slots, and at most MaxElements;
// a guess that is not twice as many is not worth the move, and is made again at twice the size.
// The first regrow moves the members whatever the guess, so that a large map has a hash seed of
// its own, not the one it was cloned with (newMap). Not inlined: its map iterator would take 128
// bytes of object's frame, at every level of nesting.
//
//go:noinline
func (d *jsonDecoder) regrow(out map[string]any, start int) (map[string]any, int) {
	n := len(out)
	guess := n + int(int64(n)*int64(len(d.data)-d.pos)/int64(d.pos-start))
	guess = min(guess, 8*n, d.limits.MaxElements)
	next := guess
	if guess < 2*n {
		if n > jsonRegrowFrom {
			return out, 2 * n
		}
		next = 2 * n
	}
	m := make(map[string]any, guess)
	for k, v := range out {
		m[k] = v
	}
	return m, next
}
