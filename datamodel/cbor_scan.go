package datamodel

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"

	"github.com/atcore/atcore/internal/utf8v"
)

// ScanCBOR checks that data is exactly one canonical DAG-CBOR value within the limits, without
// allocating (DECISIONS rules 9 and 14; passing options costs one allocation, for the options).
// Every check UnmarshalCBOR makes on the encoding is made here too, in one pass over the bytes,
// but no Go value is built. It is a pure syntax check: it does not apply the data-model rules
// (rules 10, 11 and 13: "$link" and "$bytes" keys, "$type", blobs), which UnmarshalCBOR adds.
//
// It rejects: map keys that are not text strings, not sorted length-first then bytewise, or
// repeated; integers, lengths and tags not in their shortest form; indefinite lengths; floats of
// any width; tags other than 42, and tag 42 on anything but 0x00 followed by a CIDv1 of at most
// Limits.MaxCIDLen bytes; simple values other than false, true and null; invalid UTF-8 in text
// strings; integers outside int64; trailing bytes; and anything beyond the limits. A declared
// length is checked against the bytes actually present before it is used, so a short hostile
// input cannot make it loop or allocate.
//
// The error is an *Error giving the byte offset of the offending item, the JSON Pointer of the
// value, and one of the Err* sentinels.
func ScanCBOR(data []byte, opts ...Option) error {
	lim := limitsOf(opts)
	if len(data) > lim.MaxCBORSize {
		return cborErrTooLarge(len(data), lim)
	}
	s := cborScanner{data: data, lim: &lim, left: lim.MaxValues - 1}
	end, err := s.value(0, 1)
	if err != nil {
		return finished(err)
	}
	if end != len(data) {
		return cborErr(ErrTrailingBytes, end, count(len(data)-end, "bytes"))
	}
	return nil
}

// cborContainer checks an array or map header before any element is read: nesting depth, the
// element limit, and that the input can hold the declared count (each element takes at least one
// byte, each map entry two), so that a forged length costs nothing (rule 14).
//
// left is what remains of the budget of Limits.MaxValues; the n elements are taken from it.
func cborContainer(data []byte, lim *Limits, left *int, major byte, n uint64, off, p, depth int) *Error {
	if depth > lim.MaxDepth {
		return cborErr(ErrTooDeep, off, overLimit(-1, "", lim.MaxDepth))
	}
	minBytes := n
	if major == 5 {
		minBytes = 2 * n // cannot overflow: n is checked against the input length first
	}
	if n > uint64(len(data)-p) || minBytes > uint64(len(data)-p) {
		return cborErr(ErrTruncated, off, cborMajorNames[major]+" of "+count(n, "elements"))
	}
	if n > uint64(lim.MaxElements) {
		return cborErr(ErrTooManyElements, off, overLimit(int(n), "elements", lim.MaxElements))
	}
	if *left -= int(n); *left < 0 {
		return errTooManyValues(off, lim.MaxValues)
	}
	return nil
}

// errTooManyValues is the error for a record of more than limit values (Limits.MaxValues), found
// at the container at off (-1 for a Go value).
//
// Not inlined: it is on the error path of every decoder's containers, whose code runs on good
// input (see jsonDecoder.fail).
//
//go:noinline
func errTooManyValues(off, limit int) *Error {
	return &Error{Err: ErrTooManyValues, Offset: off, Detail: overLimit(-1, "", limit)}
}

// cborKey reads the map key at off, which must be a text string of valid UTF-8 within the key
// length limit and must sort strictly after the previous key data[pks:pke] (pke < 0 for the
// first key): length-first, then bytewise, no duplicates (rule 9). It returns the key's content
// range.
func cborKey(data []byte, lim *Limits, off, pks, pke int) (ks, ke int, err *Error) {
	// Fast path for the usual key: an ASCII text string of 1 to 8 bytes, in order, checked and
	// compared with the previous key as big-endian words shifted down to the key's bytes.
	if off >= 0 && off+9 <= len(data) {
		b := data[off : off+9]
		if n := int(b[0]) - int(cborMajorText); uint(n-1) < 8 && n <= lim.MaxKeyLen {
			shift := uint(64-8*n) & 63 // 0 to 56
			w := binary.BigEndian.Uint64(b[1:]) >> shift
			if w&cborASCIIMask == 0 {
				// Equal lengths compare bytewise; pks+8 <= off < len(data)-8: the previous key
				// and its head come before this one.
				if prevLen := pke - pks; n > prevLen || n == prevLen && binary.BigEndian.Uint64(data[pks:])>>shift < w {
					return off + 1, off + 1 + n, nil
				}
			}
			return cborKeySlow(data, lim, off, pks, pke)
		}
	}
	// Then keys of up to 16 bytes.
	if off+17 <= len(data) {
		if n := int(data[off]) - int(cborMajorText); uint(n) <= 16 && n <= lim.MaxKeyLen && cborASCII16(data, off+1, n) {
			ks, ke = off+1, off+1+n
			if prevLen := pke - pks; n > prevLen || n == prevLen && cborShortLess(data, pks, ks, n) {
				return ks, ke, nil
			}
		}
	}
	return cborKeySlow(data, lim, off, pks, pke)
}

// cborKeySlow is cborKey for any key, and the one that reports errors.
func cborKeySlow(data []byte, lim *Limits, off, pks, pke int) (ks, ke int, err *Error) {
	major, n, p, err := cborHead(data, off)
	if err != nil {
		return 0, 0, err
	}
	if major != 3 {
		return 0, 0, cborErr(ErrKeyNotString, off, cborMajorNames[major])
	}
	if n > uint64(lim.MaxKeyLen) {
		return 0, 0, cborErr(ErrKeyTooLong, off, strconv.FormatUint(n, 10)+" bytes, limit "+strconv.Itoa(lim.MaxKeyLen))
	}
	ke, err = cborText(data, off, p, n)
	if err != nil {
		return 0, 0, err
	}
	if pke >= 0 {
		prevLen, curLen := pke-pks, ke-p
		if curLen < prevLen {
			return 0, 0, cborErr(ErrUnsortedKeys, off, strconv.Quote(string(data[p:ke]))+" after "+strconv.Quote(string(data[pks:pke])))
		}
		if curLen == prevLen {
			switch bytes.Compare(data[pks:pke], data[p:ke]) {
			case 0:
				return 0, 0, cborErr(ErrDuplicateKey, off, strconv.Quote(string(data[p:ke])))
			case 1:
				return 0, 0, cborErr(ErrUnsortedKeys, off, strconv.Quote(string(data[p:ke]))+" after "+strconv.Quote(string(data[pks:pke])))
			}
		}
	}
	return p, ke, nil
}

// cborLink checks the content of a tag 42 whose head ends at p (tag head at off) and returns the
// binary CID's range: a byte string holding the identity multibase prefix 0x00 and a CIDv1 of at
// most MaxCIDLen bytes (https://atproto.com/specs/data-model, "link"; DECISIONS rules 9 and 12).
func cborLink(data []byte, lim *Limits, off, p int) (cs, ce int, err *Error) {
	major, n, q, err := cborHead(data, p)
	if err != nil {
		return 0, 0, err
	}
	if major != 2 {
		return 0, 0, cborErr(ErrInvalidCID, p, "tag 42 on "+cborMajorWithArticle[major]+", want a byte string")
	}
	if n > uint64(len(data)-q) {
		return 0, 0, cborErr(ErrTruncated, p, "byte string of "+count(n, "bytes"))
	}
	if n == 0 || data[q] != 0 {
		return 0, 0, cborErr(ErrInvalidCID, q, "tag 42 content does not start with the 0x00 multibase prefix")
	}
	cs, ce = q+1, q+int(n)
	if ce-cs > lim.MaxCIDLen {
		return 0, 0, cborErr(ErrInvalidCID, cs, cidTooLong(ce-cs, lim.MaxCIDLen))
	}
	if at, detail := cborCheckCID(data[cs:ce]); detail != "" {
		return 0, 0, cborErr(ErrInvalidCID, cs+at, detail)
	}
	return cs, ce, nil
}

// cborScanner is the state of one ScanCBOR: the input and the limits.
type cborScanner struct {
	data []byte
	lim  *Limits
	left int // values the record may still hold (Limits.MaxValues)
	// dataModel adds the data-model rules, for the struct path, where no generic decode follows
	// to check them: "$type" holds a non-empty string (rule 11), no map has a "$link" or "$bytes"
	// key (rule 10; see cborReservedKey), and a map typed "blob" has exactly the blob shape
	// (rule 13; see cborBlobShape).
	dataModel bool
	// encoded marks a check of what an encoder wrote (MarshalCBORStruct): a key that is not
	// valid UTF-8 or is too long is reported at its own path, as the encoders' checkKey does,
	// rather than at its map's, as a decoder, which cannot trust the key, does.
	encoded bool
	// roomMade is set once the scan has made room on the stack for a deep value (stackroom.go).
	roomMade bool
}

// keyError returns err, the error for the map key at off, at the key's path if it is an error in
// the key's text (see cborScanner.encoded).
func (s *cborScanner) keyError(err *Error, off int) *Error {
	if err.Err != ErrInvalidUTF8 && err.Err != ErrKeyTooLong {
		return err
	}
	if major, n, p, herr := cborHead(s.data, off); herr == nil && major == 3 && n <= uint64(len(s.data)-p) {
		return err.atKey(string(s.data[p : p+int(n)]))
	}
	return err
}

// cborBlobShape reports whether the n entries at p, of a map whose "$type" is "blob", are exactly
// a valid blob, as the decoder's blob fast path reads one (ref, size, $type, mimeType, in
// canonical order), without building anything. The entries are known to be well-formed.
func cborBlobShape(data []byte, lim *Limits, p, n int) bool {
	if n != 4 || len(data)-p < len(cborKeyRef) || string(data[p:p+len(cborKeyRef)]) != cborKeyRef {
		return false
	}
	p += len(cborKeyRef)
	major, arg, q, err := cborHead(data, p)
	if err != nil || major != 6 || arg != cborTagCID {
		return false
	}
	_, p, err = cborLink(data, lim, p, q)
	if err != nil || len(data)-p < len(cborKeySize) || string(data[p:p+len(cborKeySize)]) != cborKeySize {
		return false
	}
	major, size, p, err := cborHead(data, p+len(cborKeySize))
	if err != nil || major != 0 || size > math.MaxInt64 || lim.safeInts && size > MaxSafeInteger {
		return false
	}
	if len(data)-p < len(cborKeyType)+len(cborKeyMimeType) ||
		string(data[p:p+len(cborKeyType)]) != cborKeyType ||
		string(data[p+len(cborKeyType):p+len(cborKeyType)+len(cborKeyMimeType)]) != cborKeyMimeType {
		return false
	}
	major, arg, _, err = cborHead(data, p+len(cborKeyType)+len(cborKeyMimeType))
	return err == nil && major == 3 && arg > 0 // the text itself was checked by the scan
}

// cborBlobError returns the error for the map item, found at off at nesting depth depth, typed
// "blob" but not exactly a blob (cborBlobShape said no): the generic decoder's, so that the
// sentinel, detail, offset and path are UnmarshalCBOR's, and the decoder stays the one judge of
// the blob shape. Errors are rare, so the map is decoded again only here, from a copy: were the
// scanner's input handed to the decoder, whose values keep it, escape analysis would move the
// scanner's limits to the heap, an allocation on every ScanCBOR (allocs_test.go).
func cborBlobError(item []byte, lim Limits, off, depth int) *Error {
	data := bytes.Clone(item)
	d := cborDecoder{data: data, lim: lim, left: math.MaxInt, chunk: len(data), slabs: cborSlabs{size: len(data)}}
	_, _, err := d.value(0, depth)
	if err != nil && err.Offset >= 0 {
		err.Offset += off
	}
	return err
}

// room makes room on the stack for the levels below a container at depth, if it is at
// stackRoomDepth and the scan has not yet, once per scan.
func (s *cborScanner) room(depth int) {
	if depth == stackRoomDepth && !s.roomMade {
		s.roomMade = true
		stackRoom(stackRoomDepth, s.lim.MaxDepth, decodeLevelStack)
	}
}

// value checks the item at off, at nesting depth depth, and returns the offset after it.
func (s *cborScanner) value(off, depth int) (int, *Error) {
	// Fast paths for the most common items: small integers, short valid strings, false, true,
	// null. Anything else, including every error, takes the general path below.
	if off < len(s.data) {
		switch ib := s.data[off]; {
		case ib < 0x18 || ib-0x20 < 0x18 || ib-0xf4 < 3:
			return off + 1, nil
		case ib-0x60 < 0x18:
			if n := int(ib - 0x60); n <= 16 && off+17 <= len(s.data) {
				if cborASCII16(s.data, off+1, n) || utf8v.Valid(s.data[off+1:off+1+n]) {
					return off + 1 + n, nil
				}
			} else if end := off + 1 + n; end <= len(s.data) && cborValidText(s.data, off+1, end) {
				return end, nil
			}
		case ib == 0x78 && off+1 < len(s.data) && s.data[off+1] >= 24: // text of 24 to 255 bytes
			if end := off + 2 + int(s.data[off+1]); end <= len(s.data) && cborValidText(s.data, off+2, end) {
				return end, nil
			}
		case (ib == 0x18 || ib == 0x38) && off+1 < len(s.data) && s.data[off+1] >= 24: // one-byte integers
			return off + 2, nil
		}
	}
	major, arg, p, err := cborHead(s.data, off)
	if err != nil {
		return 0, err
	}
	switch major {
	case 0, 1:
		if err := cborIntRange(major, arg, off, s.lim.safeInts); err != nil {
			return 0, err
		}
		return p, nil
	case 2:
		if arg > uint64(len(s.data)-p) {
			return 0, cborErr(ErrTruncated, off, "byte string of "+count(arg, "bytes"))
		}
		return p + int(arg), nil
	case 3:
		return cborText(s.data, off, p, arg)
	case 4:
		if err := cborContainer(s.data, s.lim, &s.left, major, arg, off, p, depth); err != nil {
			return 0, err
		}
		s.room(depth)
		for i := 0; i < int(arg); i++ {
			if p, err = s.value(p, depth+1); err != nil {
				return 0, err.atIndex(i)
			}
		}
		return p, nil
	case 5:
		if err := cborContainer(s.data, s.lim, &s.left, major, arg, off, p, depth); err != nil {
			return 0, err
		}
		s.room(depth)
		pks, pke := 0, -1
		entries, blob := p, false
		for i := 0; i < int(arg); i++ {
			ks, ke, err := cborKey(s.data, s.lim, p, pks, pke)
			if err != nil {
				if s.encoded {
					return 0, s.keyError(err, p)
				}
				return 0, err
			}
			if s.dataModel && ke-ks >= len("$link") && s.data[ks] == '$' {
				if err := cborReservedKey(s.data, p, ks, ke); err != nil {
					return 0, err
				}
			}
			if p, err = s.value(ke, depth+1); err != nil {
				return 0, err.atKey(string(s.data[ks:ke]))
			}
			if s.dataModel && ke-ks == 5 && string(s.data[ks:ke]) == "$type" && (s.data[ke]&0xe0 != cborMajorText || s.data[ke] == cborMajorText) {
				err := errType(describeHead(s.data[ke]))
				err.Offset = ke
				return 0, err
			}
			if s.dataModel && ke-ks == 5 && string(s.data[ks:ke]) == "$type" && p-ke == len(cborTextBlob) && string(s.data[ke:p]) == cborTextBlob {
				blob = true
			}
			pks, pke = ks, ke
		}
		if blob && !cborBlobShape(s.data, s.lim, entries, int(arg)) {
			if err := cborBlobError(s.data[off:p], *s.lim, off, depth); err != nil {
				return 0, err
			}
		}
		return p, nil
	case 6:
		if arg != cborTagCID {
			return 0, cborErr(ErrTag, off, "tag "+strconv.FormatUint(arg, 10))
		}
		_, ce, err := cborLink(s.data, s.lim, off, p)
		return ce, err
	default:
		return p, cborSimple(arg, off)
	}
}
