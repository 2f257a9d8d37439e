package tid

import (
	"fmt"

	"github.com/atcore/atcore/internal/plural"
)

// cborTextHead is the CBOR head of a text string of Len bytes (major type 3, length 13): the
// only form a TID takes in an atproto record (https://atproto.com/specs/data-model).
const cborTextHead = 0x60 | Len

// MarshalCBOR writes t as the CBOR text string of its 13 characters. It makes any CBOR encoder
// that honours Marshaler methods (fxamacker/cbor in any mode) write what records carry, never
// the 8 bytes of [TID.MarshalBinary] nor the bare integer.
func (t TID) MarshalCBOR() ([]byte, error) {
	b := make([]byte, 1, 1+Len)
	b[0] = cborTextHead
	return t.AppendText(b)
}

// UnmarshalCBOR reads a TID from one CBOR data item: a text string of 13 characters in its one
// canonical form (head 0x6d), holding a TID as [Parse] reads it. Anything else is an error that
// matches [ErrSyntax].
func (t *TID) UnmarshalCBOR(data []byte) error {
	if len(data) == 0 || data[0] != cborTextHead || len(data) != 1+Len {
		what := "nothing"
		if len(data) > 0 {
			what = fmt.Sprintf("a CBOR item of %d byte%s with head 0x%02x", len(data), plural.S(len(data)), data[0])
		}
		return fmt.Errorf("tid: a TID in CBOR is a text string of %d bytes (head 0x%02x), not %s: %w",
			Len, cborTextHead, what, ErrSyntax)
	}
	v, err := Parse(string(data[1:]))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
