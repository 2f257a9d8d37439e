package datamodel

import (
	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/cidutil"
)

// RecordCID returns the CID of v's canonical DAG-CBOR encoding: CIDv1, dag-cbor, sha2-256
// (DECISIONS rule 12), the CID a repository gives the record. v is a record: a value that
// ValidateRecord accepts, so a map[string]any, or a Go value that stands for an object: a struct
// (or non-nil pointer to one), such as a Lexicon type, or a map with string keys (see
// MarshalCBOR for how Go values are read). The bytes hashed are MarshalCBOR's. It refuses what
// ValidateRecord refuses: a value that is not an object, a nil struct pointer included, is not a
// record (ErrNotRecord, with ValidateRecord's detail); other errors are MarshalCBOR's.
//
// The record is encoded into a pooled buffer and hashed there, so for a map[string]any the call
// allocates only the CID.
func RecordCID(v any) (cid.Cid, error) {
	pooled := getEncodeBuf()
	if isGoStruct(v) {
		// The typed encoder (see isGoStruct); what it writes is a record if it is a map, not the
		// text or bytes of a struct type with a method of its own.
		e := typedEncoder{cborEncoder: cborDefaultEncoder, generic: true}
		if buf, err := e.top(*pooled, v); err == nil && len(buf) > 0 && buf[0]&0xe0 == cborMajorMap && !cborIsBlob(buf) {
			c := cidutil.SumCBOR(buf)
			putEncodeBuf(pooled, buf)
			return c, nil
		}
	}
	m, ok := recordMap(v, DefaultMaxDepth)
	if !ok {
		putEncodeBuf(pooled, *pooled)
		return cid.Undef, errNotRecord(v)
	}
	buf, err := AppendCBOR(*pooled, m)
	var c cid.Cid
	switch {
	case err == nil && cborIsBlob(buf):
		b, _ := mapIsBlob(m)
		err = errNotRecord(b) // ValidateRecord's error
	case err == nil:
		c = cidutil.SumCBOR(buf)
	}
	putEncodeBuf(pooled, buf)
	return c, err
}

// recordMap returns v as the map the record rules apply to: v itself, or the map a Go struct or
// map stands for (its fields or entries, converted one level by goValue); ok is false when v is
// not an object, as ValidateRecord and RecordCID both decide. maxDepth is the MaxDepth of the
// walk that takes m next, from depth 1.
func recordMap(v any, maxDepth int) (m map[string]any, ok bool) {
	if m, ok = v.(map[string]any); ok || isGeneric(v) {
		return m, m != nil // a nil map is null, as the encoders write it: not an object
	}
	g, err := goValue(v, goAt{1, maxDepth})
	if err != nil {
		return nil, false
	}
	m, ok = g.(map[string]any)
	return m, ok
}

// errNotRecord is the error for a top-level value v that is not an object (ValidateRecord's).
func errNotRecord(v any) *Error {
	return &Error{Err: ErrNotRecord, Offset: -1, Detail: describe(v)}
}
