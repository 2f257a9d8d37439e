// Package datamodel reads, writes, validates and hashes atproto records: the data model of
// spec/data-model.txt in its two forms, DAG-CBOR (binary, byte-reproducible, what is signed and
// hashed) and atproto JSON (what HTTP APIs carry).
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
// Decoding is strict (DECISIONS.md rules 9–15, at the root of the repository): anything that is
// not canonical DAG-CBOR, or not valid atproto JSON, is rejected with an *Error that gives the
// byte offset, the JSON Pointer of the value and the rule broken, and that matches one of the
// Err* sentinels with errors.Is. A map with a "$link" or "$bytes" key is not a data-model value, since
// JSON would read it back as a link or bytes: UnmarshalCBOR, UnmarshalCBORStruct, MarshalCBOR,
// MarshalJSON and Validate refuse it (ErrLink, ErrBytes), while ScanCBOR, a pure syntax check,
// lets it pass. The encoders refuse every map the decoders refuse (ErrLink, ErrBytes, ErrType,
// ErrBlob) and, given the same options, every tree beyond the decoders' limits on depth,
// elements, key and CID length, so that what they write reads back.
// Limits protect against hostile input; see Limits.
package datamodel
