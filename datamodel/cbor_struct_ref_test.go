package datamodel

import (
	"reflect"

	"github.com/fxamacker/cbor/v2"
)

// The struct decoder as it was before the typed codec: the scanner with the data-model rules, then
// fxamacker/cbor configured as close to DAG-CBOR as it allows. Kept as the reference the
// benchmarks compare the typed decoder with (BenchmarkTypedCBOR), and to show what fxamacker
// does that the typed decoder does not (TestTypedDecodeCaseSensitive).

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
