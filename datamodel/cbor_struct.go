package datamodel

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/atcore/atcore/cidutil"
	"github.com/fxamacker/cbor/v2"
)

// Typed structs (Lexicon-generated types with `cbor:"name"` field tags) go through
// github.com/fxamacker/cbor/v2, configured as close to DAG-CBOR as it allows. What it cannot be
// told, the scanner enforces: MarshalCBORStruct scans its output and UnmarshalCBORStruct scans its
// input, so both sides are exactly as strict as the generic codec (DECISIONS rules 9 and 14).

// cborStructEnc writes canonical DAG-CBOR from Go structs: map keys and struct fields sorted
// length-first then bytewise (fxamacker's SortLengthFirst sorts the encoded keys, which for text
// keys is the same order), shortest heads (fxamacker's default), no indefinite lengths, big
// integers refused, encoding.TextMarshaler types (tid.TID) written as text strings, time.Time as
// an RFC 3339 string without a tag.
var cborStructEnc = func() cbor.EncMode {
	em, err := cbor.EncOptions{
		Sort:          cbor.SortLengthFirst,
		IndefLength:   cbor.IndefLengthForbidden,
		BigIntConvert: cbor.BigIntConvertReject,
		Time:          cbor.TimeRFC3339Nano,
		TimeTag:       cbor.EncTagNone,
		TextMarshaler: cbor.TextMarshalerTextString,
	}.EncMode()
	if err != nil {
		panic("datamodel: fxamacker encoder options: " + err.Error())
	}
	return em
}()

// cborStructDecoder returns the fxamacker decoder for lim: duplicate keys, indefinite lengths,
// invalid UTF-8, NaN, infinities and undefined refused; unknown struct fields ignored, or refused
// if disallowUnknown; values decoded into any given the generic decoder's types where fxamacker
// allows (integers as int64, byte strings as Bytes, links as Link, maps as map[string]any);
// encoding.TextUnmarshaler types (tid.TID) read from text strings; the nesting and element limits
// from lim. Decoders are built once per distinct configuration (a few are kept).
func cborStructDecoder(lim Limits, disallowUnknown bool) (cbor.DecMode, error) {
	if lim == DefaultLimits() {
		if disallowUnknown {
			return cborStructDecStrict, nil
		}
		return cborStructDecDefault, nil
	}
	key := cborStructDecKey{lim, disallowUnknown}
	if dm, ok := cborStructDecCache.Load(key); ok {
		return dm.(cbor.DecMode), nil
	}
	dm, err := cborNewStructDecoder(lim, disallowUnknown)
	if err != nil {
		return nil, err
	}
	if cborStructDecCached.Add(1) <= cborStructDecCacheMax {
		cborStructDecCache.Store(key, dm)
	}
	return dm, nil
}

// cborStructDecCache maps a configuration to its fxamacker decoder, for up to
// cborStructDecCacheMax distinct ones (a program uses one or two; the bound keeps a misuse from
// growing it forever).
var (
	cborStructDecCache  sync.Map
	cborStructDecCached atomic.Int32
)

// cborStructDecKey is what an fxamacker decoder is built from.
type cborStructDecKey struct {
	lim             Limits
	disallowUnknown bool
}

const cborStructDecCacheMax = 16

var cborStructDecDefault, cborStructDecStrict = cborMustStructDecoder(false), cborMustStructDecoder(true)

func cborMustStructDecoder(disallowUnknown bool) cbor.DecMode {
	dm, err := cborNewStructDecoder(DefaultLimits(), disallowUnknown)
	if err != nil {
		panic("datamodel: fxamacker decoder options: " + err.Error())
	}
	return dm
}

func cborNewStructDecoder(lim Limits, disallowUnknown bool) (cbor.DecMode, error) {
	simple, err := cbor.NewSimpleValueRegistryFromDefaults(cbor.WithRejectedSimpleValue(cbor.SimpleValue(23)))
	if err != nil {
		return nil, err
	}
	// Tag 42 decodes into Link wherever the Go type is any (a Link field needs no registration:
	// Link.UnmarshalCBOR reads the tag).
	tags := cbor.NewTagSet()
	err = tags.Add(cbor.TagOptions{DecTag: cbor.DecTagRequired, EncTag: cbor.EncTagRequired}, reflect.TypeOf(Link{}), cborTagCID)
	if err != nil {
		return nil, err
	}
	clamp := func(n, lo, hi int) int { return max(lo, min(n, hi)) }
	extra := cbor.ExtraDecErrorNone
	if disallowUnknown {
		extra = cbor.ExtraDecErrorUnknownField
	}
	return cbor.DecOptions{
		DupMapKey:   cbor.DupMapKeyEnforcedAPF,
		IndefLength: cbor.IndefLengthForbidden,
		IntDec:      cbor.IntDecConvertSignedOrFail,
		// The scanner has already enforced the depth limit; fxamacker also counts the tag of a
		// link as a level, hence one more.
		MaxNestedLevels:       clamp(lim.MaxDepth+1, 4, 65535),
		MaxArrayElements:      clamp(lim.MaxElements, 16, math.MaxInt32),
		MaxMapPairs:           clamp(lim.MaxElements, 16, math.MaxInt32),
		ExtraReturnErrors:     extra,
		DefaultMapType:        reflect.TypeOf(map[string]any(nil)),
		DefaultByteStringType: reflect.TypeOf(Bytes(nil)),
		UTF8:                  cbor.UTF8RejectInvalid,
		NaN:                   cbor.NaNDecodeForbidden,
		Inf:                   cbor.InfDecodeForbidden,
		SimpleValues:          simple,
		TextUnmarshaler:       cbor.TextUnmarshalerTextString,
	}.DecModeWithTags(tags)
}

// MarshalCBORStruct encodes a Go struct (or any value fxamacker can encode) as canonical
// DAG-CBOR. Fields of type Link are written as tag 42, Blob as a blob map (see Blob.MarshalCBOR),
// []byte and Bytes as byte strings, encoding.TextMarshaler types such as tid.TID as text
// strings. A nil pointer or slice is written as null unless its field has omitempty; null and
// absent stay distinct (rule 15).
//
// It keeps every rule MarshalCBOR keeps, so that both decoders read back whatever it writes: the
// output is checked by the scanner with the data-model rules, the check UnmarshalCBORStruct makes
// on its input. Anything outside DAG-CBOR (a float field, a map with non-string keys) and any map
// the decoders refuse (DECISIONS rules 10, 11 and 13: a field or map key "$link" or "$bytes", a
// "$type" field left empty or not a string, a map typed "blob" without exactly the blob shape) is
// refused, as are values beyond the default limits. The error is the one MarshalCBOR gives for
// the same tree: the same sentinel and Path (the JSON Pointer of the bad value, through the
// fields' map keys), and Offset -1, since no output is returned. An undefined Link or a malformed
// Blob is refused by its MarshalCBOR method, at its path. Go values fxamacker cannot encode at all
// are refused with ErrUnsupported. A value nested deeper than MaxDepthCeiling, a cyclic one
// included, is refused with ErrTooDeep before fxamacker sees it (see structDepth).
func MarshalCBORStruct(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if err := structDepth(rv, 1); err != nil {
		return nil, finished(err)
	}
	out, err := cborStructEnc.Marshal(v)
	if err != nil {
		var e *Error
		if errors.As(err, &e) { // from a Link or Blob MarshalCBOR method, which knows no path
			if located := structMarshalerError(rv, 1); located != nil {
				return nil, finished(located)
			}
			return nil, e
		}
		return nil, &Error{Err: ErrUnsupported, Offset: -1, Detail: structErrorDetail(err)}
	}
	lim := DefaultLimits()
	lim.MaxCBORSize = math.MaxInt
	s := cborScanner{data: out, lim: &lim, left: lim.MaxValues - 1, dataModel: true, encoded: true}
	if _, serr := s.value(0, 1); serr != nil {
		serr.Offset = -1 // an offset in bytes the caller never sees would mean nothing
		return nil, finished(serr)
	}
	return out, nil
}

// UnmarshalCBORStruct decodes data into the struct (or other value) v points to. data must be
// exactly one canonical DAG-CBOR value within the limits: it is checked with ScanCBOR first,
// because fxamacker does not check canonical form, and with the data-model rules UnmarshalCBOR
// applies: a "$type" key must hold a non-empty string (rule 11), no map may have a "$link" or
// "$bytes" key (ErrLink, ErrBytes; see UnmarshalCBOR), and a map typed "blob" must have exactly
// the blob shape (rule 13, ErrBlob). A value of the wrong type for its field is an error
// (ErrGoType). Blob fields get the checks of rule 13 (see Blob.UnmarshalCBOR). The errors of the
// checks above, of a Link or Blob field's UnmarshalCBOR method, and of an unknown key under
// DisallowUnknownFields give the offset in data and the JSON Pointer, as UnmarshalCBOR's do; a
// value of the wrong type for its field does not (Offset -1; the detail names the Go field).
//
// A map key with no matching struct field is ignored, as the Lexicon spec asks of "unexpected
// fields in data which otherwise conforms" (https://atproto.com/specs/lexicon, "Authority and
// Control"): a Lexicon may gain optional fields, and a reader built from an older revision must
// go on reading the records written with the new one. Ignoring has a cost: re-encoding the struct
// drops the field, so the record's bytes and CID change ("clobbering", in the spec's "Usage and
// Implementation Guidelines"). With DisallowUnknownFields such a key is an error instead.
//
// A field (or slice element, or map value) typed any receives the generic decoder's types: int64,
// string, bool, nil, Bytes, Link, []any and map[string]any. A blob inside such a value stays a
// map[string]any (with "ref" a Link), not a Blob: fxamacker cannot pick a Go type from a map's
// content. Declare the field as Blob to get one.
func UnmarshalCBORStruct(data []byte, v any, opts ...Option) error {
	lim, disallowUnknown := DefaultLimits(), false
	if len(opts) > 0 {
		c := newConfig(opts)
		lim, disallowUnknown = c.limits, c.disallowUnknown
	}
	if len(data) > lim.MaxCBORSize {
		return cborErrTooLarge(len(data), lim)
	}
	s := cborScanner{data: data, lim: &lim, left: lim.MaxValues - 1, dataModel: true}
	end, serr := s.value(0, 1)
	if serr != nil {
		return finished(serr)
	}
	if end != len(data) {
		return cborErr(ErrTrailingBytes, end, strconv.Itoa(len(data)-end)+" bytes")
	}
	dm, err := cborStructDecoder(lim, disallowUnknown)
	if err != nil {
		return &Error{Err: ErrUnsupported, Offset: -1, Detail: err.Error()}
	}
	if err := dm.Unmarshal(data, v); err != nil {
		// fxamacker says neither where a Link or Blob UnmarshalCBOR method failed (the method's
		// offsets count from its own item) nor in which map an unknown key is (only the entry's
		// index): find them.
		var e *Error
		var ue *cbor.UnknownFieldError
		method, unknown := errors.As(err, &e), errors.As(err, &ue)
		if rv := reflect.ValueOf(v); (method || unknown) && rv.Kind() == reflect.Pointer {
			u := structErrorFinder{data: data, lim: lim, strict: dm, unknownKeys: disallowUnknown, methods: method}
			if _, found := u.find(0, rv.Type().Elem(), 1); found != nil {
				return finished(found)
			}
		}
		if method {
			e.Offset = -1 // not found: an offset from the method's item would mislead
			return e
		}
		return &Error{Err: ErrGoType, Offset: -1, Detail: structErrorDetail(err)}
	}
	return nil
}

// DisallowUnknownFields makes UnmarshalCBORStruct refuse a map key that has no field in the
// struct it is decoded into (ErrGoType, at the key's offset, with the JSON Pointer of the member
// and the key in the detail), where by default such a key is ignored. The other entry points
// ignore this option.
//
// Which to use: the default, for reading records written by others, as the Lexicon spec asks:
// a record of a newer revision of its Lexicon, with an optional field the Go type lacks, still
// reads. DisallowUnknownFields, where losing a field would be wrong: before re-encoding a record
// whose bytes or CID must stay the same (the dropped field would change both), or to check that
// a Go type covers every field of the data it is meant for (tests, code generators). A program
// that must keep unknown fields and still use a struct decodes the record with UnmarshalCBOR too,
// and keeps that value for re-encoding.
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
