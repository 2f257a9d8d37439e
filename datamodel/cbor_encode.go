package datamodel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	cid "github.com/ipfs/go-cid"
)

// CBOR major types (RFC 8949 §3.1), pre-shifted into the high three bits of the initial byte.
const (
	cborMajorUint   byte = 0 << 5
	cborMajorNegInt byte = 1 << 5
	cborMajorBytes  byte = 2 << 5
	cborMajorText   byte = 3 << 5
	cborMajorArray  byte = 4 << 5
	cborMajorMap    byte = 5 << 5
	cborMajorTag    byte = 6 << 5
	cborMajorSimple byte = 7 << 5
)

// The only simple values and the only tag DAG-CBOR allows (DECISIONS rule 9).
const (
	cborFalse byte = 0xf4
	cborTrue  byte = 0xf5
	cborNull  byte = 0xf6

	cborTagCID = 42
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
// Arrays and maps of more than Limits.MaxElements elements (ErrTooManyElements) and keys longer
// than Limits.MaxKeyLen (ErrKeyTooLong) are refused too, as UnmarshalCBOR would refuse them.
//
// The limits are DefaultLimits unless opts say otherwise (WithLimits): a tree decoded with
// raised limits re-encodes with the same options. MaxCBORSize and MaxJSONSize bound decoding
// only.
func MarshalCBOR(v any, opts ...Option) ([]byte, error) {
	e := newCBOREncoder(opts)
	pooled := getEncodeBuf()
	buf, err := e.value(*pooled, v, 1)
	out := exactCopy(buf, err)
	putEncodeBuf(pooled, buf)
	return out, err
}

// AppendCBOR appends the canonical DAG-CBOR encoding of v to dst and returns the extended slice.
// It accepts and refuses the same values as MarshalCBOR, with the same options; on error it
// returns dst unchanged in length (bytes past len(dst) may have been written).
func AppendCBOR(dst []byte, v any, opts ...Option) ([]byte, error) {
	e := newCBOREncoder(opts)
	out, err := e.value(dst, v, 1)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// cborEncoder is the state of one encode.
type cborEncoder struct {
	encodeLimits
}

// encodeLimits is what both encoders (CBOR and JSON) check on the way down: the limits the
// decoders enforce, so that whatever an encoder writes reads back, and the cycle guard.
type encodeLimits struct {
	maxDepth    int
	maxCIDLen   int
	maxElements int
	maxKeyLen   int
	path        containerPath // containers deeper than DefaultMaxDepth, to catch cycles
}

func newEncodeLimits(lim Limits) encodeLimits {
	return encodeLimits{maxDepth: lim.MaxDepth, maxCIDLen: lim.MaxCIDLen, maxElements: lim.MaxElements, maxKeyLen: lim.MaxKeyLen}
}

// enter checks a container (id, with n elements or entries, at depth) before its content is
// written; leave undoes what enter recorded, once the content is written.
func (g *encodeLimits) enter(id cborContainerID, n int, what string, depth int) *Error {
	if depth <= DefaultMaxDepth && depth <= g.maxDepth && n <= g.maxElements {
		return nil // the common case, inlined at the call
	}
	return g.enterChecked(id, n, what, depth)
}

func (g *encodeLimits) enterChecked(id cborContainerID, n int, what string, depth int) *Error {
	if depth > g.maxDepth {
		return g.errTooDeep()
	}
	if n > g.maxElements {
		return errTooManyElements(n, what, g.maxElements)
	}
	if depth > DefaultMaxDepth {
		return g.path.enter(id)
	}
	return nil
}

func (g *encodeLimits) leave(id cborContainerID, depth int) {
	if depth > DefaultMaxDepth {
		g.path.leave(id)
	}
}

func (g *encodeLimits) errTooDeep() *Error {
	return valueError(ErrTooDeep, "deeper than "+strconv.Itoa(g.maxDepth)+" levels")
}

// containerPath holds the maps and arrays on the path to the current value once it is deeper
// than DefaultMaxDepth (only possible with a raised MaxDepth), so that an encoder catches a
// cyclic value when its cycle closes, rather than after recursing as deep as a huge limit allows.
type containerPath struct {
	onPath map[cborContainerID]struct{}
}

// cborContainerID identifies a map (by its pointer) or an array (by its backing store and
// length: an array that contains itself has both equal to an ancestor's).
type cborContainerID struct {
	ptr unsafe.Pointer
	len int
}

// newCBOREncoder returns the encoder for opts, without allocating when there are none.
func newCBOREncoder(opts []Option) cborEncoder {
	return cborEncoder{newEncodeLimits(limitsOf(opts))}
}

// cborDefaultEncoder encodes with the default limits, for the cbor.Marshaler methods.
var cborDefaultEncoder = cborEncoder{newEncodeLimits(DefaultLimits())}

// cborStackEntries is the size of the stack array in which a map's entries are sorted; records'
// maps are smaller, larger ones allocate.
const cborStackEntries = 16

// encodeBufPool holds the output buffers of MarshalCBOR, MarshalJSON and RecordCID, so that a
// steady stream of encodes allocates only its exact-size results.
var encodeBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// maxPooledEncodeBuf keeps one huge encode from pinning its buffer in the pool forever.
const maxPooledEncodeBuf = 64 << 10

// getEncodeBuf returns an empty pooled buffer; putEncodeBuf returns it, grown to buf, to the
// pool.
func getEncodeBuf() *[]byte { p := encodeBufPool.Get().(*[]byte); *p = (*p)[:0]; return p }

func putEncodeBuf(p *[]byte, buf []byte) {
	if cap(buf) <= maxPooledEncodeBuf {
		*p = buf[:0]
	}
	encodeBufPool.Put(p)
}

// exactCopy returns a copy of buf in one exact-size allocation (the growing happened in the
// pooled buffer), or nil if err is set.
func exactCopy(buf []byte, err error) []byte {
	if err != nil {
		return nil
	}
	out := make([]byte, len(buf))
	copy(out, buf)
	return out
}

// cborPrependKey puts the JSON Pointer token of a map key in front of err's path.
func cborPrependKey(err error, key string) error {
	if e, ok := err.(*Error); ok {
		e.Path = string(appendPointerToken(nil, key)) + e.Path
	}
	return err
}

// cborPrependIndex puts the JSON Pointer token of an array index in front of err's path.
func cborPrependIndex(err error, i int) error {
	if e, ok := err.(*Error); ok {
		e.Path = "/" + strconv.Itoa(i) + e.Path
	}
	return err
}

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
		return cborAppendInt(dst, x), nil
	case int:
		return cborAppendInt(dst, int64(x)), nil
	case map[string]any:
		return e.encodeMap(dst, x, depth)
	case []any:
		return e.encodeArray(dst, x, depth)
	case Link:
		return cborAppendLink(dst, cid.Cid(x), e.maxCIDLen)
	case Bytes:
		return append(cborAppendHead(dst, cborMajorBytes, uint64(len(x))), x...), nil
	case Blob:
		return e.blob(dst, &x, depth)
	case *Blob:
		if x == nil {
			return dst, valueError(ErrUnsupported, "nil *datamodel.Blob")
		}
		return e.blob(dst, x, depth)
	case []byte:
		return append(cborAppendHead(dst, cborMajorBytes, uint64(len(x))), x...), nil
	case cid.Cid:
		return cborAppendLink(dst, x, e.maxCIDLen)
	case float32, float64:
		// The data model has no floats (spec/data-model.txt, "Why No Floats?").
		return dst, valueError(ErrFloat, fmt.Sprintf("%T %v", v, v))
	default:
		if n, isInt, err := goInt(v); isInt { // the other Go integer types
			if err != nil {
				return dst, err
			}
			return cborAppendInt(dst, n), nil
		}
		return dst, valueError(ErrUnsupported, fmt.Sprintf("Go type %T", v))
	}
}

// enter records a container at depth > DefaultMaxDepth as on the current path, after checking
// that it is not already there (one of its own ancestors: a cycle); leave removes it once its
// content is written. An encode that fails stops there, so only success paths call leave.
func (p *containerPath) enter(id cborContainerID) *Error {
	if _, ok := p.onPath[id]; ok {
		return valueError(ErrTooDeep, "cyclic value: the tree would be infinitely deep")
	}
	if p.onPath == nil {
		p.onPath = make(map[cborContainerID]struct{})
	}
	p.onPath[id] = struct{}{}
	return nil
}

func (p *containerPath) leave(id cborContainerID) { delete(p.onPath, id) }

func cborArrayID(a []any) cborContainerID {
	return cborContainerID{unsafe.Pointer(unsafe.SliceData(a)), len(a)}
}

func cborMapID(m map[string]any) cborContainerID {
	return cborContainerID{*(*unsafe.Pointer)(unsafe.Pointer(&m)), 0}
}

func (e *cborEncoder) encodeArray(dst []byte, a []any, depth int) ([]byte, error) {
	if err := e.enter(cborArrayID(a), len(a), "elements", depth); err != nil {
		return dst, err
	}
	dst = cborAppendHead(dst, cborMajorArray, uint64(len(a)))
	var err error
	for i, v := range a {
		if dst, err = e.value(dst, v, depth+1); err != nil {
			return dst, cborPrependIndex(err, i)
		}
	}
	e.leave(cborArrayID(a), depth)
	return dst, nil
}

func (e *cborEncoder) encodeMap(dst []byte, m map[string]any, depth int) ([]byte, error) {
	if err := e.enter(cborMapID(m), len(m), "entries", depth); err != nil {
		return dst, err
	}
	// Collect the entries (not just the keys, which would cost a second lookup per value) and
	// sort them by key.
	var stackEntries [cborStackEntries]cborEntry
	entries := stackEntries[:0]
	if len(m) > cborStackEntries {
		entries = make([]cborEntry, 0, len(m))
	}
	// A key starting with '$' may make the map one the decoders refuse (DECISIONS rules 10, 11,
	// 13): only such keys are compared with the reserved ones, so that ordinary keys cost one
	// byte compare each. The checks are those of validateMapShape, in the same order, without
	// its map lookups.
	var typ any
	hasLink, hasBytes, hasType := false, false, false
	for k, v := range m {
		entries = append(entries, cborEntry{k, v})
		if k != "" && k[0] == '$' {
			switch k {
			case "$link":
				hasLink = true
			case "$bytes":
				hasBytes = true
			case "$type":
				typ, hasType = v, true
			}
		}
	}
	if hasLink || hasBytes {
		return dst, validateMapShape(m, e.maxCIDLen)
	}
	if hasType {
		if err := validateTypeValue(m, typ, e.maxCIDLen); err != nil {
			return dst, err
		}
	}
	cborSortEntries(entries)
	dst = cborAppendHead(dst, cborMajorMap, uint64(len(entries)))
	var err error
	for i := range entries {
		k := entries[i].key
		if len(k) > e.maxKeyLen {
			return dst, errKeyTooLong(k, e.maxKeyLen)
		}
		if dst, err = cborAppendText(dst, k); err != nil {
			err.(*Error).Detail = "map key " + err.(*Error).Detail
			return dst, cborPrependKey(err, k)
		}
		if dst, err = e.value(dst, entries[i].value, depth+1); err != nil {
			return dst, cborPrependKey(err, k)
		}
	}
	e.leave(cborMapID(m), depth)
	return dst, nil
}

// cborEntry is a map entry being sorted for encoding.
type cborEntry struct {
	key   string
	value any
}

// cborSortEntries sorts entries by key, length-first then bytewise (DECISIONS rule 9, the
// DAG-CBOR order). Records have small maps, where an insertion sort beats the general sort.
func cborSortEntries(entries []cborEntry) {
	if len(entries) > 12 {
		slices.SortFunc(entries, func(a, b cborEntry) int {
			if len(a.key) != len(b.key) {
				return len(a.key) - len(b.key)
			}
			return strings.Compare(a.key, b.key)
		})
		return
	}
	for i := 1; i < len(entries); i++ {
		e := entries[i]
		j := i
		for ; j > 0 && cborKeyLess(e.key, entries[j-1].key); j-- {
			entries[j] = entries[j-1]
		}
		entries[j] = e
	}
}

// cborKeyLess reports whether a sorts before b in DAG-CBOR key order.
func cborKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// cborAppendHead appends the initial byte and argument of an item in the shortest form
// (RFC 8949 §4.2.1, required by DAG-CBOR).
func cborAppendHead(dst []byte, major byte, n uint64) []byte {
	switch {
	case n < 24:
		return append(dst, major|byte(n))
	case n <= math.MaxUint8:
		return append(dst, major|24, byte(n))
	case n <= math.MaxUint16:
		return append(dst, major|25, byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		return append(dst, major|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	default:
		return append(dst, major|27, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}

func cborAppendInt(dst []byte, n int64) []byte {
	if n >= 0 {
		return cborAppendHead(dst, cborMajorUint, uint64(n))
	}
	// Major type 1 carries -1-n, which for n = MinInt64 is MaxInt64: no overflow.
	return cborAppendHead(dst, cborMajorNegInt, uint64(-1-n))
}

func cborAppendText(dst []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return dst, valueError(ErrInvalidUTF8, strconv.Quote(s))
	}
	return append(cborAppendHead(dst, cborMajorText, uint64(len(s))), s...), nil
}

// cborAppendLink appends tag 42 over a byte string holding 0x00 (the identity multibase prefix)
// and the binary CID (spec/data-model.txt, "link").
func cborAppendLink(dst []byte, c cid.Cid, maxLen int) ([]byte, error) {
	b := c.KeyString() // the binary CID, without copying
	switch {
	case len(b) == 0:
		return dst, valueError(ErrInvalidCID, "undefined CID")
	case b[0] != 1:
		// CIDv0 has no version byte (it starts 0x12 0x20); it is never valid (DECISIONS rule 12).
		return dst, valueError(ErrInvalidCID, "not a CIDv1")
	case len(b) > maxLen:
		return dst, valueError(ErrInvalidCID, "longer than "+strconv.Itoa(maxLen)+" bytes")
	}
	dst = append(dst, cborMajorTag|24, cborTagCID)
	dst = cborAppendHead(dst, cborMajorBytes, uint64(len(b)+1))
	dst = append(dst, 0)
	return append(dst, b...), nil
}

// Encoded keys of the blob forms, in DAG-CBOR key order.
const (
	cborKeyRef      = "\x63ref"
	cborKeySize     = "\x64size"
	cborKeyType     = "\x65$type\x64blob" // with its value
	cborKeyMimeType = "\x68mimeType"
	cborKeyCID      = "\x63cid"
)

// blob writes a Blob as the blob map of DECISIONS rule 13, or in the legacy {cid, mimeType}
// form it was read from.
func (e *cborEncoder) blob(dst []byte, b *Blob, depth int) ([]byte, error) {
	if depth > e.maxDepth {
		return dst, e.errTooDeep()
	}
	if b.MimeType == "" {
		return dst, valueError(ErrBlob, "empty mimeType")
	}
	if !utf8.ValidString(b.MimeType) {
		return dst, cborPrependKey(valueError(ErrInvalidUTF8, strconv.Quote(b.MimeType)), "mimeType")
	}
	if !b.Ref.Defined() {
		return dst, cborPrependKey(valueError(ErrBlob, "undefined ref"), "ref")
	}
	if b.Legacy {
		// Key order: "cid" (3 bytes) before "mimeType" (8).
		if b.Ref.CID().Version() != 1 {
			// Rule 12: CIDv0 is never valid, so the decoder never makes such a legacy Blob.
			return dst, cborPrependKey(valueError(ErrBlob, "legacy blob ref is not a CIDv1"), "cid")
		}
		s := b.Ref.String()
		dst = append(dst, cborMajorMap|2)
		dst = append(dst, cborKeyCID...)
		dst = cborAppendHead(dst, cborMajorText, uint64(len(s)))
		dst = append(dst, s...)
	} else {
		if b.Size < 0 {
			return dst, cborPrependKey(valueError(ErrBlob, "negative size"), "size")
		}
		// Key order: ref (3), size (4), $type (5), mimeType (8).
		dst = append(dst, cborMajorMap|4)
		dst = append(dst, cborKeyRef...)
		var err error
		if dst, err = cborAppendLink(dst, cid.Cid(b.Ref), e.maxCIDLen); err != nil {
			return dst, cborPrependKey(err, "ref")
		}
		dst = append(dst, cborKeySize...)
		dst = cborAppendHead(dst, cborMajorUint, uint64(b.Size))
		dst = append(dst, cborKeyType...)
	}
	dst = append(dst, cborKeyMimeType...)
	dst = cborAppendHead(dst, cborMajorText, uint64(len(b.MimeType)))
	return append(dst, b.MimeType...), nil
}
