package datamodel

// The typed JSON decoder: atproto JSON into Go values, following the plans of typed_plan.go. It
// walks the input once with the generic JSON decoder's lexer (json_lex.go: strings, numbers,
// whitespace, keys and their caches), applying the rules UnmarshalJSON applies, and writes each
// value straight into its Go field. Values typed any, and the few objects whose meaning only the
// whole object decides (a $link or $bytes object where a struct is expected, a "$type": "blob"
// object read into a struct), go through the generic decoder itself, on the same input, limits,
// value budget, slabs and string arena.
//
//	UnmarshalJSONStruct  the entry point; on any error, UnmarshalJSON's error for the input first
//	typedJSONDecoder.decode   one value into one Go value, by kind
//	typedJSONDecoder.mismatch the error for a value its Go type cannot hold (found: what it is)
//	typedJSONDecoder.integer  a number into a Go integer
//	typedJSONDecoder.method   a value into a type with fxamacker's UnmarshalCBOR
//	typed_json_containers.go  objects, maps and arrays

import (
	"encoding"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/tid"
)

// UnmarshalJSONStruct decodes one atproto JSON value into the struct (or other value) v points
// to, with the rules of UnmarshalJSON and without encoding/json: the same grammar (RFC 8259,
// strictly), duplicate keys refused (ErrDuplicateKey), integers read exactly (1.5 is ErrFraction;
// WithSafeIntegers narrows them to ±(2^53−1)), {"$link"} objects into Link fields, {"$bytes"}
// into Bytes and []byte, blobs (rule 13, the legacy form included) into Blob fields, "$type" a
// non-empty string wherever it appears, valid UTF-8, and every limit of opts (MaxJSONSize,
// MaxDepth, MaxElements, MaxKeyLen, MaxValues, MaxCIDLen) on every value, those read into Link,
// Blob, Bytes and tid.TID fields included. Nothing is allocated in proportion to a length the
// input merely declares, and the walk recurses once per level of nesting, never past MaxDepth.
//
// Fields are matched as UnmarshalCBORStruct matches them (a plan per Go type, shared with it):
// the key of a field is the name in its `cbor` tag, else in its `json` tag, else its Go name,
// exactly (case-sensitively, unlike encoding/json). A key the struct does not name is checked
// and ignored by default, kept in the struct's UnknownFields field if it has one, and refused
// under DisallowUnknownFields (ErrGoType, at the key) otherwise (a struct with an UnknownFields
// field keeps its unknown keys under DisallowUnknownFields too); see UnmarshalCBORStruct for
// which to use when. A field typed any receives exactly what UnmarshalJSON returns for its value.
// null sets a pointer, slice, map or interface to nil and leaves a string, integer, bool or
// struct as it was; null for a Link or tid.TID is ErrGoType, for a Blob ErrBlob. A type with
// fxamacker's MarshalCBOR/UnmarshalCBOR methods (and no plan of its own) receives the DAG-CBOR
// of the value, as it would from UnmarshalCBORStruct; encoding/json methods are not used.
//
// Errors are *Error values with the byte offset and the JSON Pointer of the value, as
// UnmarshalJSON's: an input UnmarshalJSON refuses gets UnmarshalJSON's own error, whatever the Go
// type, and a value its field cannot hold is ErrGoType naming what was found, the Go field and its
// type ("found a string for Go field app.Post.Langs of type []string"); a Blob field given
// anything but a blob is ErrBlob. On error, v may hold part of the input.
//
// encoding/json still works with the package's types (Link, Bytes and Blob have MarshalJSON and
// UnmarshalJSON methods), for those who want it, with its own rules: the last of two duplicate
// keys wins, and errors are not located in the record.
func UnmarshalJSONStruct(data []byte, v any, opts ...Option) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		what := "nil"
		if v != nil {
			what = "a Go " + rv.Type().String()
		}
		return &Error{Err: ErrGoType, Offset: -1, Detail: "UnmarshalJSONStruct needs a non-nil pointer, not " + what}
	}
	c := config{limits: DefaultLimits()}
	if len(opts) > 0 {
		c = newConfig(opts)
	}
	return typedJSONUnmarshal(data, typedPlanOf(rv.Type().Elem()), rv.UnsafePointer(), c)
}

// typedJSONDecoder is the state of one UnmarshalJSONStruct: the generic decoder's, and the keys
// without a field of the objects being read (to find duplicates among them).
type typedJSONDecoder struct {
	*jsonDecoder
	disallowUnknown bool
	names           []string
	registry        *Registry // WithRegistry: the Go types of union members, or nil
}

// typedJSONUnmarshal decodes data into the value at ptr, of plan p, and returns the error
// UnmarshalJSONStruct returns.
func typedJSONUnmarshal(data []byte, p *typedPlan, ptr unsafe.Pointer, c config) error {
	lim := c.limits
	if len(data) > lim.MaxJSONSize {
		return &Error{Err: ErrTooLarge, Offset: lim.MaxJSONSize, Detail: overLimit(len(data), "bytes", lim.MaxJSONSize)}
	}
	d := getJSONDecoder()
	t := typedJSONDecoder{jsonDecoder: d, disallowUnknown: c.disallowUnknown, registry: c.registry}
	d.data, d.limits, d.slabs, d.careful, d.strs = data, lim, cborSlabs{size: len(data) / 2}, false, nil
	d.keyMisses = 0
	d.earlyRoom()
	err := t.run(p, ptr)
	if err == errJSONCareful {
		// As UnmarshalJSON: something the quick object path does not decide, in a value typed
		// any; read everything again, once, with the careful path.
		d.careful = true
		err = t.run(p, ptr)
	}
	d.data, d.slabs, d.strs, d.typeAt = nil, cborSlabs{}, nil, nil
	d.trimScratch(jsonMaxPooledScratch)
	putJSONDecoder(d)
	if err == nil {
		return nil
	}
	// Errors are rare: only now is the whole input read as UnmarshalJSON reads it, so that an input
	// it refuses gets its error (the same sentinel, offset and path), whatever the Go type and
	// whichever error the typed walk met first.
	if _, gerr := unmarshalJSON(data, lim, false); gerr != nil {
		return gerr
	}
	return finished(err)
}

// run decodes the input from its start into the value at ptr, and checks that nothing follows.
func (t *typedJSONDecoder) run(p *typedPlan, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	d.pos, d.depth, d.left = 0, 0, d.limits.MaxValues-1
	d.items, d.members, t.names = d.items[:0], d.members[:0], t.names[:0]
	d.skipSpace()
	if err := t.decode(p, nil, ptr); err != nil {
		return err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.fail(ErrTrailingBytes, d.pos, "")
	}
	return nil
}

// mismatch is the error for the value at off, which the Go value of plan p (field f, if in a
// struct) cannot hold: ErrGoType, naming what was found, the Go field and its type.
func (t *typedJSONDecoder) mismatch(p *typedPlan, f *typedField, off int, why string) error {
	detail := t.found(off) + " for " + typedGoName(f, p)
	if why != "" {
		detail += " (" + why + ")"
	}
	return t.fail(ErrGoType, off, detail)
}

// found describes the value at off for an error detail, as describe does: read by the generic
// decoder when it is an object (a link, bytes, a blob or an object), else by its first byte.
func (t *typedJSONDecoder) found(off int) string {
	d := t.jsonDecoder
	if off >= len(d.data) {
		return "found nothing"
	}
	switch c := d.data[off]; {
	case c == '"':
		if off+1 < len(d.data) && d.data[off+1] == '"' {
			return "found an empty string"
		}
		return "found a string"
	case c == '[':
		return "found an array"
	case c == '{':
		pos, depth, left, careful := d.pos, d.depth, d.left, d.careful
		d.pos, d.careful = off, true
		v, err := d.value()
		d.pos, d.depth, d.left, d.careful = pos, depth, left, careful
		if err != nil {
			return "found an object"
		}
		return describe(v)
	case c == 't' || c == 'f':
		return "found a boolean"
	case c == 'n':
		return "found null"
	}
	return "found an integer"
}

// decode decodes the value at d.pos (whitespace skipped) into the value ptr points to, of plan p
// (the value of field f when in a struct, for error details), and leaves d.pos after it.
func (t *typedJSONDecoder) decode(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	if d.pos >= len(d.data) {
		return d.failEnd("a value")
	}
	start := d.pos
	c := d.data[start]
	if c == 'n' && p.kind != typedAny && p.kind != typedMethod {
		if err := d.literal("null"); err != nil {
			return err
		}
		// null sets what can be nil to nil and leaves other values as they are, as
		// UnmarshalCBORStruct does, except where the type asks for a value.
		switch p.kind {
		case typedPointer, typedMap, typedUnknown:
			*(*unsafe.Pointer)(ptr) = nil
		case typedBytes, typedSlice:
			*(*typedSliceHeader)(ptr) = typedSliceHeader{}
		case typedIface:
			reflect.NewAt(p.typ, ptr).Elem().SetZero()
		case typedLink, typedTID:
			return t.mismatch(p, f, start, "")
		case typedBlob:
			return d.fail(ErrBlob, start, "expected a blob, found null")
		case typedUnion:
			*(*Union)(ptr) = Union{}
		}
		return nil
	}
	switch p.kind {
	case typedAny:
		v, err := d.value()
		if err != nil {
			return err
		}
		*(*any)(ptr) = v
		return nil
	case typedString:
		if c != '"' {
			return t.mismatch(p, f, start, "")
		}
		b, err := d.string()
		if err != nil {
			return err
		}
		*(*string)(ptr) = d.carve(b)
		return nil
	case typedInt, typedUint:
		return t.integer(p, f, ptr)
	case typedBool:
		switch c {
		case 't':
			*(*bool)(ptr) = true
			return d.literal("true")
		case 'f':
			*(*bool)(ptr) = false
			return d.literal("false")
		}
		return t.mismatch(p, f, start, "")
	case typedPointer:
		pp := (*unsafe.Pointer)(ptr)
		if *pp == nil {
			*pp = reflect.New(p.elem.typ).UnsafePointer()
		}
		return t.decode(p.elem, f, *pp)
	case typedStruct:
		if p.toArray {
			return t.structArray(p, f, ptr)
		}
		return t.object(p, f, ptr)
	case typedSlice, typedArray:
		return t.array(p, f, ptr)
	case typedMap, typedUnknown:
		return t.mapOf(p, f, ptr)
	case typedLink, typedBytes, typedByteArray:
		// A link or bytes is an object the generic decoder reads: {"$link"} or {"$bytes"}.
		if c != '{' {
			return t.mismatch(p, f, start, "")
		}
		v, err := d.value()
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case Link:
			if p.kind == typedLink {
				*(*Link)(ptr) = x
				return nil
			}
		case Bytes:
			if p.kind == typedBytes {
				*(*[]byte)(ptr) = x
				return nil
			}
			if p.kind == typedByteArray {
				if len(x) != p.len { // exactly, as UnmarshalCBORStruct
					return t.mismatch(p, f, start, count(len(x), "bytes"))
				}
				dst := unsafe.Slice((*byte)(ptr), p.len)
				clear(dst[copy(dst, x):])
				return nil
			}
		}
		return t.fail(ErrGoType, start, describe(v)+" for "+typedGoName(f, p))
	case typedBlob:
		v, err := d.value()
		if err != nil {
			return err
		}
		b, ok := v.(Blob)
		if !ok {
			return d.fail(ErrBlob, start, "expected a blob, "+describe(v))
		}
		*(*Blob)(ptr) = b
		return nil
	case typedTID, typedText:
		if c != '"' || p.kind == typedText && !p.textUnmarshal {
			return t.mismatch(p, f, start, "")
		}
		b, err := d.string()
		if err != nil {
			return err
		}
		if p.kind == typedTID {
			x, perr := tid.Parse(string(b))
			if perr != nil {
				return t.mismatch(p, f, start, perr.Error())
			}
			*(*tid.TID)(ptr) = x
			return nil
		}
		u := reflect.NewAt(p.typ, ptr).Interface().(encoding.TextUnmarshaler)
		if uerr := u.UnmarshalText(b); uerr != nil {
			return t.mismatch(p, f, start, uerr.Error())
		}
		return nil
	case typedMethod:
		return t.method(p, f, ptr)
	case typedUnion:
		return t.union(p, f, ptr)
	case typedIface:
		// As UnmarshalCBORStruct: into the value an interface holds, if that is a non-nil pointer.
		iv := reflect.NewAt(p.typ, ptr).Elem()
		if iv.IsNil() || iv.Elem().Kind() != reflect.Pointer || iv.Elem().IsNil() {
			return t.mismatch(p, f, start, "an interface holding no pointer to decode into")
		}
		e := iv.Elem()
		return t.decode(typedPlanOf(e.Type().Elem()), f, e.UnsafePointer())
	}
	// typedInvalid: no data-model value fits.
	return t.mismatch(p, f, start, p.err.Detail)
}

// integer decodes a number into a Go integer of plan p, within the range of its type.
func (t *typedJSONDecoder) integer(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	data, start := d.data, d.pos
	c := data[start]
	if c != '-' && (c < '0' || c > '9') {
		return t.mismatch(p, f, start, "")
	}
	var n int64
	// The usual number, as the generic decoder's value reads it: up to 18 plain digits.
	i := start
	for ; c != '0' && c != '-' && i < len(data) && i-start < 18 && data[i] >= '0' && data[i] <= '9'; i++ {
		n = n*10 + int64(data[i]-'0')
	}
	if i > start && (i == len(data) || data[i] != '.' && data[i] != 'e' && data[i] != 'E' && (data[i] < '0' || data[i] > '9')) &&
		(n <= MaxSafeInteger || !d.limits.safeInts) {
		d.pos = i
	} else {
		v, err := d.number() // a sign, a fraction, an exponent, a 19th digit: read it in full
		if err != nil {
			return err
		}
		n = v.(int64)
	}
	if p.kind == typedUint {
		if n < 0 || p.bits < 64 && n >= 1<<p.bits {
			return t.mismatch(p, f, start, strconv.FormatInt(n, 10)+" is out of its range")
		}
	} else if p.bits < 64 && (n < -1<<(p.bits-1) || n >= 1<<(p.bits-1)) {
		return t.mismatch(p, f, start, strconv.FormatInt(n, 10)+" is out of its range")
	}
	switch p.size {
	case 1:
		*(*int8)(ptr) = int8(n)
	case 2:
		*(*int16)(ptr) = int16(n)
	case 4:
		*(*int32)(ptr) = int32(n)
	default:
		*(*int64)(ptr) = n
	}
	return nil
}

// method decodes the value through the fxamacker Unmarshaler of a type outside this package: it
// is read by the generic decoder and handed over as its DAG-CBOR, as UnmarshalCBORStruct would
// hand over the same value. The method's own error is located at the value.
func (t *typedJSONDecoder) method(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start := d.pos
	if !p.cborUnmarshal {
		return t.mismatch(p, f, start, "it has MarshalCBOR but no UnmarshalCBOR")
	}
	v, err := d.value()
	if err != nil {
		return err
	}
	lim := d.limits
	lim.MaxCBORSize = max(lim.MaxCBORSize, 2*(d.pos-start)+16) // the value is within the JSON limits
	b, err := MarshalCBOR(v, WithLimits(lim))
	if err != nil {
		return t.mismatch(p, f, start, err.Error())
	}
	u := reflect.NewAt(p.typ, ptr).Interface().(cbor.Unmarshaler)
	if uerr := u.UnmarshalCBOR(b); uerr != nil {
		if e, ok := uerr.(*Error); ok {
			located := *e
			located.path, located.Offset = nil, start
			return &located
		}
		return t.mismatch(p, f, start, uerr.Error())
	}
	return nil
}
