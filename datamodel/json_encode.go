package datamodel

import (
	"strconv"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/internal/utf8v"
	cid "github.com/ipfs/go-cid"
)

// MarshalJSON returns the atproto JSON encoding of v (https://atproto.com/specs/data-model,
// "JSON Representation"), compact, with the keys of every object sorted bytewise so that the
// output is stable.
//
// v is a tree of the package's Go types, the same that MarshalCBOR accepts (Go slices, maps,
// pointers and structs of data-model values included, as MarshalCBOR describes): nil, bool, any Go
// integer type (within int64), string, Bytes or []byte ({"$bytes": …}, standard base64 without
// padding), Link or cid.Cid ({"$link": "b…"}), []any, map[string]any, Blob or *Blob
// ({"$type":"blob","mimeType":…,"ref":{"$link":…},"size":…}, or {"cid":…,"mimeType":…} for a
// legacy Blob). It refuses what MarshalCBOR refuses (floats, integers beyond int64, invalid UTF-8,
// undefined or CIDv0 links or links longer than Limits.MaxCIDLen, a bad $type, malformed blobs,
// a map with a "$link" or "$bytes" key, which JSON could not tell apart from a link or bytes
// (ErrLink, ErrBytes), other Go types, nesting deeper than Limits.MaxDepth). Errors are *Error
// values whose Path names the value. Like MarshalCBOR, it refuses what the decoders would refuse
// with the same limits: nesting deeper than MaxDepth (ErrTooDeep), arrays and maps of more than
// MaxElements elements (ErrTooManyElements), keys longer than MaxKeyLen (ErrKeyTooLong). As with
// MarshalCBOR, a struct at the top is written by the typed encoder (MarshalJSONStruct's), the
// same bytes without building the equal tree first.
//
// The limits are DefaultLimits unless opts say otherwise (WithLimits), as for MarshalCBOR: a tree
// decoded with raised limits re-encodes with the same options.
func MarshalJSON(v any, opts ...Option) ([]byte, error) {
	return jsonMarshal(v, false, "", "", opts)
}

// MarshalJSONIndent is like MarshalJSON but puts each array element and object member on a new
// line that starts with prefix followed by one copy of indent per nesting level, as
// encoding/json.MarshalIndent does, even when prefix and indent are both empty.
func MarshalJSONIndent(v any, prefix, indent string, opts ...Option) ([]byte, error) {
	return jsonMarshal(v, true, prefix, indent, opts)
}

// AppendJSON appends the compact atproto JSON encoding of v to dst, as MarshalJSON writes it. On
// error it returns dst unchanged in length. It takes the same options.
func AppendJSON(dst []byte, v any, opts ...Option) ([]byte, error) {
	if isGoStruct(v) {
		// As appendCBOR: the typed encoder for a struct, the generic walker for every error.
		e := typedJSONEncoder{jsonEncoder: newJSONEncoder(opts), generic: true}
		if out, err := e.top(dst, v); err == nil {
			return out, nil
		}
	}
	e := newJSONEncoder(opts)
	out, err := e.value(dst, v, 1)
	if err != nil {
		return dst, finished(err)
	}
	return out, nil
}

// jsonMarshal encodes into a pooled buffer (see getEncodeBuf) and returns an exact-size copy,
// laid out by prefix and indent if pretty.
func jsonMarshal(v any, pretty bool, prefix, indent string, opts []Option) ([]byte, error) {
	if !pretty && isGoStruct(v) {
		// As MarshalCBOR (appendCBOR): the typed encoder for a struct, written compact, and the
		// generic walker for every error.
		e := typedJSONEncoder{jsonEncoder: newJSONEncoder(opts), generic: true}
		pooled := getEncodeBuf()
		buf, err := e.top(*pooled, v)
		var out []byte
		if err == nil {
			out = exactCopy(buf, nil)
		}
		putEncodeBuf(pooled, buf)
		if err == nil {
			return out, nil
		}
	}
	e := newJSONEncoder(opts)
	e.prefix, e.indent, e.pretty = prefix, indent, pretty
	pooled := getEncodeBuf()
	buf, err := e.value(*pooled, v, 1)
	out := exactCopy(buf, err)
	putEncodeBuf(pooled, buf)
	return out, finished(err)
}

// jsonEncoder holds the layout settings of one encode; the output travels through the methods as
// dst, as with append.
type jsonEncoder struct {
	pretty         bool
	prefix, indent string
	level          int // open containers, for indentation
	encodeLimits
}

// newJSONEncoder returns the encoder for opts, without allocating when there are none.
func newJSONEncoder(opts []Option) jsonEncoder {
	if len(opts) == 0 {
		return jsonDefaultEncoder
	}
	return jsonEncoder{encodeLimits: newEncodeLimits(limitsOf(opts))}
}

// jsonDefaultEncoder is the encoder without options, made once.
var jsonDefaultEncoder = jsonEncoder{encodeLimits: newEncodeLimits(DefaultLimits())}

// value appends v, which sits at nesting depth depth (the top-level value is depth 1).
func (e *jsonEncoder) value(dst []byte, v any, depth int) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return jsonString(dst, x)
	case int64:
		if e.unsafeInt(x) {
			return dst, errUnsafeInteger(x)
		}
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		if e.unsafeInt(int64(x)) {
			return dst, errUnsafeInteger(int64(x))
		}
		return strconv.AppendInt(dst, int64(x), 10), nil
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), nil // as a nil Go map anywhere (see MarshalCBOR)
		}
		return e.object(dst, x, depth)
	case []any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return e.array(dst, x, depth)
	case Link:
		return e.link(dst, cid.Cid(x))
	case Bytes:
		return e.bytes(dst, x), nil
	case Blob:
		return e.blob(dst, &x, depth)
	case *Blob:
		if x != nil {
			return e.blob(dst, x, depth)
		}
	case []byte:
		return e.bytes(dst, x), nil
	case cid.Cid:
		return e.link(dst, x)
	}
	g, err := goValue(v, goAt{depth, e.maxDepth}) // a Go value other than the generic types: see govalue.go
	if err != nil {
		return dst, err
	}
	return e.value(dst, g, depth)
}

// jsonString appends s as a JSON string, or refuses it if it is not valid UTF-8.
func jsonString(dst []byte, s string) ([]byte, error) {
	if out, ok := jsonAppendShort(dst, s); ok {
		return out, nil
	}
	n := jsonPlainPrefix(s)
	if n < len(s) && !utf8v.ValidString(s[n:]) { // s[:n] is ASCII
		return dst, valueError(ErrInvalidUTF8, quoteDetail(s))
	}
	return jsonAppendQuotedFrom(dst, s, n), nil
}

// open, element, key and close write the punctuation of arrays and objects, with indentation
// when pretty.
func (e *jsonEncoder) open(dst []byte, c byte) []byte {
	e.level++
	return append(dst, c)
}

func (e *jsonEncoder) newline(dst []byte) []byte {
	dst = append(dst, '\n')
	dst = append(dst, e.prefix...)
	for range e.level {
		dst = append(dst, e.indent...)
	}
	return dst
}

// element starts the i-th element of an array or object.
func (e *jsonEncoder) element(dst []byte, i int) []byte {
	if i > 0 {
		dst = append(dst, ',')
	}
	if e.pretty {
		dst = e.newline(dst)
	}
	return dst
}

// key starts the i-th member of an object; key is known to be valid UTF-8.
func (e *jsonEncoder) key(dst []byte, i int, key string) []byte {
	return e.colon(jsonAppendQuoted(e.element(dst, i), key))
}

// colon ends a member's key.
func (e *jsonEncoder) colon(dst []byte) []byte {
	if e.pretty {
		return append(dst, ':', ' ')
	}
	return append(dst, ':')
}

func (e *jsonEncoder) close(dst []byte, c byte, n int) []byte {
	e.level--
	if e.pretty && n > 0 {
		dst = e.newline(dst)
	}
	return append(dst, c)
}

func (e *jsonEncoder) array(dst []byte, a []any, depth int) ([]byte, error) {
	if err := e.enter(arrayID(a), len(a), "elements", depth); err != nil {
		return dst, err
	}
	if err := e.take(len(a)); err != nil {
		return dst, err
	}
	dst = e.open(dst, '[')
	var err error
	for i, v := range a {
		dst = e.element(dst, i)
		if dst, err = e.value(dst, v, depth+1); err != nil {
			return dst, atIndex(err, i)
		}
	}
	e.leave(arrayID(a), depth) // an encode that fails stops, so only success leaves
	return e.close(dst, ']', len(a)), nil
}

func (e *jsonEncoder) object(dst []byte, m map[string]any, depth int) ([]byte, error) {
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
		insertionSortBytewise(entries)
		order = nil
	} else {
		order = sortLargeEntries(entries, order, false)
	}
	dst = e.open(dst, '{')
	var err error
	for j := range entries {
		ent := &entries[j]
		if order != nil {
			ent = &entries[order[j].i]
		}
		dst = e.element(dst, j)
		// A key jsonAppendShort writes is ASCII, so valid UTF-8: only its length is left to check.
		if out, ok := jsonAppendShort(dst, ent.key); ok && len(ent.key) <= e.maxKeyLen {
			dst = out
		} else {
			n := jsonPlainPrefix(ent.key)
			if err := checkKeyAfter(ent.key, n, e.maxKeyLen); err != nil {
				return dst, err
			}
			dst = jsonAppendQuotedFrom(dst, ent.key, n)
		}
		dst = e.colon(dst)
		if dst, err = e.value(dst, ent.value, depth+1); err != nil {
			return dst, atKey(err, ent.key)
		}
	}
	e.leave(mapID(m), depth)
	return e.close(dst, '}', len(m)), nil
}

// bytes writes {"$bytes": "<base64>"}, without padding (DECISIONS rule 10).
func (e *jsonEncoder) bytes(dst []byte, b []byte) []byte {
	dst = e.key(e.open(dst, '{'), 0, "$bytes")
	dst = append(dst, '"')
	dst = jsonBase64.AppendEncode(dst, b)
	dst = append(dst, '"')
	return e.close(dst, '}', 1)
}

// link writes {"$link": "b…"}.
func (e *jsonEncoder) link(dst []byte, c cid.Cid) ([]byte, error) {
	if err := checkLink(c, e.maxCIDLen); err != nil {
		return dst, err
	}
	dst = e.key(e.open(dst, '{'), 0, "$link")
	dst = jsonAppendCID(dst, c)
	return e.close(dst, '}', 1), nil
}

// jsonAppendCID appends the quoted string of a CIDv1: "b" and the binary CID in lower-case
// RFC 4648 base32 without padding, the blessed string form (DECISIONS rule 12), written straight
// into dst instead of through go-cid's allocating String.
func jsonAppendCID(dst []byte, c cid.Cid) []byte {
	return append(cidutil.AppendString(append(dst, '"'), c), '"')
}

// blob writes a Blob in the form of DECISIONS rule 13, or in the legacy form it was read from.
func (e *jsonEncoder) blob(dst []byte, b *Blob, depth int) ([]byte, error) {
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
	dst = e.open(dst, '{')
	if b.Legacy {
		dst = jsonAppendCID(e.key(dst, 0, "cid"), cid.Cid(b.Ref))
		dst = jsonAppendQuoted(e.key(dst, 1, "mimeType"), b.MimeType)
	} else {
		dst = append(e.key(dst, 0, "$type"), `"blob"`...)
		dst = jsonAppendQuoted(e.key(dst, 1, "mimeType"), b.MimeType)
		var err error
		if dst, err = e.link(e.key(dst, 2, "ref"), cid.Cid(b.Ref)); err != nil {
			return dst, atKey(err, "ref")
		}
		dst = strconv.AppendInt(e.key(dst, 3, "size"), b.Size, 10)
	}
	return e.close(dst, '}', 2), nil
}
