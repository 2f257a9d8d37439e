package datamodel

import (
	"math"
	"strconv"

	cid "github.com/ipfs/go-cid"
)

// Bytes is the data model's bytes type: a CBOR byte string, {"$bytes": base64} in JSON.
type Bytes []byte

// Link is the data model's cid-link type: a CBOR tag 42, {"$link": cid} in JSON.
//
// A Link read from a record keeps the CID exactly as it was written (any CIDv1: the repository
// spec asks implementations to retain exact links); CIDs this module creates are always the blessed
// form. Convert with Link(c) and cid.Cid(l). The zero Link is undefined and is never encoded.
type Link cid.Cid

// CID returns l as a cid.Cid.
func (l Link) CID() cid.Cid { return cid.Cid(l) }

// Defined reports whether l holds a CID.
func (l Link) Defined() bool { return cid.Cid(l).Defined() }

// String returns the CID in its canonical string form (base32 "b…" for CIDv1), or "" for an
// undefined Link (go-cid prints "b" for that, which is not a CID).
func (l Link) String() string {
	if !l.Defined() {
		return ""
	}
	return cid.Cid(l).String()
}

// Blob is a reference to a blob (https://atproto.com/specs/data-model, "blob Type"):
//
//	{"$type": "blob", "ref": <raw CID link>, "mimeType": <non-empty string>, "size": <integer ≥ 0>}
//
// A Blob with Legacy set was read from the deprecated form {"cid": <CID string>, "mimeType": …}.
// It is written back in that same form, so that the record's bytes and CID survive a round trip;
// its Size is unknown and is 0. The encoders never write a new Blob in the legacy form.
type Blob struct {
	Ref      Link   // CID of the blob's bytes, codec raw (0x55) when the module creates it
	MimeType string // content type; "application/octet-stream" if not known
	Size     int64  // length of the blob in bytes
	Legacy   bool   // read from the deprecated {cid, mimeType} form
}

// goInt converts any Go integer type to the data model's integer. isInt is false for a value of
// another type; err (ErrIntegerRange) is set for an unsigned value above math.MaxInt64, which the
// data model cannot hold (DECISIONS rule 9). The encoders, Validate and the blob walk all read
// integers through it.
func goInt(v any) (n int64, isInt bool, err error) {
	var u uint64
	switch x := v.(type) {
	case int64:
		return x, true, nil
	case int:
		return int64(x), true, nil
	case int8:
		return int64(x), true, nil
	case int16:
		return int64(x), true, nil
	case int32:
		return int64(x), true, nil
	case uint:
		u = uint64(x)
	case uint8:
		u = uint64(x)
	case uint16:
		u = uint64(x)
	case uint32:
		u = uint64(x)
	case uint64:
		u = x
	default:
		return 0, false, nil
	}
	if u > math.MaxInt64 {
		return 0, true, valueError(ErrIntegerRange, strconv.FormatUint(u, 10))
	}
	return int64(u), true, nil
}
