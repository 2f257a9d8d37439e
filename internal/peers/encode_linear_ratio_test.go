package peers

import (
	"testing"

	"github.com/atcore/atcore/datamodel"
)

// BenchmarkEncodeLinearRatio times atcore's encode of the 900 KB record and of the 50 KB one in
// turn (see interleaved), for the target of issue 16 that the encoders be linear in output size:
// x-per-byte is the cost per output byte of the large record over that of the small one (at
// most 1.25 for the target). The two rows of BenchmarkCBOREncode (BenchmarkJSONEncode) that the
// same target is read from are timed seconds apart, and on a loaded machine one of them can land
// in a quiet stretch and the other not; here both sides see the same load. One operation of the
// small side encodes the 50 KB record as many times as makes about 900 KB of output, so that the
// two sides' batches are alike in length.
// Run it with a fixed iteration count, e.g. -benchtime 20x.
func BenchmarkEncodeLinearRatio(b *testing.B) {
	var large, small benchRecord
	for _, rec := range benchRecords(b) {
		switch rec.name {
		case "big900k":
			large = rec
		case "big50k":
			small = rec
		}
	}
	if large.parts == nil || small.parts == nil {
		b.Fatal("the big900k and big50k inputs are missing")
	}
	for _, enc := range []struct {
		name   string
		json   bool
		decode func([]byte) (any, error)
		encode func(any) ([]byte, error)
	}{
		{"cbor", false, atcoreCBOR, func(v any) ([]byte, error) { return datamodel.MarshalCBOR(v) }},
		{"json", true, atcoreJSON, func(v any) ([]byte, error) { return datamodel.MarshalJSON(v) }},
	} {
		b.Run("enc="+enc.name, func(b *testing.B) {
			big := decodeParts(b, large.parts, enc.json, enc.decode)[0]
			little := decodeParts(b, small.parts, enc.json, enc.decode)[0]
			bigOut, err := enc.encode(big)
			if err != nil {
				b.Fatal(err)
			}
			littleOut, err := enc.encode(little)
			if err != nil {
				b.Fatal(err)
			}
			reps := max(1, (len(bigOut)+len(littleOut)/2)/len(littleOut))
			med := interleaved(b, len(bigOut), [2]string{"big900k", "big50k"}, [2]func() error{
				func() error {
					out, err := enc.encode(big)
					sinkAny = out
					return err
				},
				func() error {
					for range reps {
						out, err := enc.encode(little)
						if err != nil {
							return err
						}
						sinkAny = out
					}
					return nil
				},
			})
			perByte := [2]float64{med[0] / float64(len(bigOut)), med[1] / float64(reps*len(littleOut))}
			b.ReportMetric(perByte[0]/perByte[1], "x-per-byte")
		})
	}
}
