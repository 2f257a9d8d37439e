package peers

import (
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

// benchReadAll adds the read-all row (see readAll) to an encode benchmark of the large records,
// with the size the encoders' rows are measured by.
func benchReadAll(b *testing.B, rec benchRecord, size int, trees []any) {
	if rec.name != "big50k" && rec.name != "big900k" {
		return
	}
	benchParts(b, "read-all", size, len(trees), func(i int) (int, error) { return readAll(trees[i]), nil })
}

// TestReadAllReadsEverything: readAll's sum changes when any string, key or link of a record
// changes, so the floor row does load them.
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
		before := readAll(v)
		if !bumpOneString(w) {
			continue
		}
		if readAll(w) == before {
			t.Errorf("%s: readAll did not see a changed string", r.name)
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
