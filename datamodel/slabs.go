package datamodel

import (
	"maps"
	"unsafe"
)

// The slabs of both decoders (CBOR and JSON). Boxing: putting a string, an int64, a slice or a
// struct into an interface allocates a heap copy of it, one small allocation per value, which
// dominated the decoders' profile after the maps (whose cost is the same for every decoder into
// map[string]any). The decoders instead store such values in slabs, one allocation for many
// values, and make interface values that point into them. A slab entry is never written again
// after it is boxed, so sharing a slab is invisible to callers (an interface's dynamic value is
// immutable anyway); the garbage collector keeps a slab alive while any interface points into it.

// cborEface is the memory layout of an interface{} value (the runtime's eface): a type word and a
// pointer to the value.
type cborEface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

func cborTypeWord(v any) unsafe.Pointer { return (*cborEface)(unsafe.Pointer(&v)).typ }

// The type words of the boxed types, taken from zero values (which box without allocating).
var (
	cborStringType = cborTypeWord("")
	cborInt64Type  = cborTypeWord(int64(0))
	cborArrayType  = cborTypeWord([]any(nil))
	cborLinkType   = cborTypeWord(Link{})
	cborBlobType   = cborTypeWord(Blob{})
)

// cborSlabs holds one decoder's slabs.
type cborSlabs struct {
	// size is the input's length, from which the first slab of each kind is sized: a record has
	// roughly one string per 32 bytes, one array per 128, one large integer or link per 256.
	size int

	strs   []string
	ints   []int64
	arrays [][]any
	links  []Link
	blobs  []Blob
	elems  []any // backing store of decoded arrays
}

// Slabs start at a size guessed from the input, so that a small record wastes little, and
// double up to a size that amortises the allocation well.
const (
	cborSlabMin = 2
	cborSlabMax = 128
)

// cborBox appends v to *slab (allocating a new slab when it is full, the first one of first
// entries) and returns an interface of dynamic type typ (the type word of T) pointing at the
// stored copy.
func cborBox[T any](slab *[]T, v T, typ unsafe.Pointer, first int) any {
	if len(*slab) == cap(*slab) {
		n := min(max(first, cborSlabMin), cborSlabMax)
		if c := cap(*slab); c > 0 {
			n = min(2*c, cborSlabMax)
		}
		*slab = make([]T, 0, n)
	}
	*slab = append(*slab, v)
	var out any
	e := (*cborEface)(unsafe.Pointer(&out))
	e.typ, e.data = typ, unsafe.Pointer(&(*slab)[len(*slab)-1])
	return out
}

// boxString is cborBox written out for strings, the most common boxed value: it reslices rather
// than appends (the capacity is known to suffice, so there is no growth path) and allocates the
// next slab out of line (cborNewSlab), keeping the common path short (BenchmarkUnmarshalCBOR).
func (s *cborSlabs) boxString(v string) any {
	if v == "" {
		return v // boxes without allocating
	}
	if len(s.strs) == cap(s.strs) {
		s.strs = cborNewSlab[string](cap(s.strs), s.size/32)
	}
	s.strs = s.strs[:len(s.strs)+1]
	p := &s.strs[len(s.strs)-1]
	*p = v
	var out any
	e := (*cborEface)(unsafe.Pointer(&out))
	e.typ, e.data = cborStringType, unsafe.Pointer(p)
	return out
}

// cborNewSlab allocates the slab that follows a full one of capacity c, or the first one (c = 0)
// of first entries, as cborBox does.
//
//go:noinline
func cborNewSlab[T any](c, first int) []T {
	n := min(max(first, cborSlabMin), cborSlabMax)
	if c > 0 {
		n = min(2*c, cborSlabMax)
	}
	return make([]T, 0, n)
}

func (s *cborSlabs) boxInt64(v int64) any {
	if v >= 0 && v < 256 {
		return v // the runtime boxes these without allocating
	}
	return cborBox(&s.ints, v, cborInt64Type, s.size/256)
}

// The records of testdata/records that have arrays hold one per 150 to 210 bytes of CBOR (post:
// facets, features, images and langs, one per 209; deep: one per 152), more than they hold large
// integers or links.
func (s *cborSlabs) boxArray(v []any) any {
	return cborBox(&s.arrays, v, cborArrayType, s.size/128)
}

func (s *cborSlabs) boxLink(v Link) any { return cborBox(&s.links, v, cborLinkType, s.size/256) }

func (s *cborSlabs) boxBlob(v Blob) any { return cborBox(&s.blobs, v, cborBlobType, s.size/1024) }

// array returns a new []any of length n, carved from a shared backing store for small arrays.
// Its capacity is exactly n, so appending to it copies rather than overwriting a neighbour.
func (s *cborSlabs) array(n int) []any {
	if n == 0 {
		return []any{} // empty, not nil: the value is an empty array
	}
	if n > cborSlabMax/2 {
		return make([]any, n)
	}
	if cap(s.elems)-len(s.elems) < n {
		c := min(max(s.size/64, 4), cborSlabMax)
		if old := cap(s.elems); old > 0 {
			c = min(2*old, cborSlabMax)
		}
		s.elems = make([]any, 0, max(c, n))
	}
	start := len(s.elems)
	s.elems = s.elems[:start+n]
	return s.elems[start : start+n : start+n]
}

// newMap returns a new empty map, a clone of proto, an empty map kept for the purpose and never
// written to. make draws a random hash seed for every map (the runtime's rand, whose generator
// refills its buffer every 32 draws with 1.5 KB of code that the rest of a decode evicts); a
// clone takes its original's. On internal/peers' big50k (406 maps a JSON decode) the clones take
// about the instructions the draws took (cachegrind: 25K against 30K a decode), but the decode's
// simulated instruction-cache misses fell from 4 661 to 4 212, and in turn with sonic x-sonic went
// from 0.922 to 0.953 (medians of four runs alternating builds), and from 0.932 to 0.952 in five
// more.
//
// The maps cloned from one proto share its seed, as the maps of maps.Clone do: a JSON decoder's
// proto lives as long as the decoder (a pooled one until a collection drops it, the spare for the
// process), the CBOR decoder's (cborMapProto) as long as the process. The seed is still secret, so a flood of
// colliding keys still cannot be prepared; what sharing allows is slow copying from one map into
// a large other of the same seed (a table filled in its own hash order), which is bounded by the
// runtime's table size (1 024 slots). The decoders clone only maps they leave small: CBOR's of
// at most smallMap entries, whose size the input gives, and JSON's until they pass
// jsonRegrowFrom members, when they are made anew with a seed of their own (regrow).
func newMap(proto map[string]any) map[string]any {
	return maps.Clone(proto)
}

// cborMapProto is the CBOR decoder's proto for newMap.
var cborMapProto = make(map[string]any)

// smallMap is the most entries of a map that is one group of the runtime's map (8 slots), never
// a table.
const smallMap = 8
