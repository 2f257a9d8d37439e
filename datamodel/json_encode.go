package datamodel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	cid "github.com/ipfs/go-cid"
)

// MarshalJSON returns the atproto JSON encoding of v (spec/data-model.txt, "JSON
// Representation"), compact, with the keys of every object sorted bytewise so that the output is
// stable.
//
// v is a tree of the package's Go types, the same that MarshalCBOR accepts: nil, bool, any Go
// integer type (within int64), string, Bytes or []byte ({"$bytes": …}, standard base64 without
// padding), Link or cid.Cid ({"$link": "b…"}), []any, map[string]any, Blob or *Blob
// ({"$type":"blob","mimeType":…,"ref":{"$link":…},"size":…}, or {"cid":…,"mimeType":…} for a
// legacy Blob). It refuses what MarshalCBOR refuses (floats, integers beyond int64, invalid UTF-8,
// undefined or CIDv0 links, a bad $type, malformed blobs, other Go types, nesting deeper than
// DefaultMaxDepth) and also a map with a "$link" or "$bytes" key, which JSON could not tell apart
// from a link or bytes (ErrLink, ErrBytes). Errors are *Error values whose Path names the value.
func MarshalJSON(v any) ([]byte, error) {
	return jsonMarshal(v, "", "")
}

// MarshalJSONIndent is like MarshalJSON but puts each array element and object member on a new
// line that starts with prefix followed by one copy of indent per nesting level, as
// encoding/json.MarshalIndent does.
func MarshalJSONIndent(v any, prefix, indent string) ([]byte, error) {
	return jsonMarshal(v, prefix, indent)
}

// AppendJSON appends the compact atproto JSON encoding of v to dst, as MarshalJSON writes it. On
// error it returns dst unchanged in length.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	var keys [jsonStackKeys]string
	e := jsonEncoder{buf: dst, keys: keys[:0]}
	if err := e.value(v, 1); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// jsonStackKeys is the size of the stack array that holds the keys being sorted for typical
// records without allocating.
const jsonStackKeys = 32

// jsonBufPool holds the growing buffers of MarshalJSON, so that a steady stream of encodes
// allocates only its exact-size results; jsonMaxPooledBuf keeps one huge encode from pinning its
// buffer in the pool.
var jsonBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const jsonMaxPooledBuf = 64 << 10

func jsonMarshal(v any, prefix, indent string) ([]byte, error) {
	pooled := jsonBufPool.Get().(*[]byte)
	var keys [jsonStackKeys]string
	e := jsonEncoder{buf: (*pooled)[:0], keys: keys[:0], prefix: prefix, indent: indent,
		pretty: prefix != "" || indent != ""}
	err := e.value(v, 1)
	var out []byte
	if err == nil {
		out = make([]byte, len(e.buf))
		copy(out, e.buf)
	}
	if cap(e.buf) <= jsonMaxPooledBuf {
		*pooled = e.buf[:0]
	}
	jsonBufPool.Put(pooled)
	return out, err
}

// jsonEncoder holds the output and scratch space of one encode.
type jsonEncoder struct {
	buf []byte
	// keys is a stack of map keys being sorted: each map appends its keys, sorts its segment and
	// truncates back, so nested maps share one slice.
	keys []string

	pretty         bool
	prefix, indent string
	level          int // open containers, for indentation
}

func jsonEncodeError(sentinel error, detail string) *Error {
	return &Error{Err: sentinel, Offset: -1, Detail: detail}
}

// value appends v, which sits at nesting depth depth (the top-level value is depth 1).
func (e *jsonEncoder) value(v any, depth int) error {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case string:
		return e.string(x)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case map[string]any:
		return e.object(x, depth)
	case []any:
		return e.array(x, depth)
	case Link:
		return e.link(cid.Cid(x))
	case Bytes:
		e.bytes(x)
	case Blob:
		return e.blob(&x, depth)
	case *Blob:
		if x == nil {
			return jsonEncodeError(ErrUnsupported, "nil *datamodel.Blob")
		}
		return e.blob(x, depth)
	case []byte:
		e.bytes(x)
	case cid.Cid:
		return e.link(x)
	case int8:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int16:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case uint:
		return e.uint(uint64(x))
	case uint8:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint16:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint32:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint64:
		return e.uint(x)
	case float32, float64:
		// The data model has no floats (spec/data-model.txt, "Why No Floats?").
		return jsonEncodeError(ErrFloat, fmt.Sprintf("%T %v", v, v))
	default:
		return jsonEncodeError(ErrUnsupported, fmt.Sprintf("Go type %T", v))
	}
	return nil
}

func (e *jsonEncoder) uint(n uint64) error {
	if n > math.MaxInt64 {
		return jsonEncodeError(ErrIntegerRange, strconv.FormatUint(n, 10))
	}
	e.buf = strconv.AppendUint(e.buf, n, 10)
	return nil
}

func jsonErrTooDeep() *Error {
	return jsonEncodeError(ErrTooDeep, "deeper than "+strconv.Itoa(DefaultMaxDepth)+" levels")
}

// open, member, close and newline write the punctuation of arrays and objects, with indentation
// when pretty.
func (e *jsonEncoder) open(c byte) {
	e.buf = append(e.buf, c)
	e.level++
}

func (e *jsonEncoder) newline() {
	e.buf = append(e.buf, '\n')
	e.buf = append(e.buf, e.prefix...)
	for range e.level {
		e.buf = append(e.buf, e.indent...)
	}
}

// element starts the i-th element of an array or object.
func (e *jsonEncoder) element(i int) {
	if i > 0 {
		e.buf = append(e.buf, ',')
	}
	if e.pretty {
		e.newline()
	}
}

// key starts the i-th member of an object; key is known to be valid UTF-8.
func (e *jsonEncoder) key(i int, key string) {
	e.element(i)
	e.buf = jsonAppendQuoted(e.buf, key)
	if e.pretty {
		e.buf = append(e.buf, ':', ' ')
	} else {
		e.buf = append(e.buf, ':')
	}
}

func (e *jsonEncoder) close(c byte, n int) {
	e.level--
	if e.pretty && n > 0 {
		e.newline()
	}
	e.buf = append(e.buf, c)
}

func (e *jsonEncoder) array(a []any, depth int) error {
	if depth > DefaultMaxDepth {
		return jsonErrTooDeep()
	}
	e.open('[')
	for i, v := range a {
		e.element(i)
		if err := e.value(v, depth+1); err != nil {
			return jsonWithIndex(err, i)
		}
	}
	e.close(']', len(a))
	return nil
}

func (e *jsonEncoder) object(m map[string]any, depth int) error {
	if depth > DefaultMaxDepth {
		return jsonErrTooDeep()
	}
	if err := validateMapShape(m); err != nil {
		return err
	}
	start := len(e.keys)
	for k := range m {
		if !utf8.ValidString(k) {
			e.keys = e.keys[:start]
			return jsonWithKey(jsonEncodeError(ErrInvalidUTF8, "map key "+strconv.Quote(k)), k)
		}
		e.keys = append(e.keys, k)
	}
	jsonSortKeys(e.keys[start:])
	e.open('{')
	// e.keys may be reallocated by nested maps: index it afresh on every iteration.
	for i := 0; i < len(m); i++ {
		k := e.keys[start+i]
		e.key(i, k)
		if err := e.value(m[k], depth+1); err != nil {
			e.keys = e.keys[:start]
			return jsonWithKey(err, k)
		}
	}
	e.keys = e.keys[:start]
	e.close('}', len(m))
	return nil
}

// jsonSortKeys sorts keys bytewise. Records have small maps, where an insertion sort beats the
// general sort.
func jsonSortKeys(keys []string) {
	if len(keys) > 12 {
		slices.Sort(keys)
		return
	}
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && k < keys[j-1]; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// bytes writes {"$bytes": "<base64>"}, without padding (DECISIONS rule 10).
func (e *jsonEncoder) bytes(b []byte) {
	e.open('{')
	e.key(0, "$bytes")
	e.buf = append(e.buf, '"')
	e.buf = jsonBase64.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
	e.close('}', 1)
}

// link writes {"$link": "b…"}.
func (e *jsonEncoder) link(c cid.Cid) error {
	if err := validateCID(c); err != nil {
		return err
	}
	e.open('{')
	e.key(0, "$link")
	e.buf = jsonAppendCID(e.buf, c)
	e.close('}', 1)
	return nil
}

// jsonAppendCID appends the quoted base32 string of a CIDv1: "b" and the binary CID in lower-case
// RFC 4648 base32 without padding, the blessed string form (DECISIONS rule 12), written straight
// into dst instead of through go-cid's allocating String.
func jsonAppendCID(dst []byte, c cid.Cid) []byte {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	b := c.KeyString()
	dst = append(dst, '"', 'b')
	var acc uint64 // bits not yet written, in the low nbits
	nbits := 0
	for i := 0; i < len(b); i++ {
		acc = acc<<8 | uint64(b[i])
		nbits += 8
		for nbits >= 5 {
			nbits -= 5
			dst = append(dst, alphabet[acc>>nbits&31])
		}
	}
	if nbits > 0 {
		dst = append(dst, alphabet[acc<<(5-nbits)&31])
	}
	return append(dst, '"')
}

// blob writes a Blob in the form of DECISIONS rule 13, or in the legacy form it was read from.
func (e *jsonEncoder) blob(b *Blob, depth int) error {
	if depth > DefaultMaxDepth {
		return jsonErrTooDeep()
	}
	if err := validateBlob(b); err != nil {
		return err
	}
	e.open('{')
	if b.Legacy {
		e.key(0, "cid")
		e.buf = jsonAppendCID(e.buf, cid.Cid(b.Ref))
		e.key(1, "mimeType")
		e.buf = jsonAppendQuoted(e.buf, b.MimeType)
	} else {
		e.key(0, "$type")
		e.buf = append(e.buf, `"blob"`...)
		e.key(1, "mimeType")
		e.buf = jsonAppendQuoted(e.buf, b.MimeType)
		e.key(2, "ref")
		if err := e.link(cid.Cid(b.Ref)); err != nil {
			return jsonWithKey(err, "ref")
		}
		e.key(3, "size")
		e.buf = strconv.AppendInt(e.buf, b.Size, 10)
	}
	e.close('}', 2)
	return nil
}

// string writes a string, refusing invalid UTF-8.
func (e *jsonEncoder) string(s string) error {
	if !utf8.ValidString(s) {
		return jsonEncodeError(ErrInvalidUTF8, strconv.Quote(s))
	}
	e.buf = jsonAppendQuoted(e.buf, s)
	return nil
}

// jsonSafe marks the ASCII bytes that are written as themselves inside a JSON string.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jsonAppendQuoted appends s, valid UTF-8, as a JSON string: quotes, backslashes and control
// characters escaped (RFC 8259 §7), everything else, including non-ASCII, as it is.
func jsonAppendQuoted(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || jsonSafe[c] {
			continue
		}
		dst = append(dst, s[last:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		last = i + 1
	}
	dst = append(dst, s[last:]...)
	return append(dst, '"')
}
