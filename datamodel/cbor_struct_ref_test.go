package datamodel

import (
	"encoding"
	"math"
	"reflect"
	"sync"

	"github.com/fxamacker/cbor/v2"
)

// The struct path as it was before the typed codec: fxamacker/cbor configured as close to
// DAG-CBOR as it allows, held to the scanner with the data-model rules (the decoder scanned its
// input first, the encoder walked the value's depth first and scanned its output). Kept as the
// reference the benchmarks compare the typed codec with (BenchmarkTypedRatio,
// BenchmarkCBORStruct), to write maps the typed encoder refuses (TestUnmarshalCBORStructBlobShape),
// and to show what fxamacker does that the typed decoder does not (TestTypedDecodeCaseSensitive).

// cborStructDecRef is that fxamacker decoder, at the default limits.
var cborStructDecRef = func() cbor.DecMode {
	lim := DefaultLimits()
	simple, err := cbor.NewSimpleValueRegistryFromDefaults(cbor.WithRejectedSimpleValue(cbor.SimpleValue(23)))
	if err != nil {
		panic(err)
	}
	tags := cbor.NewTagSet()
	if err := tags.Add(cbor.TagOptions{DecTag: cbor.DecTagRequired, EncTag: cbor.EncTagRequired}, reflect.TypeOf(Link{}), cborTagCID); err != nil {
		panic(err)
	}
	dm, err := cbor.DecOptions{
		DupMapKey:             cbor.DupMapKeyEnforcedAPF,
		IndefLength:           cbor.IndefLengthForbidden,
		IntDec:                cbor.IntDecConvertSignedOrFail,
		MaxNestedLevels:       lim.MaxDepth + 1,
		MaxArrayElements:      lim.MaxElements,
		MaxMapPairs:           lim.MaxElements,
		DefaultMapType:        reflect.TypeOf(map[string]any(nil)),
		DefaultByteStringType: reflect.TypeOf(Bytes(nil)),
		UTF8:                  cbor.UTF8RejectInvalid,
		NaN:                   cbor.NaNDecodeForbidden,
		Inf:                   cbor.InfDecodeForbidden,
		SimpleValues:          simple,
		TextUnmarshaler:       cbor.TextUnmarshalerTextString,
	}.DecModeWithTags(tags)
	if err != nil {
		panic(err)
	}
	return dm
}()

// unmarshalCBORStructRef is the former UnmarshalCBORStruct's success path: scan, then fxamacker.
func unmarshalCBORStructRef(data []byte, v any) error {
	lim := DefaultLimits()
	s := cborScanner{data: data, lim: &lim, left: lim.MaxValues - 1, dataModel: true}
	if _, err := s.value(0, 1); err != nil {
		return err
	}
	return cborStructDecRef.Unmarshal(data, v)
}

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

// marshalCBORStructRef is the former MarshalCBORStruct's success path: the depth walk,
// fxamacker, and the scan of its output.
func marshalCBORStructRef(v any) ([]byte, error) {
	if err := structDepth(reflect.ValueOf(v), 1); err != nil {
		return nil, err
	}
	out, err := cborStructEnc.Marshal(v)
	if err != nil {
		return nil, err
	}
	lim := DefaultLimits()
	lim.MaxCBORSize = math.MaxInt
	s := cborScanner{data: out, lim: &lim, left: lim.MaxValues - 1, dataModel: true, encoded: true}
	if _, serr := s.value(0, 1); serr != nil {
		return nil, serr
	}
	return out, nil
}

// fxamacker's encoder recurses once per level of a Go value and has no depth limit or cycle
// check: a map that contains itself, or a []any nested a million deep, would overflow the
// goroutine stack, a fatal error that kills the process. MarshalCBORStruct therefore walks the
// value first, down to MaxDepthCeiling levels, when its type allows unbounded nesting (it holds
// an interface, or is recursive); a type without either nests no deeper than its declaration, and
// costs nothing.

// structTypeBounded caches, per reflect.Type, whether the type's nesting is bounded.
var structTypeBounded sync.Map

var (
	cborMarshalerType = reflect.TypeFor[cbor.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// boundedType reports whether every value of t nests no deeper than t's declaration: no
// interface inside, no recursion. Types that encode themselves (Link, Blob, tid.TID) are leaves.
func boundedType(t reflect.Type) bool {
	if b, ok := structTypeBounded.Load(t); ok {
		return b.(bool)
	}
	b := boundedTypeIn(t, map[reflect.Type]bool{})
	structTypeBounded.Store(t, b)
	return b
}

func boundedTypeIn(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if t.Implements(cborMarshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	if visiting[t] {
		return false // recursive
	}
	visiting[t] = true
	defer delete(visiting, t)
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return boundedTypeIn(t.Elem(), visiting)
	case reflect.Map:
		return boundedTypeIn(t.Key(), visiting) && boundedTypeIn(t.Elem(), visiting)
	case reflect.Struct:
		for i := range t.NumField() {
			if !boundedTypeIn(t.Field(i).Type, visiting) {
				return false
			}
		}
	}
	return true
}

// structDepth walks v, at nesting depth depth, and refuses it (ErrTooDeep) if it goes deeper than
// MaxDepthCeiling: a cyclic value always does. Each map, slice, array, struct and pointer counts
// a level, so the walk itself recurses at most MaxDepthCeiling deep.
func structDepth(v reflect.Value, depth int) *Error {
	if depth > MaxDepthCeiling {
		return valueError(ErrTooDeep, overLimit(-1, "", MaxDepthCeiling))
	}
	if !v.IsValid() || boundedType(v.Type()) {
		return nil
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return structDepth(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := structDepth(v.Index(i), depth+1); err != nil {
				return err.atIndex(i)
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if err := structDepth(it.Value(), depth+1); err != nil {
				if k := it.Key(); k.Kind() == reflect.String {
					return err.atKey(k.String())
				}
				return err
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if err := structDepth(v.Field(i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
