package datamodel

import (
	"math"
	"strconv"
	"strings"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/internal/utf8v"
)

// UnmarshalCBOR decodes data, which must be exactly one canonical DAG-CBOR value, into the
// package's Go values: nil, bool, int64, string, Bytes, Link, []any, map[string]any and Blob.
//
// It is as strict as ScanCBOR (DECISIONS rules 9 and 14), in the same single pass, and also
// applies the data-model rules. No map may have a "$link" or "$bytes" key (ErrLink, ErrBytes,
// at the key's offset): in atproto JSON such a map would read back as a link or bytes (rule
// 10), which is why MarshalCBOR, MarshalJSON and Validate refuse it too. A "$type" key must hold a non-empty
// string (rule 11, ErrType). A map whose "$type" is "blob" must have exactly the blob shape and
// becomes a Blob (rule 13, ErrBlob); a map of exactly {"cid": <canonical CIDv1 string>,
// "mimeType": <non-empty string>} becomes a legacy Blob, which re-encodes to the same bytes.
// Every other map stays a map; a null value and a missing key stay distinct (rule 15).
//
// The result never aliases data. The decoded strings, map keys and links share one copy of the
// input rather than each having its own, which saves an allocation per string; a string or link
// kept alive keeps that copy alive.
func UnmarshalCBOR(data []byte, opts ...Option) (any, error) {
	// The decoder is built field by field, in place: a composite literal would be built in a
	// temporary and copied (32 words), which shows on small records (BenchmarkUnmarshalCBOR/like).
	var d cborDecoder
	if len(opts) == 0 {
		d.lim = DefaultLimits()
	} else {
		d.lim = limitsOf(opts)
	}
	if len(data) > d.lim.MaxCBORSize {
		return nil, cborErrTooLarge(len(data), d.lim)
	}
	d.data, d.chunk, d.slabs.size = data, len(data), len(data)
	d.left = d.lim.MaxValues - 1
	v, end, err := d.value(0, 1)
	if err != nil {
		return nil, finished(err)
	}
	if end != len(data) {
		return nil, cborErr(ErrTrailingBytes, end, count(len(data)-end, "bytes"))
	}
	return v, nil
}

// UnmarshalCBORPrefix decodes the canonical DAG-CBOR value at the start of data, as UnmarshalCBOR
// does, and returns the bytes after it: event-stream frames are a header and a body back to
// back. The size limit applies to the first value only.
func UnmarshalCBORPrefix(data []byte, opts ...Option) (v any, rest []byte, err error) {
	v, end, e := cborPrefix(data, limitsOf(opts))
	if e != nil {
		return nil, nil, e
	}
	return v, data[end:], nil
}

// cborPrefix is UnmarshalCBORPrefix with its limits resolved, returning where the value ends; the
// stream decoder (CBORDecoder) calls it on its buffer.
func cborPrefix(data []byte, lim Limits) (any, int, *Error) {
	view := data
	if len(view) > lim.MaxCBORSize {
		view = view[:lim.MaxCBORSize]
	}
	// Strings share copies of the input made in chunks, so that decoding a small header does not
	// copy the body behind it.
	d := cborDecoder{data: view, lim: lim, left: lim.MaxValues - 1, chunk: cborPrefixChunk, slabs: cborSlabs{size: min(len(view), cborPrefixChunk)}}
	v, end, e := d.value(0, 1)
	if e != nil {
		if e.Err == ErrTruncated && len(data) > len(view) {
			return nil, 0, cborErrTooLarge(len(data), lim)
		}
		finished(e) // drop the path's build buffer: the error is complete
		return nil, 0, e
	}
	return v, end, nil
}

// cborPrefixChunk is how much of the input UnmarshalCBORPrefix copies at a time for strings.
const cborPrefixChunk = 4096

// cborDecoder is the state of one decode.
type cborDecoder struct {
	data []byte
	// lim is held by value: the decoder stays on its caller's stack, whereas a pointer to the
	// caller's Limits would move them to the heap (the decoder's fields leak into its results, and
	// escape analysis does not tell the fields apart), one allocation per decode.
	lim  Limits
	left int // values the record may still hold (Limits.MaxValues)
	// arena is a copy of data[arenaOff:arenaOff+len(arena)]; decoded strings are substrings of it.
	arena    string
	arenaOff int
	chunk    int // how many bytes to copy into a new arena
	slabs    cborSlabs
	// roomMade is set once the decode has made room on the stack for a deep value (stackroom.go).
	roomMade bool
}

// str returns data[a:b] (a ≤ b) as a string, sharing the arena when it covers the range. It is
// called for every decoded string and key, and must inline (inlining_test.go).
func (d *cborDecoder) str(a, b int) string {
	if a >= d.arenaOff && b-d.arenaOff <= len(d.arena) {
		return d.arena[a-d.arenaOff : b-d.arenaOff]
	}
	return d.newArena(a, b)
}

// newArena copies the input from a, in chunks of d.chunk bytes but at least to b, into a new
// arena and returns data[a:b] from it.
func (d *cborDecoder) newArena(a, b int) string {
	if a == b {
		return ""
	}
	end := max(a+d.chunk, b)
	if end > len(d.data) {
		end = len(d.data)
	}
	d.arena, d.arenaOff = string(d.data[a:end]), a
	return d.arena[:b-a]
}

// value decodes the item at off, at nesting depth depth, and returns it and the offset after it.
//
// It handles the most common items itself: small integers, valid text strings of up to 255
// bytes, and maps of up to 23 entries within the limits. Anything else, including every error,
// goes to valueSlow. Keeping value small keeps the recursion through decodeMap cheap.
func (d *cborDecoder) value(off, depth int) (any, int, *Error) {
	if off < len(d.data) {
		switch ib := d.data[off]; {
		case ib < 0x18:
			return int64(ib), off + 1, nil // boxes without allocating
		case ib-0x18 < 4: // an unsigned integer of 1, 2, 4 or 8 bytes
			if u, end, ok := cborUintArg(d.data, off, ib); ok && (u <= MaxSafeInteger || !d.lim.safeInts && u <= math.MaxInt64) {
				return d.slabs.boxInt64(int64(u)), end, nil
			}
		case ib-0x60 <= 0x18:
			start, n := off+1, int(ib-cborMajorText)
			if n == 24 {
				if start >= len(d.data) || d.data[start] < 24 {
					break
				}
				start, n = start+1, int(d.data[start])
			}
			end := start + n
			if n <= 16 && start+16 <= len(d.data) {
				// Short non-ASCII text (a name in Cyrillic, an emoji) is validated here too,
				// not left to valueSlow.
				if !cborASCII16(d.data, start, n) && !utf8v.Valid(d.data[start:end]) {
					break
				}
			} else if end > len(d.data) || !cborValidText(d.data, start, end) {
				break
			}
			return d.slabs.boxString(d.str(start, end)), end, nil
		case ib-0xa1 < 0x17: // a map of 1 to 23 entries: the checks of cborContainer
			if n := int(ib - 0xa0); depth <= d.lim.MaxDepth && 2*n <= len(d.data)-off-1 && n <= d.lim.MaxElements && n <= d.left {
				d.left -= n
				return d.decodeMap(off, off+1, n, depth)
			}
		}
	}
	return d.valueSlow(off, depth)
}

// valueSlow is value for any item.
func (d *cborDecoder) valueSlow(off, depth int) (any, int, *Error) {
	major, arg, p, err := cborHead(d.data, off)
	if err != nil {
		return nil, 0, err
	}
	switch major {
	case 0:
		if err := cborIntRange(major, arg, off, d.lim.safeInts); err != nil {
			return nil, 0, err
		}
		return d.slabs.boxInt64(int64(arg)), p, nil
	case 1:
		if err := cborIntRange(major, arg, off, d.lim.safeInts); err != nil {
			return nil, 0, err
		}
		return d.slabs.boxInt64(-1 - int64(arg)), p, nil
	case 2:
		if arg > uint64(len(d.data)-p) {
			return nil, 0, cborErr(ErrTruncated, off, "byte string of "+count(arg, "bytes"))
		}
		end := p + int(arg)
		b := make(Bytes, arg)
		copy(b, d.data[p:end])
		return b, end, nil
	case 3:
		end, err := cborText(d.data, off, p, arg)
		if err != nil {
			return nil, 0, err
		}
		return d.slabs.boxString(d.str(p, end)), end, nil
	case 4:
		if err := cborContainer(d.data, &d.lim, &d.left, major, arg, off, p, depth); err != nil {
			return nil, 0, err
		}
		d.room(depth)
		a := d.slabs.array(int(arg))
		for i := range a {
			if a[i], p, err = d.value(p, depth+1); err != nil {
				return nil, 0, err.atIndex(i)
			}
		}
		return d.slabs.boxArray(a), p, nil
	case 5:
		if err := cborContainer(d.data, &d.lim, &d.left, major, arg, off, p, depth); err != nil {
			return nil, 0, err
		}
		return d.decodeMap(off, p, int(arg), depth)
	case 6:
		if arg != cborTagCID {
			return nil, 0, cborErr(ErrTag, off, "tag "+strconv.FormatUint(arg, 10))
		}
		cs, ce, err := cborLink(d.data, &d.lim, off, p)
		if err != nil {
			return nil, 0, err
		}
		c, err := d.link(cs, ce)
		if err != nil {
			return nil, 0, err
		}
		return d.slabs.boxLink(c), ce, nil
	default:
		switch arg {
		case 20:
			return false, p, nil
		case 21:
			return true, p, nil
		case 22:
			return nil, p, nil
		}
		return nil, 0, cborSimple(arg, off)
	}
}

// link returns the binary CID data[cs:ce], which cborLink has checked, as a Link. The Link shares
// the arena, as decoded strings do, instead of being a copy of its own: one allocation fewer per
// link.
func (d *cborDecoder) link(cs, ce int) (Link, *Error) {
	c, err := cidutil.ParseKeyString(d.str(cs, ce))
	if err != nil {
		// cborLink has made the same checks; kept so that a disagreement is an error, not a panic.
		return Link{}, cborErr(ErrInvalidCID, cs, err.Error())
	}
	return Link(c), nil
}

// room makes room on the stack for the levels below a container at depth, if it is at
// stackRoomDepth (stackroom.go), once per decode.
func (d *cborDecoder) room(depth int) {
	if depth == stackRoomDepth && !d.roomMade {
		d.roomMade = true
		stackRoom(stackRoomDepth, d.lim.MaxDepth, decodeLevelStack)
	}
}

// decodeMap decodes the n entries of the map whose head is at off and ends at p, then applies
// the data-model rules on "$type" and blobs (DECISIONS rules 11 and 13).
func (d *cborDecoder) decodeMap(off, p, n, depth int) (any, int, *Error) {
	if n == 4 && d.lim.MaxKeyLen >= len("mimeType") { // the fast path does not check key lengths
		if b, end, ok := d.blob(p); ok {
			return d.slabs.boxBlob(b), end, nil
		}
	}
	d.room(depth)
	var m map[string]any
	if n <= smallMap {
		m = newMap(cborMapProto) // see newMap
	} else {
		m = make(map[string]any, n)
	}
	data := d.data
	entries := p
	pks, pke := 0, -1
	// typeOff is the offset of the value of a "$type" key. Only offsets are kept across the
	// loop's calls, not the decoded values: a value's head tells whether it is a non-empty string
	// or "blob", and fewer live values mean fewer spills around each call.
	typeOff := -1
	for i := 0; i < n; i++ {
		ks, ke, err := cborKey(data, &d.lim, p, pks, pke)
		if err != nil {
			return nil, 0, err
		}
		if ke-ks >= len("$link") && data[ks] == '$' {
			if err := cborReservedKey(data, p, ks, ke); err != nil {
				return nil, 0, err
			}
			if string(data[ks:ke]) == "$type" {
				typeOff = ke
			}
		}
		k := d.str(ks, ke)
		v, q, err := d.value(ke, depth+1)
		if err != nil {
			return nil, 0, err.atKey(string(data[ks:ke]))
		}
		m[k] = v
		p, pks, pke = q, ks, ke
	}
	// A legacy blob has exactly the keys "cid" and "mimeType"; the last key is the longer one.
	if n == 2 && string(data[pks:pke]) == "mimeType" {
		if b, ok := legacyBlob(m["cid"], m["mimeType"]); ok {
			return d.slabs.boxBlob(b), p, nil
		}
	}
	if typeOff >= 0 {
		// The value decoded without error, so a text head means a valid string; 0x60 is "".
		if h := data[typeOff]; h&0xe0 != cborMajorText || h == cborMajorText {
			// Rule 11: where present, $type is a non-empty string.
			if err := checkType(m["$type"]); err != nil {
				err.Offset = typeOff
				return nil, 0, err
			}
		}
		if len(data)-typeOff >= len(cborTextBlob) && string(data[typeOff:typeOff+len(cborTextBlob)]) == cborTextBlob {
			b, err := blobFromMap(m, d.lim.MaxCIDLen)
			if err != nil {
				err.Offset = cborBlobErrOffset(data, &d.lim, off, entries, n, err.Path)
				return nil, 0, err
			}
			return d.slabs.boxBlob(b), p, nil
		}
	}
	return m, p, nil
}

// cborTextBlob is the text string "blob" as canonical CBOR: the only encoding of a $type that
// makes a map a blob (rule 13).
const cborTextBlob = "\x64blob"

// cborReservedKey refuses the map key data[ks:ke] (its head at off) if it is "$link" or "$bytes"
// (see errReservedKey).
func cborReservedKey(data []byte, off, ks, ke int) *Error {
	var err *Error
	switch string(data[ks:ke]) {
	case "$link":
		err = errReservedKey("$link")
	case "$bytes":
		err = errReservedKey("$bytes")
	default:
		return nil
	}
	err.Offset = off
	return err
}

// cborBlobErrOffset returns the offset at which to report an error of blobFromMap whose path is
// path, for the map with head at off and n entries from p: the key's head for an unexpected
// key, the value for a bad value, the map for a missing key. Errors are rare, so the entries are
// read again here rather than their offsets kept while decoding.
func cborBlobErrOffset(data []byte, lim *Limits, off, p, n int, path string) int {
	if path == "" {
		return off
	}
	tok, _, _ := strings.Cut(path[1:], "/")
	s := cborScanner{data: data, lim: lim, left: math.MaxInt}
	for i := 0; i < n; i++ {
		_, arg, ks, err := cborHead(data, p)
		if err != nil {
			break
		}
		ke := ks + int(arg)
		if string(appendPointerToken(nil, string(data[ks:ke])))[1:] == tok {
			switch tok {
			case "ref", "mimeType", "size":
				return ke
			}
			return p
		}
		if p, err = s.value(ke, 1); err != nil {
			break
		}
	}
	return off
}

// blob decodes the four entries at p as a blob without building a map, if they are exactly a
// valid blob in canonical key order: ref (a link), size (an integer ≥ 0), $type "blob", mimeType
// (a non-empty string). Otherwise ok is false and the caller decodes the entries as a map, which
// finds any error or keeps them as a plain map.
func (d *cborDecoder) blob(p int) (b Blob, end int, ok bool) {
	data := d.data
	if len(data)-p < len(cborKeyRef) || string(data[p:p+len(cborKeyRef)]) != cborKeyRef {
		return Blob{}, 0, false
	}
	p += len(cborKeyRef)
	major, arg, q, err := cborHead(data, p)
	if err != nil || major != 6 || arg != cborTagCID {
		return Blob{}, 0, false
	}
	cs, ce, err := cborLink(data, &d.lim, p, q)
	if err != nil {
		return Blob{}, 0, false
	}
	c, err := d.link(cs, ce)
	if err != nil {
		return Blob{}, 0, false
	}
	p = ce
	if len(data)-p < len(cborKeySize) || string(data[p:p+len(cborKeySize)]) != cborKeySize {
		return Blob{}, 0, false
	}
	major, size, p, err := cborHead(data, p+len(cborKeySize))
	if err != nil || major != 0 || size > math.MaxInt64 || d.lim.safeInts && size > MaxSafeInteger {
		return Blob{}, 0, false
	}
	if len(data)-p < len(cborKeyType)+len(cborKeyMimeType) ||
		string(data[p:p+len(cborKeyType)]) != cborKeyType ||
		string(data[p+len(cborKeyType):p+len(cborKeyType)+len(cborKeyMimeType)]) != cborKeyMimeType {
		return Blob{}, 0, false
	}
	p += len(cborKeyType) + len(cborKeyMimeType)
	major, n, q, err := cborHead(data, p)
	if err != nil || major != 3 || n == 0 {
		return Blob{}, 0, false
	}
	end, err = cborText(data, p, q, n)
	if err != nil {
		return Blob{}, 0, false
	}
	return Blob{Ref: c, MimeType: d.str(q, end), Size: int64(size)}, end, true
}
