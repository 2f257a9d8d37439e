//go:build amd64

package peers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bytedance/sonic"
)

// sonic compiles JIT code for amd64 (its other targets fall back to encoding/json), so it is a
// peer only there. Its Unmarshal of a []byte copies the whole input once (string(buf)) and decodes
// strings as views of that copy, so the result does not alias the caller's buffer; it checks no
// UTF-8. sonic-copy is sonic doing what atcore does there: CopyString (each decoded string is a
// copy of its own, so that no string keeps the whole input's copy alive) and ValidateString
// (invalid UTF-8 and raw control characters are errors, on decode and encode).
func init() {
	sonicCopy := sonic.Config{CopyString: true, ValidateString: true}.Froze()
	jsonPeers = append(jsonPeers,
		jsonPeer{"sonic", func(d []byte, v *any) error { return sonic.Unmarshal(d, v) }, sonic.Marshal},
		jsonPeer{"sonic-copy", func(d []byte, v *any) error { return sonicCopy.Unmarshal(d, v) }, sonicCopy.Marshal})
}

// sonicAny is sonic's default decode into any.
func sonicAny(d []byte) (any, error) {
	var v any
	err := sonic.Unmarshal(d, &v)
	return v, err
}

// BenchmarkJSONDecodeRatio times atcore's UnmarshalJSON and sonic's decode into any of every
// input of BenchmarkJSONDecode alternately, batch by batch (see interleaved), for the target of
// issue 16 (UnmarshalJSON at least as fast as sonic) on a machine whose load changes.
// Run it with a fixed iteration count, e.g. -benchtime 20x.
func BenchmarkJSONDecodeRatio(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			interleaved(b, rec.jsize, [2]string{"atcore", "sonic"}, [2]func() error{
				decodeAll(rec.parts, true, atcoreJSON),
				decodeAll(rec.parts, true, sonicAny),
			})
		})
	}
}

// BenchmarkJSONDecodeRatioCollected is BenchmarkJSONDecodeRatio with batches of about 16 MiB of
// input each, which run through collections of their own garbage (atcore-gcs and sonic-gcs count
// them): the cost of the allocations as a program pays it over time, where most of
// BenchmarkJSONDecodeRatio's short batches pay only the allocations. Context for issue 16's
// target, not its measure.
func BenchmarkJSONDecodeRatioCollected(b *testing.B) {
	for _, rec := range benchRecords(b) {
		b.Run("rec="+rec.name, func(b *testing.B) {
			interleavedBatches(b, max(1, 16<<20/rec.jsize), [2]string{"atcore", "sonic"}, [2]func() error{
				decodeAll(rec.parts, true, atcoreJSON),
				decodeAll(rec.parts, true, sonicAny),
			})
		})
	}
}

// BenchmarkJSONDecodeNestedRatio is BenchmarkJSONDecodeRatio on inputs of another shape, made for
// the JSON decoders' stack room (datamodel's jsonRoomDepth) and not tuned on: forty copies of
// testdata/records/post.json in an array nested wrap levels deep ({"levelN": …, "items": [ … ]}
// pairs), so that the values reach a few levels past 8 (wrap=4, 6) and past 16 (wrap=10, 14).
// Context for issue 16's target, not its measure.
func BenchmarkJSONDecodeNestedRatio(b *testing.B) {
	var post []byte
	for _, r := range loadRecords(b) {
		if r.name == "post" {
			post = r.json
		}
	}
	if post == nil {
		b.Fatal("testdata/records/post.json is missing")
	}
	for _, wrap := range []int{4, 6, 10, 14} {
		var sb strings.Builder
		for i := range wrap / 2 {
			fmt.Fprintf(&sb, `{"level%d":%q,"items":[`, i, strings.Repeat("x", i))
		}
		for i := range 40 {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.Write(post)
		}
		sb.WriteString(strings.Repeat("]}", wrap/2))
		data := []byte(sb.String())
		b.Run(fmt.Sprintf("wrap=%d", wrap), func(b *testing.B) {
			interleaved(b, len(data), [2]string{"atcore", "sonic"}, [2]func() error{
				func() error { _, err := atcoreJSON(data); return err },
				func() error { _, err := sonicAny(data); return err },
			})
		})
	}
}
