// Package datamodel reads, writes, validates and hashes atproto records: the data model of
// https://atproto.com/specs/data-model in its two forms, DAG-CBOR (binary, byte-reproducible,
// what is signed and hashed) and atproto JSON (what HTTP APIs carry).
//
// A decoded value is one of these Go types, and the encoders accept exactly these (plus the other
// Go integer types, within int64):
//
//	null      nil
//	boolean   bool
//	integer   int64
//	string    string
//	bytes     Bytes
//	cid-link  Link
//	array     []any
//	object    map[string]any
//	blob      Blob
//
// The decoders never return a nil []any or map[string]any; the encoders write one as null, as
// they write every nil slice and map in a place of a slice or map type (a struct field, an
// element, a map's value). Bytes are the exception where they stand alone: a nil Bytes or
// []byte held in an any (at the top, in a []any or map[string]any) is empty bytes, a value of
// the bytes kind, as the decoders' Bytes{} is.
//
// The generic entry points (MarshalCBOR, AppendCBOR, MarshalJSON, Validate, ValidateRecord,
// RecordCID, Blobs, Links) also take Go values that stand for data-model values, anywhere in a
// tree: slices, arrays and maps with string keys of them ([]string, []Link, map[string]int32,
// []map[string]any), pointers (nil is null), structs such as Lexicon types (their fields keyed
// as MarshalCBORStruct keys them), named string, integer and bool types, tid.TID and other
// encoding.TextMarshaler types (their text), and cid.Cid (a link). Each is checked and written as
// the equal generic tree, with the same errors and paths: see MarshalCBOR.
//
// Decoding is strict (DECISIONS rules 9–15, in the module's DECISIONS.md): anything that is
// not canonical DAG-CBOR, or not valid atproto JSON, is rejected with an *Error that gives the
// byte offset, the JSON Pointer of the value and the rule broken, and that matches one of the
// Err* sentinels with errors.Is. A map with a "$link" or "$bytes" key is not a data-model value, since
// JSON would read it back as a link or bytes: UnmarshalCBOR, UnmarshalCBORStruct, MarshalCBOR,
// MarshalJSON and Validate refuse it (ErrLink, ErrBytes), while ScanCBOR, a pure syntax check,
// lets it pass. The encoders refuse every map the decoders refuse (ErrLink, ErrBytes, ErrType,
// ErrBlob) and, given the same options, every tree beyond the decoders' limits on depth,
// elements, key and CID length, so that what they write reads back; MarshalCBORStruct does too,
// with MarshalCBOR's errors.
//
// Go structs, such as the types a Lexicon code generator writes, are read and written by
// UnmarshalCBORStruct and MarshalCBORStruct: atcore's own typed codec, which compiles a plan per Go
// type once (the fields in canonical key order, their keys precomputed) and walks the bytes
// once, with the same rules, limits and located errors as UnmarshalCBOR and MarshalCBOR. Keys
// match field names exactly; unknown keys are ignored, kept in an UnknownFields field (so that a
// record written back keeps its bytes and CID), or refused (DisallowUnknownFields). MarshalCBOR,
// AppendCBOR, RecordCID, MarshalJSON and AppendJSON use the same typed encoders for a struct at
// the top (the same bytes as the generic walk, in 0.19× (CBOR) and 0.27× (JSON) the time on the
// post, BenchmarkGoValue). Link, Blob, Union and tid.TID also implement fxamacker/cbor's
// Marshaler and Unmarshaler, for programs that bring their own fxamacker modes; that path checks
// each value alone, at the default limits. Bytes has no such methods and needs none: fxamacker
// writes and reads it, a []byte, as a byte string.
//
// Limits protect against hostile input; see Limits. WithSafeIntegers narrows integers to the
// ±(2^53−1) that JavaScript holds exactly, on every entry point that takes options.
package datamodel

// The files, by concern (in the spirit of encoding/json/v2: a wire layer under the value layer):
//
//	errors.go       Error, the sentinels, how paths are built on the way out (atKey, atIndex)
//	messages.go     how details name what was found: data-model kinds, Go types where at fault
//	options.go      Limits, Option, the one wording of limit errors (overLimit)
//	safeint.go      WithSafeIntegers: integers within ±(2^53−1), ErrUnsafeInteger
//	types.go        Bytes, Link, Blob; goInt, how every Go integer type is read
//	rules.go        the data-model rules (DECISIONS rules 10–13), each written once
//	slabs.go        the decoders' slabs: many values boxed per allocation
//
//	cbor_wire.go    CBOR heads, text, links and binary CIDs (the wire layer)
//	cbor_scan.go    ScanCBOR: the syntax check, no values
//	cbor_decode.go  UnmarshalCBOR, UnmarshalCBORPrefix
//	cbor_encode.go  MarshalCBOR, AppendCBOR
//	typed_plan.go   the typed codec's plans: how a Go type is read and written, once per type
//	typed_fields.go a struct's fields at run time: addresses, omitempty and omitzero, integers
//	typed_cbor_decode.go  the typed CBOR decoder: bytes into Go values by their plans
//	typed_cbor_containers.go its maps and arrays: structs, Go maps, slices
//	typed_cbor_encode.go  the typed CBOR encoder: Go values to bytes by their plans
//	typed_cbor_objects.go its structs and Go maps, in canonical key order
//	cbor_struct.go  UnmarshalCBORStruct, MarshalCBORStruct, DisallowUnknownFields; the fxamacker
//	                methods of Link and Blob, for those who bring their own fxamacker modes
//
//	json_lex.go     JSON whitespace, strings, numbers (the lexing layer)
//	json_cache.go   the JSON decoder's key and $type caches and its string arena
//	json_decode.go  UnmarshalJSON: entry, decoder state, values, arrays
//	json_quick.go   the quick object path
//	json_careful.go the careful object path, which the quick one is fuzzed against
//	json_encode.go  MarshalJSON, MarshalJSONIndent, AppendJSON
//	json_types.go   encoding/json methods of Bytes, Link, Blob
//	typed_json_decode.go     UnmarshalJSONStruct: atproto JSON into Go values, on the typed plans
//	typed_json_containers.go its objects, maps and arrays
//	typed_json_encode.go     MarshalJSONStruct: Go values as atproto JSON, as MarshalJSON writes them
//	typed_json_objects.go    its objects (structs, maps) and the map rules on them
//
//	encode.go       what both encoders share: limits, cycle guard, buffer pool, key sorting
//	validate.go     Validate, ValidateRecord
//	walk.go         Blobs, Links
//	record.go       RecordCID
//	peek.go         RecordTypeCBOR, RecordTypeJSON: a record's $type without decoding the rest
//	registry.go     Registry: NSID to Go struct; DecodeCBOR, DecodeJSON by a record's $type
//	union.go        Union, ClosedUnion: union fields, decoded by their member's $type
//	govalue.go      Go slices, maps, pointers and structs at the generic entry points
//	convert.go      JSONToCBOR, CBORToJSON
//	stream.go       CBORDecoder, JSONDecoder: values one at a time from an io.Reader
