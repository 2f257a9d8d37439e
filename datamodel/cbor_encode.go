package datamodel

import (
	"reflect"

	cid "github.com/ipfs/go-cid"
)

// MarshalCBOR returns the canonical DAG-CBOR encoding of v (DECISIONS rule 9).
//
// v is a tree of the package's Go types (see the package doc): nil, bool, any Go integer type
// (within int64), string (valid UTF-8), Bytes or []byte, Link or cid.Cid, []any, map[string]any,
// Blob or *Blob. Map keys are written sorted length-first then bytewise, integers and lengths in
// their shortest form. Anything else is refused with an *Error whose Path names the bad value:
// floats (ErrFloat), unsigned values above math.MaxInt64 (ErrIntegerRange), invalid UTF-8
// (ErrInvalidUTF8), undefined or CIDv0 links or links longer than Limits.MaxCIDLen
// (ErrInvalidCID), a "$type" that is not a non-empty string (ErrType), malformed blobs,
// including a map typed "blob" that is not exactly a blob (ErrBlob), a map with a "$link" or
// "$bytes" key (ErrLink, ErrBytes: UnmarshalCBOR refuses such a map, DECISIONS rule 10), other
// Go types (ErrUnsupported) and trees nested deeper than Limits.MaxDepth (ErrTooDeep), which a
// decoder with the same limits could not read back and which is also how a cyclic value is
// caught. Every map that UnmarshalCBOR would refuse is refused here, with the same sentinel.
//
// A map[string]any shaped exactly as a blob is written as it is: those are the bytes of the
// equal Blob, which is what UnmarshalCBOR reads back (rule 13).
//
// Go values that stand for data-model values are taken anywhere in v, and written as the equal
// generic tree: slices and arrays ([]string, []int64, []Link, [2]T; []byte, [N]byte and other
// slices and arrays of a uint8 kind are bytes), maps with keys of a string kind
// (map[string]string, map[string][]T), pointers (nil is null, a nil *Blob included), structs,
// whose fields are keyed as MarshalCBORStruct keys them (the cbor tag, else the json tag, else the
// Go name; "-" and unexported fields left out, omitempty and omitzero as encoding/json's, embedded
// structs promoted, the entries of an UnknownFields field merged in), named types of the string,
// integer and bool kinds, tid.TID and other encoding.TextMarshaler types (as their text), cid.Cid
// (a link), and types with fxamacker's MarshalCBOR method (as the value their bytes decode to, held
// to the limits of opts where it is, as the bytes MarshalCBORStruct writes are). A nil slice or map
// is null, as MarshalCBORStruct and encoding/json write it (a nil []any or map[string]any too,
// which no decoder returns), but for a nil Bytes or []byte held in an any, which is empty bytes
// (see the package doc). Every rule above applies to them as to the equal tree, with the same
// sentinel and Path (through the struct's keys and the slice's indexes), so MarshalCBOR(post)
// writes MarshalCBORStruct(post)'s bytes for a Lexicon struct. Refused at their path: floats of any
// type (ErrFloat), channels, functions and other types with no data-model form (ErrUnsupported),
// maps whose keys are not strings (ErrKeyNotString), structs written as arrays by fxamacker's
// toarray option (ErrUnsupported), and an UnknownFields entry whose key a field also has
// (ErrGoType). A cyclic Go value is refused as a cyclic tree is, by the depth limit (ErrTooDeep). A
// struct (or pointer to one) at the top is written by MarshalCBORStruct's typed encoder, field by
// field, which writes the same bytes without building the equal tree first; the equal tree is built
// only to report an error.
//
// Arrays and maps of more than Limits.MaxElements elements (ErrTooManyElements) and keys longer
// than Limits.MaxKeyLen (ErrKeyTooLong) are refused too, as UnmarshalCBOR would refuse them.
//
// The limits are DefaultLimits unless opts say otherwise (WithLimits): a tree decoded with
// raised limits re-encodes with the same options. MaxCBORSize and MaxJSONSize bound decoding
// only.
func MarshalCBOR(v any, opts ...Option) ([]byte, error) {
	pooled := getEncodeBuf()
	buf, err := appendCBOR(*pooled, v, opts)
	out := exactCopy(buf, err)
	putEncodeBuf(pooled, buf)
	return out, finished(err)
}

// AppendCBOR appends the canonical DAG-CBOR encoding of v to dst and returns the extended slice.
// It accepts and refuses the same values as MarshalCBOR, with the same options; on error it
// returns dst unchanged in length (bytes past len(dst) may have been written).
func AppendCBOR(dst []byte, v any, opts ...Option) ([]byte, error) {
	out, err := appendCBOR(dst, v, opts)
	if err != nil {
		return dst, finished(err)
	}
	return out, nil
}

// appendCBOR is AppendCBOR without the error's finishing: a Go struct through atcore's typed
// encoder when it can (see isGoStruct), anything else, and every error, through the generic
// walker.
func appendCBOR(dst []byte, v any, opts []Option) ([]byte, error) {
	if isGoStruct(v) {
		e := typedEncoder{cborEncoder: newCBOREncoder(opts), generic: true}
		if out, err := e.top(dst, v); err == nil {
			return out, nil
		}
	}
	return cborGeneric(dst, v, opts)
}

// cborGeneric appends v through the generic walker alone, Go values converted on the way
// (govalue.go): the reference for every error, and what the tests hold the typed encoder to.
func cborGeneric(dst []byte, v any, opts []Option) ([]byte, error) {
	e := newCBOREncoder(opts)
	return e.value(dst, v, 1)
}

// isGoStruct reports whether v is a Go struct, or a non-nil pointer to one, that is none of the
// generic types (Link, Blob, cid.Cid). MarshalCBOR, AppendCBOR and RecordCID write such a value
// with atcore's typed encoder (MarshalCBORStruct's), Validate and ValidateRecord check it with it
// (typedValid), MarshalJSON and AppendJSON write it with the JSON one
// (MarshalJSONStruct's): they write each field from the plan of its type instead of converting
// the struct into a map first, four to five times faster on the post (BenchmarkGoValue), and write
// the same bytes and accept the same structs as the generic walker
// (TestMarshalCBORStructProperty, TestGoValueErrors). The typed encoders run in their generic
// mode, which refuses toarray structs as the generic entry points do. When they refuse anything,
// the generic walker runs after all, for the error these functions document: the first error met
// may differ between the two.
func isGoStruct(v any) bool {
	if isGeneric(v) {
		return false
	}
	t := reflect.TypeOf(v)
	if t == nil {
		return false
	}
	if t.Kind() == reflect.Pointer {
		if reflect.ValueOf(v).IsNil() {
			return false
		}
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

// cborEncoder is the state of one encode.
type cborEncoder struct {
	encodeLimits
}

// newCBOREncoder returns the encoder for opts, without allocating when there are none.
func newCBOREncoder(opts []Option) cborEncoder {
	if len(opts) == 0 {
		return cborDefaultEncoder
	}
	return cborEncoder{newEncodeLimits(limitsOf(opts))}
}

// cborDefaultEncoder encodes with the default limits, for the cbor.Marshaler methods.
var cborDefaultEncoder = cborEncoder{newEncodeLimits(DefaultLimits())}

// value appends v at nesting depth depth (the top-level value is depth 1).
func (e *cborEncoder) value(dst []byte, v any, depth int) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, cborNull), nil
	case bool:
		if x {
			return append(dst, cborTrue), nil
		}
		return append(dst, cborFalse), nil
	case string:
		return cborAppendText(dst, x)
	case int64:
		if e.unsafeInt(x) {
			return dst, errUnsafeInteger(x)
		}
		return cborAppendInt(dst, x), nil
	case int:
		if e.unsafeInt(int64(x)) {
			return dst, errUnsafeInteger(int64(x))
		}
		return cborAppendInt(dst, int64(x)), nil
	case map[string]any:
		if x == nil {
			return append(dst, cborNull), nil // as a nil Go map anywhere (see MarshalCBOR)
		}
		return e.encodeMap(dst, x, depth)
	case []any:
		if x == nil {
			return append(dst, cborNull), nil
		}
		return e.encodeArray(dst, x, depth)
	case Link:
		return cborAppendLink(dst, cid.Cid(x), e.maxCIDLen)
	case Bytes:
		return append(cborAppendHead(dst, cborMajorBytes, uint64(len(x))), x...), nil
	case Blob:
		return e.blob(dst, &x, depth)
	case *Blob:
		if x != nil {
			return e.blob(dst, x, depth)
		}
	case []byte:
		return append(cborAppendHead(dst, cborMajorBytes, uint64(len(x))), x...), nil
	case cid.Cid:
		return cborAppendLink(dst, x, e.maxCIDLen)
	}
	g, err := goValue(v, goAt{depth, e.maxDepth}) // a Go value other than the generic types: see govalue.go
	if err != nil {
		return dst, err
	}
	return e.value(dst, g, depth)
}

func (e *cborEncoder) encodeArray(dst []byte, a []any, depth int) ([]byte, error) {
	if err := e.enter(arrayID(a), len(a), "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(a)); err != nil {
		return dst, err
	}
	dst = cborAppendHead(dst, cborMajorArray, uint64(len(a)))
	var err error
	for i, v := range a {
		if dst, err = e.value(dst, v, depth+1); err != nil {
			return dst, atIndex(err, i)
		}
	}
	e.leave(arrayID(a), depth)
	return dst, nil
}

func (e *cborEncoder) encodeMap(dst []byte, m map[string]any, depth int) ([]byte, error) {
	if err := e.enter(mapID(m), len(m), "entries", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(m)); err != nil {
		return dst, err
	}
	// The entries are sorted in an array on this frame's stack; only maps larger than
	// records' usual ones need pooled space (encode_sort.go).
	var stack [maxStackEntries]mapEntry
	entries := stack[:0]
	var order []sortItem
	if len(m) > maxStackEntries {
		sc := getEntryScratch(len(m))
		defer putEntryScratch(sc, len(m))
		entries, order = sc.entries[:0], sc.order[:0]
	}
	entries, shape := collectMapEntries(entries, m)
	if shape.hasLink || shape.hasBytes || shape.hasType {
		if err := shape.check(m, e.maxCIDLen); err != nil {
			return dst, err
		}
	}
	if len(entries) <= maxStackEntries {
		insertionSortCBOR(entries)
		order = nil
	} else {
		order = sortLargeEntries(entries, order, true)
	}
	dst = cborAppendHead(dst, cborMajorMap, uint64(len(entries)))
	var err error
	for j := range entries {
		ent := &entries[j]
		if order != nil {
			ent = &entries[order[j].i]
		}
		if err := checkKey(ent.key, e.maxKeyLen); err != nil {
			return dst, err
		}
		dst = append(cborAppendHead(dst, cborMajorText, uint64(len(ent.key))), ent.key...)
		if dst, err = e.value(dst, ent.value, depth+1); err != nil {
			return dst, atKey(err, ent.key)
		}
	}
	e.leave(mapID(m), depth)
	return dst, nil
}

// blob writes a Blob as the blob map of DECISIONS rule 13, or in the legacy {cid, mimeType}
// form it was read from.
func (e *cborEncoder) blob(dst []byte, b *Blob, depth int) ([]byte, error) {
	if depth > e.maxDepth {
		return dst, e.errTooDeep()
	}
	if err := checkBlob(b, e.maxCIDLen); err != nil {
		return dst, err
	}
	if !b.Legacy && e.unsafeInt(b.Size) {
		return dst, errUnsafeInteger(b.Size).atKey("size")
	}
	if err := e.encodeLimits.blob(b); err != nil {
		return dst, err
	}
	if b.Legacy {
		// Key order: "cid" (3 bytes) before "mimeType" (8).
		s := b.Ref.String()
		dst = append(dst, cborMajorMap|2)
		dst = append(dst, cborKeyCID...)
		dst = cborAppendHead(dst, cborMajorText, uint64(len(s)))
		dst = append(dst, s...)
	} else {
		// Key order: ref (3), size (4), $type (5), mimeType (8).
		dst = append(dst, cborMajorMap|4)
		dst = append(dst, cborKeyRef...)
		var err error
		if dst, err = cborAppendLink(dst, cid.Cid(b.Ref), e.maxCIDLen); err != nil {
			return dst, atKey(err, "ref")
		}
		dst = append(dst, cborKeySize...)
		dst = cborAppendHead(dst, cborMajorUint, uint64(b.Size))
		dst = append(dst, cborKeyType...)
	}
	dst = append(dst, cborKeyMimeType...)
	dst = cborAppendHead(dst, cborMajorText, uint64(len(b.MimeType)))
	return append(dst, b.MimeType...), nil
}
