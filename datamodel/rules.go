package datamodel

import (
	"fmt"
	"strconv"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/internal/utf8v"
)

// The data-model rules (DECISIONS rules 10–13), each written once, with one wording. The scanner,
// both decoders, both encoders, Validate, the walks and the struct path call these; the fast paths
// that do not (the CBOR decoder's blob and the JSON quick path) only ever accept what these
// accept, and hand everything else to a path that calls them (rules_test.go, json_paths_test.go).
//
// Each function returns an *Error with Offset -1 and the Path inside the map it checks (such as
// "/size"); a decoder sets the offset of the bytes at fault, and every caller on the way out puts
// its own path in front (atKey, atIndex).
//
//   - errReservedKey: no map has a "$link" or "$bytes" key (rule 10).
//   - checkType: "$type", where present, is a non-empty string (rule 11).
//   - blobFromMap, blobMember: a map typed "blob" has exactly the blob shape (rule 13).
//   - checkBlob: a Blob value is one the encoders can write (rule 13).
//   - legacyBlob: the deprecated {cid, mimeType} form, taken only when it round-trips (rule 13).
//   - checkLink, cidTooLong: a link is a defined CIDv1 within Limits.MaxCIDLen (rules 12, 14).
//   - describe, describeHead: how an error names the value it found.

// Details of the reserved-key errors (rule 10).
const (
	detailLinkKey  = "a map with a $link key is not a link"
	detailBytesKey = "a map with a $bytes key is not bytes"
)

// errReservedKey returns the error for a map with the key key if key is "$link" or "$bytes": in
// atproto JSON such a map would read back as a link or bytes, not as itself (rule 10). It returns
// nil for any other key.
func errReservedKey(key string) *Error {
	switch key {
	case "$link":
		return valueError(ErrLink, detailLinkKey).atKey(key)
	case "$bytes":
		return valueError(ErrBytes, detailBytesKey).atKey(key)
	}
	return nil
}

// checkType checks the value t of a "$type" key: a non-empty string (rule 11), or a Go value
// written as one (see typeString).
func checkType(t any) *Error {
	if s, ok := typeString(t); !ok || s == "" {
		return errType(describe(t))
	}
	return nil
}

// typeString returns the string that t, the value of a "$type" key, is written as, and whether it
// is one: t itself, or the string a Go value stands for (a named string type, a *string:
// govalue.go), so that a Go value is checked as the equal generic tree. A decoded tree's string
// is taken at the first test.
func typeString(t any) (s string, ok bool) {
	if s, ok = t.(string); !ok {
		s, ok = goString(t)
	}
	return s, ok
}

// goString is typeString for a value other than a string.
func goString(v any) (string, bool) {
	g, ok := goGeneric(v)
	s, isString := g.(string)
	return s, ok && isString
}

// goGeneric returns the generic value that v, a Go value other than a generic one, stands for, as
// goValue converts it; ok is false for a generic v and for a value goValue refuses. The rules call
// it where a generic value fails them, so that decoded trees never pay for it.
func goGeneric(v any) (g any, ok bool) {
	if isGeneric(v) {
		return nil, false
	}
	g, err := goValue(v, goLoose)
	return g, err == nil
}

// errType is the error for a "$type" whose value is found (see describe): rule 11 asks for a
// non-empty string.
func errType(found string) *Error {
	return valueError(ErrType, typeWant+found).atKey("$type")
}

// typeWant begins the detail of every ErrType about the value of a "$type" key.
const typeWant = "want a non-empty string, "

// checkMapShape applies the rules about reserved keys to a map: no "$link" or "$bytes" key
// (rule 10), a "$type" that is a non-empty string (rule 11), and a map typed "blob" exactly the
// blob shape (rule 13), so that it reads back as the same Blob.
func checkMapShape(m map[string]any, maxCIDLen int) *Error {
	if _, ok := m["$link"]; ok {
		return errReservedKey("$link")
	}
	if _, ok := m["$bytes"]; ok {
		return errReservedKey("$bytes")
	}
	t, ok := m["$type"]
	if !ok {
		return nil
	}
	return checkTypedMap(m, t, maxCIDLen)
}

// checkTypedMap is checkMapShape for a map m whose "$type" key holds t, once the reserved keys are
// known to be absent.
func checkTypedMap(m map[string]any, t any, maxCIDLen int) *Error {
	s, ok := typeString(t)
	if !ok || s == "" {
		return errType(describe(t))
	}
	if s != "blob" {
		return nil
	}
	_, err := blobFromMap(m, maxCIDLen)
	return err
}

// blobKeys are the keys of a blob besides "$type", in the order their errors are reported.
var blobKeys = [3]string{"ref", "mimeType", "size"}

// blobFromMap converts a map typed "blob" to a Blob if it has exactly the shape of rule 13: ref a
// link, mimeType a non-empty string, size an integer ≥ 0, no other key. The error names the
// least unexpected key in bytewise order if there is one, else the first missing key, else the
// first bad value in the order of blobKeys.
func blobFromMap(m map[string]any, maxCIDLen int) (Blob, *Error) {
	for _, k := range blobKeys {
		if _, ok := m[k]; !ok || len(m) != 1+len(blobKeys) {
			if x, found := blobExtraKey(m); found {
				return Blob{}, errBlobUnexpected(x)
			}
			// No extra key, so one is missing: name the first missing one, not k.
			for _, k := range blobKeys {
				if _, ok := m[k]; !ok {
					return Blob{}, errBlobMissing(k)
				}
			}
		}
	}
	var b Blob
	for _, k := range blobKeys {
		if err := blobMember(&b, k, m[k], maxCIDLen); err != nil {
			return Blob{}, err
		}
	}
	return b, nil
}

// blobExtraKey returns the least key of m, bytewise, that a blob does not have.
func blobExtraKey(m map[string]any) (extra string, found bool) {
	for k := range m {
		switch k {
		case "$type", "ref", "mimeType", "size":
			continue
		}
		if !found || k < extra {
			extra, found = k, true
		}
	}
	return extra, found
}

// blobMember checks the member key: v of a map typed "blob" and stores it in b. The "$type"
// member is checked by the caller; any key a blob does not have is an error. A Go value (a *Link,
// a named string type) is checked as the generic value it stands for (goGeneric).
func blobMember(b *Blob, key string, v any, maxCIDLen int) *Error {
	switch key {
	case "$type":
		return nil
	case "ref":
		var c cid.Cid
		switch x := v.(type) {
		case Link:
			c = cid.Cid(x)
		case cid.Cid:
			c = x
		default:
			if g, ok := goGeneric(v); ok {
				return blobMember(b, key, g, maxCIDLen)
			}
			return valueError(ErrBlob, "ref must be a link, "+describe(v)).atKey(key)
		}
		if err := checkLink(c, maxCIDLen); err != nil {
			return err.atKey(key)
		}
		b.Ref = Link(c)
	case "mimeType":
		s, ok := v.(string)
		if !ok {
			if g, ok := goGeneric(v); ok {
				return blobMember(b, key, g, maxCIDLen)
			}
		}
		if !ok || s == "" {
			return errBlobMimeType(v)
		}
		b.MimeType = s
	case "size":
		n, isInt, err := goInt(v)
		switch {
		case !isInt:
			if g, ok := goGeneric(v); ok {
				return blobMember(b, key, g, maxCIDLen)
			}
			return valueError(ErrBlob, "size must be an integer, "+describe(v)).atKey(key)
		case err != nil:
			return err.(*Error).atKey(key)
		case n < 0:
			return errBlobNegativeSize()
		}
		b.Size = n
	default:
		return errBlobUnexpected(key)
	}
	return nil
}

func errBlobMissing(key string) *Error {
	return valueError(ErrBlob, "missing key "+strconv.Quote(key))
}

func errBlobUnexpected(key string) *Error {
	return valueError(ErrBlob, "unexpected key "+strconv.Quote(key)).atKey(key)
}

func errBlobMimeType(v any) *Error {
	return valueError(ErrBlob, "mimeType must be a non-empty string, "+describe(v)).atKey("mimeType")
}

func errBlobNegativeSize() *Error {
	return valueError(ErrBlob, "size must not be negative").atKey("size")
}

// checkBlob checks a Blob as the encoders require (rule 13): a non-empty UTF-8 MimeType, a
// defined CIDv1 Ref, and for a new-form blob a Size ≥ 0 and a Ref within maxCIDLen bytes.
func checkBlob(b *Blob, maxCIDLen int) *Error {
	if b.MimeType == "" {
		return errBlobMimeType(b.MimeType)
	}
	if !utf8v.ValidString(b.MimeType) {
		return valueError(ErrInvalidUTF8, quoteDetail(b.MimeType)).atKey("mimeType")
	}
	if !b.Ref.Defined() {
		return valueError(ErrBlob, "ref must be a link, "+describe(b.Ref)).atKey("ref")
	}
	if b.Legacy {
		// The CID is a string in this form, not a link: only the version matters (rule 12).
		if b.Ref.CID().KeyString()[0] != 1 {
			return valueError(ErrBlob, detailNotV1).atKey("cid")
		}
		return nil
	}
	if b.Size < 0 {
		return errBlobNegativeSize()
	}
	if err := checkLink(cid.Cid(b.Ref), maxCIDLen); err != nil {
		return err.atKey("ref")
	}
	return nil
}

// legacyBlob recognises the deprecated blob {"cid": <CID string>, "mimeType": <string>}
// (https://atproto.com/specs/data-model, "blob Type"), given the values of its two keys. It is
// only taken for a blob when mimeType is non-empty and the CID string is exactly the canonical
// form of a valid CIDv1, so that Blob.Ref.String() gives back the very string read and the
// record's bytes survive a round trip (rule 13); anything else stays a plain map, as it may.
func legacyBlob(cidVal, mimeVal any) (Blob, bool) {
	s, ok := cidVal.(string)
	mime, ok2 := mimeVal.(string)
	if !ok || !ok2 || mime == "" {
		return Blob{}, false
	}
	c, err := cidutil.ParseString(s)
	if err != nil || c.String() != s {
		return Blob{}, false
	}
	return Blob{Ref: Link(c), MimeType: mime, Legacy: true}, true
}

// detailNotV1 is the detail for a CID that is not a CIDv1: CIDv0 has no version byte (it starts
// 0x12 0x20) and is never valid (rule 12).
const detailNotV1 = "not a CIDv1"

// checkLink checks a link as the encoders require: defined, CIDv1 (rule 12), at most maxLen
// bytes (Limits.MaxCIDLen, rule 14).
func checkLink(c cid.Cid, maxLen int) *Error {
	b := c.KeyString() // the binary CID, without copying
	switch {
	case len(b) == 0:
		return valueError(ErrInvalidCID, "undefined CID")
	case b[0] != 1:
		return valueError(ErrInvalidCID, detailNotV1)
	case len(b) > maxLen:
		return valueError(ErrInvalidCID, cidTooLong(len(b), maxLen))
	}
	return nil
}

// cidTooLong is the detail for a binary CID of n bytes, over the limit (rule 14).
func cidTooLong(n, limit int) string {
	return strconv.Itoa(n) + " bytes, limit " + strconv.Itoa(limit)
}

// describe names the kind of value v, for error details: "found an integer".
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "found null"
	case bool:
		return "found a boolean"
	case string:
		if x == "" {
			return "found an empty string"
		}
		return "found a string"
	case []any:
		if x == nil {
			return "found null" // as the encoders write it
		}
		return "found an array"
	case map[string]any:
		if x == nil {
			return "found null"
		}
		return "found an object"
	case Link:
		if !x.Defined() {
			return "found an undefined link"
		}
		return "found a link"
	case cid.Cid:
		return describe(Link(x))
	case Bytes, []byte:
		return "found bytes"
	case Blob, *Blob:
		return "found a blob"
	case float32, float64:
		return "found a float"
	}
	if _, isInt, _ := goInt(v); isInt {
		return "found an integer"
	}
	if g, err := goValue(v, goLoose); err == nil { // a Go value that stands for a generic one: govalue.go
		return describe(g)
	}
	return "found " + describeGo(v)
}

// describeHead is describe for the CBOR item whose initial byte is h, for the scanner, which
// builds no value. The item is known to be valid, so a text string with a zero length is the
// only string it is asked about as empty.
func describeHead(h byte) string {
	switch h >> 5 {
	case 0, 1:
		return "found an integer"
	case 2:
		return "found bytes"
	case 3:
		if h == cborMajorText {
			return "found an empty string"
		}
		return "found a string"
	case 4:
		return "found an array"
	case 5:
		return "found an object"
	case 6:
		return "found a link"
	}
	if h == cborNull {
		return "found null"
	}
	return "found a boolean"
}

// otherGoValue classifies a Go value that is none of the types the encoders switch on and has no
// plan of its own in goValue: the other Go integer types are integers (within int64, DECISIONS
// rule 9); floats are refused, as the data model has none (https://atproto.com/specs/data-model,
// "Why No Floats?"); anything else is outside the data model.
func otherGoValue(v any) (int64, *Error) {
	switch v.(type) {
	case float32, float64:
		return 0, valueError(ErrFloat, fmt.Sprintf("%T %v", v, v))
	}
	n, isInt, err := goInt(v)
	if !isInt {
		return 0, valueError(ErrUnsupported, describeGo(v))
	}
	if err != nil {
		return 0, err.(*Error)
	}
	return n, nil
}
