package peers

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/datamodel"
)

// BenchmarkCBORStreamDecode reads each input's records back to back as one stream in memory:
// atcore's CBORDecoder over an io.Reader, atcore's UnmarshalCBORPrefix in a loop over the bytes
// (the same decoder without a reader), and fxamacker's Decoder over an io.Reader (plain CBOR:
// it checks much less, see CONFORMANCE.md).
func BenchmarkCBORStreamDecode(b *testing.B) {
	for _, rec := range benchRecords(b) {
		var stream []byte
		for _, p := range rec.parts {
			stream = append(stream, p.CBOR...)
		}
		n := len(rec.parts)
		b.Run("rec="+rec.name, func(b *testing.B) {
			r := bytes.NewReader(stream)
			benchImpl(b, "atcore", len(stream), func() (int, error) {
				r.Reset(stream)
				d := datamodel.NewCBORDecoder(r)
				return countValues(n, func() error { _, err := d.Decode(); return err })
			})
			benchImpl(b, "atcore-prefix", len(stream), func() (int, error) {
				k := 0
				for data := stream; len(data) > 0; k++ {
					_, rest, err := datamodel.UnmarshalCBORPrefix(data)
					if err != nil {
						return k, err
					}
					data = rest
				}
				return k, nil
			})
			benchImpl(b, "fxamacker", len(stream), func() (int, error) {
				r.Reset(stream)
				d := cbor.NewDecoder(r)
				return countValues(n, func() error { var v any; return d.Decode(&v) })
			})
		})
	}
}

// countValues calls next until io.EOF and checks that it gave n values.
func countValues(n int, next func() error) (int, error) {
	k := 0
	for ; ; k++ {
		err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return k, err
		}
	}
	if k != n {
		return k, errors.New("wrong number of values")
	}
	return k, nil
}
