package datamodel

import (
	"github.com/atcore/atcore/internal/utf8v"
	cid "github.com/ipfs/go-cid"
)

// Validate checks that v is a value of the abstract data model (https://atproto.com/specs/data-model; DECISIONS
// rules 10–14), so that MarshalCBOR and MarshalJSON both accept it and the decoders read it back
// as the same value. It accepts every value UnmarshalCBOR and UnmarshalJSON return.
//
// It refuses: floats (ErrFloat); unsigned integers above math.MaxInt64 (ErrIntegerRange); strings
// and map keys that are not valid UTF-8 (ErrInvalidUTF8); undefined, CIDv0 or over-long links
// (ErrInvalidCID); a "$type" that is not a non-empty string, at any depth (ErrType); a Blob with
// an empty MimeType, an undefined Ref or a negative Size, or a map whose $type is "blob" without
// exactly the blob shape (ErrBlob); a map with a "$link" or "$bytes" key, which atproto JSON
// would read back as a link or bytes (ErrLink, ErrBytes); Go types outside the data model
// (ErrUnsupported); and values beyond the limits (MaxDepth, MaxElements, MaxKeyLen, MaxCIDLen;
// defaults unless opts say otherwise). A Blob counts as one level of nesting, as it is a map in CBOR.
//
// v may hold Go slices, maps, pointers and structs of data-model values, as MarshalCBOR
// describes: they are checked as the equal generic tree, with the same errors. A Go struct is
// checked as MarshalCBOR writes one, field by field, without converting it into maps first.
//
// The error is an *Error with Offset -1 and the JSON Pointer of the first bad value met, walking
// maps in sorted key order.
func Validate(v any, opts ...Option) error {
	if isGoStruct(v) {
		if valid, _ := typedValid(v, opts); valid {
			return nil
		}
	}
	return validateGeneric(v, opts)
}

// validateGeneric is Validate by the generic walk alone, Go values converted on the way
// (govalue.go): the reference for every error, and what the tests hold typedValid to.
func validateGeneric(v any, opts []Option) error {
	w := validator{limits: limitsOf(opts)}
	w.left = w.limits.MaxValues - 1
	return finished(w.value(v, 1))
}

// ValidateRecord is Validate for a record: the top-level value must also be an object
// (ErrNotRecord): a map[string]any, or a Go struct, non-nil pointer to one, or map with string
// keys (see MarshalCBOR), as records are objects (https://atproto.com/specs/data-model, "$type …
// specifies their Lexicon schema"). A map shaped as a blob is no record either, as its bytes
// decode to a Blob ("the top-level data object must not have the structure of a compound data
// type, like blob", https://atproto.com/specs/lexicon#blob).
func ValidateRecord(v any, opts ...Option) error {
	if isGoStruct(v) {
		if valid, isMap := typedValid(v, opts); valid && isMap {
			return nil
		}
	}
	m, ok := recordMap(v, limitsOf(opts).MaxDepth)
	if !ok {
		return errNotRecord(v)
	}
	if err := validateGeneric(m, opts); err != nil {
		return err
	}
	if b, isBlob := mapIsBlob(m); isBlob {
		return errNotRecord(b)
	}
	return nil
}

// mapIsBlob returns the Blob a valid map m stands for, if it is shaped as one (rule 13): four
// entries with "$type" "blob", or the legacy {cid, mimeType}. Its values may be Go values.
func mapIsBlob(m map[string]any) (Blob, bool) {
	switch len(m) {
	case 4:
		if t, _ := typeString(m["$type"]); t == "blob" {
			return Blob{}, true // valid, so a blob: its fields are not needed to refuse it
		}
	case 2:
		c, _ := typeString(m["cid"])
		mime, _ := typeString(m["mimeType"])
		return legacyBlob(c, mime)
	}
	return Blob{}, false
}

// cborIsBlob reports whether buf, a valid DAG-CBOR map as the encoders write it, decodes to a
// Blob: a map of four whose "$type" is "blob", or the legacy {cid, mimeType} (rule 13). Other
// maps are told apart by their first byte or their first key, without a decode.
func cborIsBlob(buf []byte) bool {
	switch {
	case len(buf) > 0 && buf[0] == 0xa4:
		t, err := recordTypeCBOR(buf)
		return err == nil && string(t) == "blob"
	case len(buf) > 4 && string(buf[:5]) == "\xa2\x63cid":
		v, err := UnmarshalCBOR(buf)
		_, isBlob := v.(Blob)
		return err == nil && isBlob
	}
	return false
}

// typedValid reports whether the typed CBOR encoder accepts v, a Go struct (see isGoStruct), and
// whether it writes a map: a struct type with a marshaling method of its own is text or bytes,
// not a record. The typed encoder accepts exactly what the generic walker does, which is what
// Validate accepts (TestEncodeProperty, TestGoValueErrors), without converting the struct into
// maps first: on the post, 0 allocations instead of 76 and about a fifth of the time
// (BenchmarkGoValue). The bytes are written to a pooled buffer and dropped; when the encoder
// refuses v, the generic walk runs for the error Validate documents.
func typedValid(v any, opts []Option) (valid, isMap bool) {
	e := typedEncoder{cborEncoder: newCBOREncoder(opts), generic: true}
	pooled := getEncodeBuf()
	buf, err := e.top(*pooled, v)
	isMap = err == nil && len(buf) > 0 && buf[0]&0xe0 == cborMajorMap && !cborIsBlob(buf)
	putEncodeBuf(pooled, buf)
	return err == nil, isMap
}

type validator struct {
	limits Limits
	left   int // values the tree may still hold (Limits.MaxValues)
	// roomMade is set once the walk has made room on the stack for a deep value (stackroom.go).
	roomMade bool
}

// room makes room on the stack for the levels below a container at depth, if it is at
// stackRoomDepth and the walk has not yet, once per walk.
func (w *validator) room(depth int) {
	if depth == stackRoomDepth && !w.roomMade {
		w.roomMade = true
		stackRoom(stackRoomDepth, w.limits.MaxDepth, validateLevelStack)
	}
}

// take counts n values against Limits.MaxValues.
func (w *validator) take(n int) error {
	if w.left -= n; w.left < 0 {
		return errTooManyValues(-1, w.limits.MaxValues)
	}
	return nil
}

func (w *validator) tooDeep() *Error {
	return valueError(ErrTooDeep, overLimit(-1, "", w.limits.MaxDepth))
}

func (w *validator) value(v any, depth int) error {
	switch x := v.(type) {
	case nil, bool, Bytes, []byte:
		return nil
	case int64:
		return asError(checkSafeInt(x, &w.limits))
	case int:
		return asError(checkSafeInt(int64(x), &w.limits))
	case string:
		if !utf8v.ValidString(x) {
			return valueError(ErrInvalidUTF8, quoteDetail(x))
		}
		return nil
	case Link:
		return asError(checkLink(cid.Cid(x), w.limits.MaxCIDLen))
	case cid.Cid:
		return asError(checkLink(x, w.limits.MaxCIDLen))
	case Blob:
		if depth > w.limits.MaxDepth {
			return w.tooDeep()
		}
		if err := w.blob(&x); err != nil {
			return err
		}
		if err := blobLimits(&x, w.limits.MaxElements, w.limits.MaxKeyLen); err != nil {
			return err
		}
		return w.take(blobValues(&x))
	case *Blob:
		if x == nil {
			break // null (goValue)
		}
		if depth > w.limits.MaxDepth {
			return w.tooDeep()
		}
		if err := w.blob(x); err != nil {
			return err
		}
		if err := blobLimits(x, w.limits.MaxElements, w.limits.MaxKeyLen); err != nil {
			return err
		}
		return w.take(blobValues(x))
	case []any:
		if x == nil {
			return nil // null, as the encoders write a nil slice
		}
		if depth > w.limits.MaxDepth {
			return w.tooDeep()
		}
		if len(x) > w.limits.MaxElements {
			return errTooManyElements(len(x), "elements", w.limits.MaxElements)
		}
		if err := w.take(len(x)); err != nil {
			return err
		}
		w.room(depth)
		for i, e := range x {
			if err := w.value(e, depth+1); err != nil {
				return atIndex(err, i)
			}
		}
		return nil
	case map[string]any:
		if x == nil {
			return nil // null, as the encoders write a nil map
		}
		return w.object(x, depth)
	}
	g, err := goValue(v, goAt{depth, w.limits.MaxDepth}) // a Go value other than the generic types: see govalue.go
	if err != nil {
		return err
	}
	return w.value(g, depth)
}

// blob checks a Blob value as the encoders do: checkBlob, and its size under WithSafeIntegers.
func (w *validator) blob(b *Blob) error {
	if err := checkBlob(b, w.limits.MaxCIDLen); err != nil {
		return err
	}
	if !b.Legacy {
		if err := checkSafeInt(b.Size, &w.limits); err != nil {
			return err.atKey("size")
		}
	}
	return nil
}

// errTooManyElements is the error for an array or map of n elements (what) beyond the limit,
// from Validate and the encoders alike (DECISIONS rule 14).
func errTooManyElements(n int, what string, limit int) *Error {
	return valueError(ErrTooManyElements, overLimit(n, what, limit))
}

func (w *validator) object(m map[string]any, depth int) error {
	if depth > w.limits.MaxDepth {
		return w.tooDeep()
	}
	if len(m) > w.limits.MaxElements {
		return errTooManyElements(len(m), "entries", w.limits.MaxElements)
	}
	if err := w.take(len(m)); err != nil {
		return err
	}
	w.room(depth)
	// Sorted keys make the reported error the same on every run.
	var stack [maxStackKeys]string
	keys, reserved := sortedKeys(&stack, m)
	if reserved {
		if err := checkMapShape(m, w.limits.MaxCIDLen); err != nil {
			return err
		}
	}
	for _, k := range keys {
		if err := checkKey(k, w.limits.MaxKeyLen); err != nil {
			return err
		}
		if err := w.value(m[k], depth+1); err != nil {
			return atKey(err, k)
		}
	}
	return nil
}
