package peers

import (
	"fmt"
	"testing"

	"github.com/ipfs/go-cid"

	"github.com/atcore/atcore/datamodel"
)

// readAll is the read-all row of the large encode benchmarks: it reads every byte that an encoder
// of the tree reads (each map's entries, every key's and string's bytes, the bytes of links, byte
// strings and blobs' fields) and writes nothing. It is no encoder, but the least one does, so its
// cost per byte on the 900 KB record over the 50 KB one is the step that the memory hierarchy
// alone gives a walk of trees of these sizes (issue 16: "linear in output size").
func readAll(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := len(x)
		for k, e := range x {
			n += sumBytes(k) + readAll(e)
		}
		return n
	case []any:
		n := len(x)
		for _, e := range x {
			n += readAll(e)
		}
		return n
	case string:
		return sumBytes(x)
	case datamodel.Link:
		return sumBytes(cid.Cid(x).KeyString())
	case datamodel.Bytes:
		return sumBytes(string(x))
	case datamodel.Blob:
		return sumBytes(cid.Cid(x.Ref).KeyString()) + sumBytes(x.MimeType) + int(x.Size)
	case int64:
		return int(x)
	default:
		return 1
	}
}

// sumBytes adds up the bytes of s, so that every one is loaded.
func sumBytes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += int(s[i])
	}
	return n
}

// readCopy is the read-copy row: it reads what readAll reads and appends those bytes, in map
// order and with no framing, to dst. Run into a new buffer of the encoder's output size, it does
// the least that an encoder returning a new slice does: read the tree, allocate the output, write
// into it. Unlike read-all it pays for the allocation and for the collections that the
// allocations bring on, which the encoders' rows pay too.
func readCopy(dst []byte, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		dst = append(dst, byte(len(x)))
		for k, e := range x {
			dst = readCopy(append(dst, k...), e)
		}
		return dst
	case []any:
		dst = append(dst, byte(len(x)))
		for _, e := range x {
			dst = readCopy(dst, e)
		}
		return dst
	case string:
		return append(dst, x...)
	case datamodel.Link:
		return append(dst, cid.Cid(x).KeyString()...)
	case datamodel.Bytes:
		return append(dst, x...)
	case datamodel.Blob:
		return append(append(dst, cid.Cid(x.Ref).KeyString()...), x.MimeType...)
	case int64:
		return append(dst, byte(x))
	default:
		return append(dst, 1)
	}
}

// benchFloors adds the read-all and read-copy rows (see readAll, readCopy) to an encode benchmark
// of the large records, with the size the encoders' rows are measured by. encode is the
// benchmark's encoder, whose output sizes the read-copy row's buffers.
func benchFloors(b *testing.B, rec benchRecord, size int, trees []any, encode func(any) ([]byte, error)) {
	if rec.name != "big50k" && rec.name != "big900k" {
		return
	}
	benchParts(b, "read-all", size, len(trees), func(i int) (int, error) { return readAll(trees[i]), nil })
	outLen := make([]int, len(trees))
	for i, v := range trees {
		out, err := encode(v)
		if err != nil {
			b.Fatal(err)
		}
		outLen[i] = len(out)
	}
	benchParts(b, "read-copy", size, len(trees), func(i int) ([]byte, error) {
		out := readCopy(make([]byte, 0, outLen[i]), trees[i])
		if len(out) > outLen[i] {
			return nil, fmt.Errorf("read-copy wrote %d bytes, more than the encoder's %d", len(out), outLen[i])
		}
		return out, nil
	})
}

// TestReadAllReadsEverything: readAll's sum and readCopy's bytes change when any string, key or
// link of a record changes, so the floor rows do load them; readCopy writes no more than the
// encoders do.
func TestReadAllReadsEverything(t *testing.T) {
	for _, r := range loadRecords(t) {
		v, err := datamodel.UnmarshalJSON(r.json)
		if err != nil {
			t.Fatal(err)
		}
		w, err := datamodel.UnmarshalJSON(r.json)
		if err != nil {
			t.Fatal(err)
		}
		// read-copy's buffer is sized by the encoders' output: it must not outgrow it.
		copied := readCopy(nil, v)
		for _, enc := range []func(any, ...datamodel.Option) ([]byte, error){datamodel.MarshalCBOR, datamodel.MarshalJSON} {
			if out, err := enc(v); err != nil || len(copied) > len(out) {
				t.Errorf("%s: readCopy wrote %d bytes, the encoder %d (%v)", r.name, len(copied), len(out), err)
			}
		}
		before := readAll(v)
		if !bumpOneString(w) {
			continue
		}
		if readAll(w) == before {
			t.Errorf("%s: readAll did not see a changed string", r.name)
		}
		// The sum of the bytes, since map order changes between walks.
		if sumBytes(string(readCopy(nil, w))) == sumBytes(string(copied)) {
			t.Errorf("%s: readCopy did not copy a changed string", r.name)
		}
	}
}

// bumpOneString changes the last byte of the first non-empty string value it finds, in place of
// the string, and reports whether it found one.
func bumpOneString(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && s != "" {
				x[k] = s[:len(s)-1] + string(rune(s[len(s)-1]^1))
				return true
			}
			if bumpOneString(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if bumpOneString(e) {
				return true
			}
		}
	}
	return false
}
