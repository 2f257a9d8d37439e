package datamodel

import (
	"reflect"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/cidutil"
)

// RecordCID returns the CID of v's canonical DAG-CBOR encoding: CIDv1, dag-cbor, sha2-256
// (DECISIONS rule 12), the CID a repository gives the record. v is a record: a map[string]any
// that ValidateRecord accepts, or a Go struct (or non-nil pointer to one), such as a Lexicon
// type, which is encoded with MarshalCBORStruct. It refuses what ValidateRecord refuses: a value
// that is not an object, a nil struct pointer included, is not a record (ErrNotRecord, with
// ValidateRecord's detail); other errors are those of the encoder used.
//
// A generic value is encoded into a pooled buffer and hashed there, so the call allocates only
// the CID.
func RecordCID(v any) (cid.Cid, error) {
	if recordIsStruct(v) {
		data, err := MarshalCBORStruct(v)
		if err != nil {
			return cid.Undef, err
		}
		if data[0]>>5 != 5 { // a nil pointer (null), or a struct written as an array (toarray)
			return cid.Undef, errNotRecord(v)
		}
		return cidutil.SumCBOR(data), nil
	}
	if _, ok := v.(map[string]any); !ok {
		return cid.Undef, errNotRecord(v)
	}
	pooled := getEncodeBuf()
	buf, err := AppendCBOR(*pooled, v)
	var c cid.Cid
	if err == nil {
		c = cidutil.SumCBOR(buf)
	}
	putEncodeBuf(pooled, buf)
	return c, err
}

// errNotRecord is the error for a top-level value v that is not an object (ValidateRecord's).
func errNotRecord(v any) *Error {
	return &Error{Err: ErrNotRecord, Offset: -1, Detail: describe(v)}
}

// recordIsStruct reports whether v is a Go struct, or a pointer to one, other than the
// data-model types that MarshalCBOR encodes itself.
func recordIsStruct(v any) bool {
	switch v.(type) {
	case Blob, *Blob, Link, cid.Cid:
		return false
	}
	t := reflect.TypeOf(v)
	if t == nil {
		return false
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}
