package datamodel

import (
	"reflect"

	"github.com/atcore/atcore/cidutil"
)

// MarshalCBORStruct encodes a Go struct (or any Go value with a data-model form) as canonical
// DAG-CBOR, with atcore's own typed codec (not fxamacker's; see UnmarshalCBORStruct for how
// fields get their keys). A struct is a map of its fields in canonical key order, with the
// entries of its UnknownFields field, if it has one, merged in (an entry whose key is also a
// field's is refused, ErrGoType). Fields of type Link are written as tag 42, Blob as a blob map,
// []byte and Bytes as byte strings, tid.TID and other encoding.TextMarshaler types as text
// strings, every Go integer type as an integer; a field typed any (or a map[string]any, []any)
// holds MarshalCBOR's values or any other Go value of a data-model form; a type with fxamacker's
// MarshalCBOR method is written through it, its output checked. A nil pointer, slice or map is
// written as null unless its field has omitempty or omitzero; null and absent stay distinct (rule
// 15). The two options leave out what encoding/json (Go 1.24) leaves out: omitempty false, 0, a
// nil pointer or interface, an empty string, slice, map or array (never a struct: Link and Blob
// included), omitzero the zero value of the field's type, or a value whose IsZero method (on the
// type or its pointer) reports true; a non-nil empty slice or map is not zero. A
// struct with fxamacker's toarray marker (a field `_ struct{}` tagged `cbor:",toarray"`) is an
// array of its fields.
//
// It keeps every rule MarshalCBOR keeps, as it writes, so that both decoders read back whatever
// it writes: anything outside DAG-CBOR (a float field, ErrFloat; a map with non-string keys,
// ErrKeyNotString; a channel, ErrUnsupported), and any map the decoders refuse (DECISIONS rules
// 10, 11 and 13: a field or map key "$link" or "$bytes", a "$type" field left empty or not a
// string, a struct or map typed "blob" without exactly the blob shape, an undefined Link, a
// malformed Blob), and values beyond the limits of opts (DefaultLimits without options; a raised
// MaxCIDLen lets long CIDs through, a raised MaxDepth deeper values, up to MaxDepthCeiling). The
// error is the one MarshalCBOR gives for the same tree: the same sentinel and Path (the JSON
// Pointer of the bad value, through the fields' keys), and Offset -1. A cyclic value is refused
// with ErrTooDeep.
func MarshalCBORStruct(v any, opts ...Option) ([]byte, error) {
	e := typedEncoder{cborEncoder: newCBOREncoder(opts)}
	pooled := getEncodeBuf()
	buf, err := e.top(*pooled, v)
	var out []byte
	if err == nil {
		out = exactCopy(buf, nil)
	}
	putEncodeBuf(pooled, buf)
	if err != nil {
		return nil, finished(err)
	}
	return out, nil
}

// UnmarshalCBORStruct decodes data into the struct (or other value) v points to, with atcore's
// own typed codec (not fxamacker's): a plan compiled once per Go type tells it which field each
// key goes to, and it reads the bytes once, writing each value straight into its field.
//
// data must be exactly one canonical DAG-CBOR value within the limits, held to every rule
// UnmarshalCBOR holds it to (DECISIONS rules 9–14), whatever the Go type: a "$type" key must hold
// a non-empty string (rule 11), no map may have a "$link" or "$bytes" key (ErrLink, ErrBytes), a
// map typed "blob" must have exactly the blob shape (rule 13, ErrBlob), and every limit of opts
// applies to every value, those read into Link, Blob, Bytes and tid.TID fields included (a raised
// MaxCIDLen reaches a nested Link). A value its field cannot hold is ErrGoType, and a Blob field
// given anything but a blob is ErrBlob. Every error gives the byte offset in data and the JSON
// Pointer of the value, as UnmarshalCBOR's do; a Go-side error names the Go field and its type
// ("found a string for Go field app.Post.Langs of type []string"). An input that is itself
// invalid gets UnmarshalCBOR's error for it, whatever the Go type.
//
// Keys match field names exactly (case-sensitively): the field of a struct has the key of its
// `cbor` tag, else of its `json` tag, else its Go name; a field tagged "-" and unexported fields
// have none; the fields of an untagged embedded struct are promoted, as encoding/json does.
// A key with no field is, by default, checked and ignored, as the Lexicon spec asks of "unexpected
// fields in data which otherwise conforms" (https://atproto.com/specs/lexicon, "Authority and
// Control"): a Lexicon may gain optional fields, and a reader built from an older revision must
// go on reading the records written with the new one. Ignoring has a cost: re-encoding the struct
// drops the field, so the record's bytes and CID change ("clobbering", in the spec's "Usage and
// Implementation Guidelines"). Two ways out, per struct or per call:
//
//   - keep: a field of type UnknownFields in the struct receives every key the struct does not
//     name, as generic values; MarshalCBORStruct writes them back, so the bytes and CID survive.
//     Use it in a service that reads records and writes them back (or re-signs them).
//   - refuse: DisallowUnknownFields makes such a key an error (ErrGoType, at the key). Use it to
//     check that a Go type covers the data it is meant for (tests, code generators).
//
// A struct with an UnknownFields field keeps its unknown keys even under DisallowUnknownFields.
//
// A field (or slice element, or map value) typed any receives what UnmarshalCBOR returns for that
// value: int64, string, bool, nil, Bytes, Link, Blob, []any and map[string]any. null sets a
// pointer, slice, map or interface to nil, and leaves a string, integer, bool or struct as it was;
// null for a Link or tid.TID is ErrGoType, for a Blob ErrBlob. Floats, channels and functions
// have no data-model form: a field of such a type takes null only.
func UnmarshalCBORStruct(data []byte, v any, opts ...Option) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &Error{Err: ErrGoType, Offset: -1, Detail: "UnmarshalCBORStruct needs a non-nil pointer, not " + describeGoType(v)}
	}
	return typedUnmarshal(data, typedPlanOf(rv.Type().Elem()), rv.UnsafePointer(), opts)
}

// describeGoType names the Go type of v for an error detail ("nil" for nil).
func describeGoType(v any) string {
	if v == nil {
		return "nil"
	}
	return "a Go " + reflect.TypeOf(v).String()
}

// DisallowUnknownFields makes UnmarshalCBORStruct and UnmarshalJSONStruct refuse a map key that
// has no field in the struct it is decoded into (ErrGoType, at the key's offset, with the JSON
// Pointer of the member and the key in the detail), where by default such a key is ignored. The
// other entry points ignore this option.
//
// Which to use: the default, for reading records written by others, as the Lexicon spec asks:
// a record of a newer revision of its Lexicon, with an optional field the Go type lacks, still
// reads. DisallowUnknownFields, to check that a Go type covers every field of the data it is
// meant for (tests, code generators), or to refuse a record whose unknown fields would be lost.
// A program that re-encodes records and must keep their bytes and CID gives its struct an
// UnknownFields field instead: the unknown keys are kept there (even under this option) and
// written back.
func DisallowUnknownFields() Option {
	return func(c *config) { c.disallowUnknown = true }
}

// MarshalCBOR encodes l as a DAG-CBOR link: tag 42 over 0x00 and the binary CID. It implements
// fxamacker's cbor.Marshaler, so that struct fields of type Link encode as links. An undefined
// Link is refused (ErrInvalidCID): use a *Link field for an optional link.
func (l Link) MarshalCBOR() ([]byte, error) {
	b, err := cborAppendLink(nil, l.CID(), DefaultMaxCIDLen)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// UnmarshalCBOR decodes a DAG-CBOR link (tag 42) into l, strictly (rules 9 and 12). It implements
// fxamacker's cbor.Unmarshaler.
func (l *Link) UnmarshalCBOR(data []byte) error {
	lim := DefaultLimits()
	major, arg, p, err := cborHead(data, 0)
	if err != nil {
		return err
	}
	if major != 6 || arg != cborTagCID {
		return cborErr(ErrGoType, 0, "want a link (tag 42), got "+cborMajorWithArticle[major])
	}
	cs, ce, err := cborLink(data, &lim, 0, p)
	if err != nil {
		return err
	}
	if ce != len(data) {
		return cborErr(ErrTrailingBytes, ce, "")
	}
	c, cerr := cidutil.ParseBinary(data[cs:ce])
	if cerr != nil {
		return cborErr(ErrInvalidCID, cs, cerr.Error())
	}
	*l = Link(c)
	return nil
}

// MarshalCBOR encodes b as a blob map (DECISIONS rule 13), or in the legacy form if b.Legacy. It
// implements fxamacker's cbor.Marshaler.
func (b Blob) MarshalCBOR() ([]byte, error) {
	e := cborDefaultEncoder
	out, err := e.blob(nil, &b, 1)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UnmarshalCBOR decodes a blob map, new or legacy, into b, with the checks of DECISIONS rule 13.
// It implements fxamacker's cbor.Unmarshaler.
func (b *Blob) UnmarshalCBOR(data []byte) error {
	v, err := UnmarshalCBOR(data)
	if err != nil {
		return err
	}
	blob, ok := v.(Blob)
	if !ok {
		return cborErr(ErrBlob, 0, "expected a blob, "+describe(v))
	}
	*b = blob
	return nil
}
