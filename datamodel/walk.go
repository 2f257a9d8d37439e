package datamodel

import (
	cid "github.com/ipfs/go-cid"
)

// Blobs returns every blob that v references, for media garbage collection and mirroring, without
// needing the record's Lexicon (https://atproto.com/specs/data-model, "blob Type"): Blob and *Blob
// values, legacy ones included, and plain maps that have exactly the blob shape (DECISIONS rule
// 13), the legacy {cid, mimeType} included, converted to Blob. v may hold Go slices, maps,
// pointers and structs (see MarshalCBOR): their Blob, *Blob and []Blob fields, and blob-shaped
// structs, are found too. The order is deterministic: depth first, arrays in order, maps (and
// structs) by key in bytewise order.
// A blob that appears twice is returned twice. Values outside the data model are skipped. The walk
// goes no deeper than MaxDepthCeiling levels: a value nested deeper (a cyclic structure, or a
// tree no encoder writes and no decoder returns) is not searched below that depth, and below a
// Go value the walk ends at the first container that deep. Nor does it visit more than 2^20
// values: a tree that shares one map under two keys at every level has 2^depth paths, and is
// searched only along the first 2^20 (about a million) values of its walk.
func Blobs(v any) []Blob { return blobs(v, true) }

// blobs is Blobs; typed lets Go structs take the typed walk (walk_typed.go), and tests turn it
// off for the walk of the converted tree that it matches.
func blobs(v any, typed bool) []Blob {
	var out []Blob
	walkTree(v, typed, func(x any) bool {
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
// order of Blobs, Go slices, maps, pointers and structs included (see MarshalCBOR). That is every Link and cid.Cid value, including the ref of a blob, but not the
// CID string of a legacy blob, which is a plain string in the record's bytes (DECISIONS rule 13).
// Undefined links are skipped. Use Blobs to find blobs whatever their form. The walk goes no deeper
// than MaxDepthCeiling levels, as in Blobs.
func Links(v any) []Link { return links(v, true) }

// links is Links; typed as in blobs.
func links(v any, typed bool) []Link {
	var out []Link
	walkTree(v, typed, func(x any) bool {
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
// value. The depth bound keeps a cyclic value from recursing until the stack overflows.
//
// With typed, a Go struct is read through its plan (walk_typed.go), and visit is not shown the
// map and []any values it would convert to, only what is inside them: visit must go on into
// every such container that is not a blob-shaped map, as the visitors of Blobs and Links do.
func walkTree(v any, typed bool, visit func(any) bool) {
	left := walkMaxValues
	walkDepth(v, visit, typed, 1, &left)
}

// walkMaxValues bounds how many values one walk visits. A tree can share a container under two
// keys at every level: no cycle, but 2^depth paths, which the walk would follow one by one for
// longer than anyone waits. A tree decoded under the default limits (MaxValues 150,000) is far
// below the bound; past it, the rest of the tree is not searched.
const walkMaxValues = 1 << 20

func walkDepth(v any, visit func(any) bool, typed bool, depth int, left *int) {
	if *left--; *left < 0 || !visit(v) || depth >= MaxDepthCeiling {
		return
	}
	// Strings, most of a record's values, are let go at the first compare (a type switch of up
	// to four cases compares in turn); values other than the generic ones take goWalk.
	switch x := v.(type) {
	case string:
	case []any:
		walkRoom(depth)
		for _, e := range x {
			walkDepth(e, visit, typed, depth+1, left)
		}
	case map[string]any:
		walkRoom(depth)
		var stack [maxStackKeys]string
		keys, _ := sortedKeys(&stack, x)
		for _, k := range keys {
			walkDepth(x[k], visit, typed, depth+1, left)
		}
	case int64:
	default:
		if !isGeneric(v) {
			w := goWalk{visit: visit, left: left, typed: typed}
			w.other(v, depth)
		}
	}
}

// walkRoom makes room on the stack for the levels below a container at depth, if it is at
// stackRoomDepth (stackroom.go). walkDepth keeps no state for the walk but the budget, so the
// room is asked for at every container at that depth: once it is there, each further ask costs a
// few calls (internal/stackroom's BenchmarkReserve).
func walkRoom(depth int) {
	if depth == stackRoomDepth {
		stackRoom(stackRoomDepth, DefaultMaxDepth, decodeLevelStack)
	}
}

// goWalk walks what is below a Go value other than the generic types (a struct, a []T...),
// converting each such value one level, in its place (see govalue.go); one outside the data model
// is skipped. The first container it finds at MaxDepthCeiling ends its walk: a Go value that
// reaches that depth is cyclic, and a cycle through two branches (a struct whose two pointer
// fields point back to it) would otherwise be walked along every one of its 2^1024 paths.
type goWalk struct {
	visit   func(any) bool
	left    *int // the walk's budget of values (walkMaxValues), shared with walkDepth
	stopped bool
	typed   bool // Go structs take the typed walk (walk_typed.go)
}

func (w *goWalk) walk(v any, depth int) {
	if *w.left--; w.stopped || *w.left < 0 || !w.visit(v) {
		return
	}
	switch x := v.(type) {
	case []any:
		if w.stop(depth) {
			return
		}
		for _, e := range x {
			w.walk(e, depth+1)
		}
	case map[string]any:
		if w.stop(depth) {
			return
		}
		var stack [maxStackKeys]string
		keys, _ := sortedKeys(&stack, x)
		for _, k := range keys {
			w.walk(x[k], depth+1)
		}
	default:
		if !isGeneric(v) {
			w.other(v, depth)
		}
	}
}

// other walks v, a Go value the walk's visit has seen, as the generic value it stands for.
func (w *goWalk) other(v any, depth int) {
	if w.stop(depth) {
		return
	}
	if w.typed {
		if p, ptr, ok := typedContainerOf(v); ok {
			w.container(p, ptr, depth)
			return
		}
	}
	if g, err := goValue(v, goAt{depth, MaxDepthCeiling}); err == nil {
		w.walk(g, depth)
	}
}

func (w *goWalk) stop(depth int) bool {
	w.stopped = w.stopped || depth >= MaxDepthCeiling
	return w.stopped
}

// walkBlobMap converts a plain map with exactly the blob shape to a Blob: the blob map, or the
// legacy {cid, mimeType} that the decoders read as a legacy Blob (rule 13).
func walkBlobMap(m map[string]any) (Blob, bool) {
	if len(m) == 2 {
		return mapIsBlob(m)
	}
	if t, ok := typeString(m["$type"]); !ok || t != "blob" {
		return Blob{}, false
	}
	b, err := blobFromMap(m, DefaultMaxCIDLen)
	return b, err == nil
}
