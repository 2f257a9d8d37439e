package datamodel

import (
	"reflect"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/cidutil"
)

// RecordCID returns the CID of v's canonical DAG-CBOR encoding: CIDv1, dag-cbor, sha2-256
// (DECISIONS rule 12), the CID a repository gives the record. v is any value MarshalCBOR accepts,
// normally a record (a map; see ValidateRecord), or a Go struct (or pointer to one), such as a
// Lexicon type, which is encoded with MarshalCBORStruct. Errors are those of the encoder used.
//
// A generic value is encoded into a pooled buffer and hashed there, so the call allocates only
// the CID.
func RecordCID(v any) (cid.Cid, error) {
	if recordIsStruct(v) {
		data, err := MarshalCBORStruct(v)
		if err != nil {
			return cid.Undef, err
		}
		return cidutil.SumCBOR(data), nil
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

// recordIsStruct reports whether v is a Go struct, or a non-nil pointer to one, other than the
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
