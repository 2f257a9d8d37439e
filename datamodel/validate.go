package datamodel

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	cid "github.com/ipfs/go-cid"
)

// Validate checks that v is a value of the abstract data model (spec/data-model.txt; DECISIONS
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
// The error is an *Error with Offset -1 and the JSON Pointer of the first bad value met, walking
// maps in sorted key order.
func Validate(v any, opts ...Option) error {
	w := validator{limits: limitsOf(opts)}
	return w.value(v, 1)
}

// ValidateRecord is Validate for a record: the top-level value must also be a map
// (ErrNotRecord), as records are objects (spec/data-model.txt, "$type … specifies their Lexicon
// schema").
func ValidateRecord(v any, opts ...Option) error {
	if _, ok := v.(map[string]any); !ok {
		return &Error{Err: ErrNotRecord, Offset: -1, Detail: validateDescribe(v)}
	}
	return Validate(v, opts...)
}

func validateDescribe(v any) string {
	switch v.(type) {
	case Blob, *Blob:
		return "found a blob"
	case Link, cid.Cid:
		return "found a link"
	}
	return fmt.Sprintf("found Go type %T", v)
}

type validator struct {
	limits Limits
}

func (w *validator) tooDeep() *Error {
	return valueError(ErrTooDeep, "limit "+strconv.Itoa(w.limits.MaxDepth))
}

func (w *validator) value(v any, depth int) error {
	switch x := v.(type) {
	case nil, bool, int64, int, Bytes, []byte:
		return nil
	case string:
		if !utf8.ValidString(x) {
			return valueError(ErrInvalidUTF8, strconv.Quote(x))
		}
		return nil
	case Link:
		return validateCIDLen(cid.Cid(x), w.limits.MaxCIDLen)
	case cid.Cid:
		return validateCIDLen(x, w.limits.MaxCIDLen)
	case Blob:
		if depth > w.limits.MaxDepth {
			return w.tooDeep()
		}
		return validateBlob(&x, w.limits.MaxCIDLen)
	case *Blob:
		if x == nil {
			return valueError(ErrUnsupported, "nil *datamodel.Blob")
		}
		if depth > w.limits.MaxDepth {
			return w.tooDeep()
		}
		return validateBlob(x, w.limits.MaxCIDLen)
	case []any:
		if depth > w.limits.MaxDepth {
			return w.tooDeep()
		}
		if len(x) > w.limits.MaxElements {
			return errTooManyElements(len(x), "elements", w.limits.MaxElements)
		}
		for i, e := range x {
			if err := w.value(e, depth+1); err != nil {
				return atIndex(err, i)
			}
		}
		return nil
	case map[string]any:
		return w.object(x, depth)
	case float32, float64:
		return valueError(ErrFloat, fmt.Sprintf("%T %v", v, v))
	default:
		if _, isInt, err := goInt(v); isInt { // the other Go integer types
			return err
		}
		return valueError(ErrUnsupported, fmt.Sprintf("Go type %T", v))
	}
}

// errTooManyElements is the error for an array or map of n elements (what) beyond the limit,
// from Validate and the encoders alike (DECISIONS rule 14).
func errTooManyElements(n int, what string, limit int) *Error {
	return valueError(ErrTooManyElements, strconv.Itoa(n)+" "+what+", limit "+strconv.Itoa(limit))
}

// errKeyTooLong is the error for the map key k, longer than limit bytes (rule 14).
func errKeyTooLong(k string, limit int) error {
	return atKey(valueError(ErrKeyTooLong, strconv.Itoa(len(k))+" bytes, limit "+strconv.Itoa(limit)), k)
}

func (w *validator) object(m map[string]any, depth int) error {
	if depth > w.limits.MaxDepth {
		return w.tooDeep()
	}
	if len(m) > w.limits.MaxElements {
		return errTooManyElements(len(m), "entries", w.limits.MaxElements)
	}
	// Sorted keys make the reported error the same on every run.
	var stackKeys [maxStackKeys]string
	keys := stackKeys[:0]
	if len(m) > maxStackKeys {
		keys = make([]string, 0, len(m))
	}
	reserved := false
	for k := range m {
		reserved = reserved || k != "" && k[0] == '$'
		keys = append(keys, k)
	}
	if reserved {
		if err := validateMapShape(m, w.limits.MaxCIDLen); err != nil {
			return err
		}
	}
	sortKeys(keys)
	for _, k := range keys {
		if !utf8.ValidString(k) {
			return atKey(valueError(ErrInvalidUTF8, "map key "+strconv.Quote(k)), k)
		}
		if len(k) > w.limits.MaxKeyLen {
			return errKeyTooLong(k, w.limits.MaxKeyLen)
		}
		if err := w.value(m[k], depth+1); err != nil {
			return atKey(err, k)
		}
	}
	return nil
}

// validateMapShape applies the rules about reserved keys to a plain map: no "$link" or "$bytes"
// key (DECISIONS rule 10: in JSON such a map would read back as a link or bytes); "$type", if
// present, a non-empty string (rule 11); and a map typed "blob" exactly the blob shape (rule 13),
// so that it reads back as the same Blob. A ref longer than maxCIDLen is refused (ErrInvalidCID).
// MarshalCBOR, MarshalJSON and Validate all call it, so that they refuse the same maps.
func validateMapShape(m map[string]any, maxCIDLen int) error {
	if _, ok := m["$link"]; ok {
		return atKey(valueError(ErrLink, "a map with a $link key is not a link"), "$link")
	}
	if _, ok := m["$bytes"]; ok {
		return atKey(valueError(ErrBytes, "a map with a $bytes key is not bytes"), "$bytes")
	}
	t, ok := m["$type"]
	if !ok {
		return nil
	}
	return validateTypeValue(m, t, maxCIDLen)
}

// validateTypeValue applies rules 11 and 13 to a map m whose "$type" key holds t: t is a
// non-empty string, and if it is "blob", m has exactly the blob shape.
func validateTypeValue(m map[string]any, t any, maxCIDLen int) error {
	s, ok := t.(string)
	if !ok || s == "" {
		detail := fmt.Sprintf("found %T %v", t, t)
		switch t {
		case nil:
			detail = "found null"
		case "":
			detail = "found an empty string"
		}
		return atKey(valueError(ErrType, detail), "$type")
	}
	if s != "blob" {
		return nil
	}
	if len(m) != 4 {
		return valueError(ErrBlob, "a blob has exactly the keys $type, ref, mimeType and size")
	}
	switch ref := m["ref"].(type) {
	case Link:
		if err := validateCIDLen(cid.Cid(ref), maxCIDLen); err != nil {
			return atKey(err, "ref")
		}
	case cid.Cid:
		if err := validateCIDLen(ref, maxCIDLen); err != nil {
			return atKey(err, "ref")
		}
	default:
		return atKey(valueError(ErrBlob, "ref must be a link"), "ref")
	}
	if mt, ok := m["mimeType"].(string); !ok || mt == "" {
		return atKey(valueError(ErrBlob, "mimeType must be a non-empty string"), "mimeType")
	}
	size, isInt, err := goInt(m["size"])
	switch {
	case !isInt:
		return atKey(valueError(ErrBlob, "size must be an integer"), "size")
	case err != nil:
		return atKey(err, "size")
	case size < 0:
		return atKey(valueError(ErrBlob, "size must not be negative"), "size")
	}
	return nil
}

// validateCIDLen checks a link: defined, CIDv1 (DECISIONS rule 12), at most maxLen bytes
// (Limits.MaxCIDLen, rule 14), as the CBOR encoder requires.
func validateCIDLen(c cid.Cid, maxLen int) error {
	b := c.KeyString() // the binary CID, without copying
	switch {
	case len(b) == 0:
		return valueError(ErrInvalidCID, "undefined CID")
	case b[0] != 1:
		// CIDv0 has no version byte (it starts 0x12 0x20).
		return valueError(ErrInvalidCID, "not a CIDv1")
	case len(b) > maxLen:
		return valueError(ErrInvalidCID, "longer than "+strconv.Itoa(maxLen)+" bytes")
	}
	return nil
}

// validateBlob checks a Blob as the encoders require (DECISIONS rule 13): non-empty UTF-8
// MimeType, a defined CIDv1 Ref, and for a new-form blob a Size ≥ 0.
func validateBlob(b *Blob, maxCIDLen int) error {
	if b.MimeType == "" {
		return atKey(valueError(ErrBlob, "empty mimeType"), "mimeType")
	}
	if !utf8.ValidString(b.MimeType) {
		return atKey(valueError(ErrInvalidUTF8, strconv.Quote(b.MimeType)), "mimeType")
	}
	if !b.Ref.Defined() {
		return atKey(valueError(ErrBlob, "undefined ref"), "ref")
	}
	if b.Legacy {
		// The CID is a string in this form, not a link: only the version matters (rule 12).
		if b.Ref.CID().KeyString()[0] != 1 {
			return atKey(valueError(ErrBlob, "legacy blob cid is not a CIDv1"), "cid")
		}
		return nil
	}
	if b.Size < 0 {
		return atKey(valueError(ErrBlob, "negative size"), "size")
	}
	if err := validateCIDLen(cid.Cid(b.Ref), maxCIDLen); err != nil {
		return atKey(err, "ref")
	}
	return nil
}
