package cidutil

import (
	"reflect"
	"unsafe"

	cid "github.com/ipfs/go-cid"
)

// wrap returns the cid.Cid whose binary form is b, which must be a CID already checked (or built)
// here: for a []byte, with the one allocation that copies b into the CID's string; a string is
// used as it is.
//
// go-cid has no constructor that takes bytes it has not parsed itself: NewCidV1 re-encodes the
// version and codec through a strings.Builder, and Cast parses everything again. Skipping that
// took SumCBOR of a 107-byte record from 193.7 to 177.7 ns (internal/peers BenchmarkRecordCID,
// bare sha256 136 ns).
// A cid.Cid is a struct holding just the binary CID as a string, so when that is still its
// layout (checked once, by reflection) the string is the Cid. Otherwise wrap takes the slow road.
func wrap[T string | []byte](b T, codecEnd int) cid.Cid {
	if cidIsString {
		s := string(b)
		return *(*cid.Cid)(unsafe.Pointer(&s))
	}
	codec := uint64(b[1])
	if codecEnd != 2 {
		codec, _, _ = uvarint(b, 1)
	}
	return cid.NewCidV1(codec, []byte(b[codecEnd:]))
}

// cidIsString reports whether cid.Cid is laid out exactly as a string: one field, of kind string.
var cidIsString = func() bool {
	t := reflect.TypeFor[cid.Cid]()
	return t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Type.Kind() == reflect.String &&
		t.Size() == unsafe.Sizeof("")
}()
