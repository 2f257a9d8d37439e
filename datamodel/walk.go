package datamodel

import (
	cid "github.com/ipfs/go-cid"
)

// Blobs returns every blob that v references, for media garbage collection and mirroring, without
// needing the record's Lexicon (https://atproto.com/specs/data-model, "blob Type"): Blob and *Blob values, legacy
// ones included, and plain maps that have exactly the blob shape (DECISIONS rule 13), converted to
// Blob. The order is deterministic: depth first, arrays in order, maps by key in bytewise order.
// A blob that appears twice is returned twice. Values outside the data model are skipped. The walk
// goes no deeper than MaxDepthCeiling levels: it ends at the first container that deep (a cyclic
// structure, or a tree no encoder writes and no decoder returns), and what it has not reached by
// then is not searched.
func Blobs(v any) []Blob {
	var out []Blob
	walkTree(v, func(x any) bool {
		switch b := x.(type) {
		case Blob:
			out = append(out, b)
			return false
		case *Blob:
			if b != nil {
				out = append(out, *b)
			}
			return false
		case map[string]any:
			if b, ok := walkBlobMap(b); ok {
				out = append(out, b)
				return false
			}
		}
		return true
	})
	return out
}

// Links returns every CID link in v: exactly the values that DAG-CBOR encodes as tag 42, in the
// order of Blobs. That is every Link and cid.Cid value, including the ref of a blob, but not the
// CID string of a legacy blob, which is a plain string in the record's bytes (DECISIONS rule 13).
// Undefined links are skipped. Use Blobs to find blobs whatever their form. The walk goes no deeper
// than MaxDepthCeiling levels, as in Blobs.
func Links(v any) []Link {
	var out []Link
	walkTree(v, func(x any) bool {
		switch l := x.(type) {
		case Link:
			if l.Defined() {
				out = append(out, l)
			}
		case cid.Cid:
			if l.Defined() {
				out = append(out, Link(l))
			}
		case Blob:
			if !l.Legacy && l.Ref.Defined() {
				out = append(out, l.Ref)
			}
		case *Blob:
			if l != nil && !l.Legacy && l.Ref.Defined() {
				out = append(out, l.Ref)
			}
		}
		return true
	})
	return out
}

// walkTree calls visit on v and, depth first, on every value inside it down to MaxDepthCeiling
// levels, visiting map entries in bytewise key order. visit returns false to skip what is inside a
// value. The first container found at MaxDepthCeiling ends the whole walk: only a cyclic value (or a
// tree no encoder writes) gets there, and a cycle through two or more branches (a struct whose
// two pointer fields both point back to it) would otherwise be walked along every one of its
// 2^1024 paths.
func walkTree(v any, visit func(any) bool) {
	w := treeWalk{visit: visit}
	w.walk(v, 1)
}

type treeWalk struct {
	visit   func(any) bool
	stopped bool // a container at MaxDepthCeiling was met
}

func (w *treeWalk) walk(v any, depth int) {
	if !w.visit(v) || w.stopped {
		return
	}
	if depth >= MaxDepthCeiling {
		switch v.(type) {
		case nil, bool, string, int64, int, Link, Bytes, Blob, *Blob, []byte, cid.Cid:
		default:
			w.stopped = true // something inside, out of reach
		}
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			w.walk(e, depth+1)
		}
	case map[string]any:
		var stack [maxStackKeys]string
		keys, _ := sortedKeys(&stack, x)
		for _, k := range keys {
			w.walk(x[k], depth+1)
		}
	case nil, bool, string, int64, int, Link, Bytes, Blob, *Blob, []byte, cid.Cid:
		// Nothing inside.
	default:
		// A Go value other than the generic types (a struct, a []T...), one level converted,
		// in its place: see govalue.go. One outside the data model is skipped.
		if g, err := goValue(v); err == nil {
			w.walk(g, depth)
		}
	}
}

// walkBlobMap converts a plain map with exactly the blob shape to a Blob.
func walkBlobMap(m map[string]any) (Blob, bool) {
	if t, ok := m["$type"].(string); !ok || t != "blob" {
		return Blob{}, false
	}
	b, err := blobFromMap(m, DefaultMaxCIDLen)
	return b, err == nil
}
