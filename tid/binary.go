package tid

import (
	"encoding/binary"
	"fmt"

	"github.com/atcore/atcore/internal/plural"
)

// BytesLen is the length of a TID's binary form.
const BytesLen = 8

// The binary form is also offered as MarshalBinary and UnmarshalBinary (encoding/gob, key-value
// stores). CBOR encoders such as fxamacker/cbor prefer encoding.BinaryMarshaler to
// encoding.TextMarshaler by default, and would then write a TID field as 8 bytes instead of the
// 13-character string atproto records carry: TID implements MarshalCBOR and UnmarshalCBOR
// (cbor.go), which such encoders prefer to both, so that any CBOR mode writes the string.

// Bytes returns the binary form of t: its 64-bit value, big-endian
// (https://atproto.com/specs/tid: "big-endian byte ordering"), so that the binary forms of TIDs
// sort bytewise as the TIDs do, e.g. as keys of an ordered key-value store.
func (t TID) Bytes() [BytesLen]byte {
	var b [BytesLen]byte
	binary.BigEndian.PutUint64(b[:], uint64(t))
	return b
}

// AppendBytes appends the 8 bytes of [TID.Bytes] to b.
func (t TID) AppendBytes(b []byte) []byte {
	return binary.BigEndian.AppendUint64(b, uint64(t))
}

// FromBytes reads the binary form of a TID ([TID.Bytes]): exactly 8 bytes, a 64-bit big-endian
// value. Every value is a TID, as every 13-character string of the spec regex is (DECISIONS
// rule 4); a wrong length is an error matching [ErrSyntax].
func FromBytes(b []byte) (TID, error) {
	if len(b) != BytesLen {
		return 0, fmt.Errorf("tid: binary TID of %d byte%s, want %d: %w", len(b), plural.S(len(b)), BytesLen, ErrSyntax)
	}
	return TID(binary.BigEndian.Uint64(b)), nil
}

// MarshalBinary implements [encoding.BinaryMarshaler] with the 8 bytes of [TID.Bytes].
func (t TID) MarshalBinary() ([]byte, error) { return t.AppendBytes(make([]byte, 0, BytesLen)), nil }

// UnmarshalBinary implements [encoding.BinaryUnmarshaler], reading what [FromBytes] reads.
func (t *TID) UnmarshalBinary(b []byte) error {
	v, err := FromBytes(b)
	if err != nil {
		return err
	}
	*t = v
	return nil
}
