package datamodel

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"
)

// How the encoders put a map's entries in key order: DAG-CBOR's length-first order (DECISIONS
// rule 9) or JSON's bytewise order.
//
// The entries are collected once, key with value (no second lookup per value). A map of up to
// maxStackEntries entries, as records' maps are, is sorted in place by insertion sort, comparing
// keys directly (for DAG-CBOR mostly by length). A larger map is sorted through a pointer-free
// item per entry: the key's first 8 bytes as a big-endian integer, its length and the entry's
// index. Two items almost always compare by one or two integer compares; only keys that agree on
// both go on to compare their bytes. Swapping 16 pointer-free bytes needs no write barrier while
// the garbage collector runs, where swapping the 32-byte entries (two pointers each) needed four.
// On a map of 32 768 random keys of 1 to 16 bytes this replaced a sort that took half of
// MarshalCBOR's time, most of it in memcmp and write barriers (BenchmarkEncodeSweep/wide=32768,
// profiled). On small maps the items cost more than they save: building them took MarshalCBOR
// from 25.8k to 31.9k instructions on the post record (cachegrind).
//
// From radixMinItems items on, the items are sorted by their integers alone, with a radix sort
// (see radix), and only runs of keys that the integers cannot order are compared. Below it, and
// for those runs, the sort of items is an introsort: quicksort with a median-of-three pivot,
// insertion sort below 13 items, and heapsort once the quicksort has split more than 2·log₂n
// times, so that no key set costs more than O(n log n) compares. Map keys are distinct, which the
// partition relies on.

// mapEntry is a map entry being sorted for encoding.
type mapEntry struct {
	key   string
	value any
}

// sortItem stands for entries[i] in the sort.
type sortItem struct {
	prefix uint64 // the key's first 8 bytes, big-endian, padded with zeros
	n      uint32 // the key's length, or math.MaxUint32 for a longer key
	i      uint32 // the entry's index: a map of 2³² entries would not fit in memory
}

// maxStackEntries is the size of the stack array in which a map's entries are sorted; records'
// maps are smaller, larger ones take pooled space (entryScratchPool).
const maxStackEntries = 16

// sortedEntries is the state of sorting a large map's items: entries[order[j].i] is the j-th.
type sortedEntries struct {
	entries     []mapEntry
	order       []sortItem
	lengthFirst bool // DAG-CBOR order, else bytewise
}

// mapShape is what the reserved keys of a map say about it, found while collecting its entries.
type mapShape struct {
	typ                        any
	hasLink, hasBytes, hasType bool
}

// collectMapEntries appends the entries of m to entries, unsorted, and reports the reserved keys it
// met. (A function of slices, not a method that appends through a *sortedEntries: storing
// through a pointer would make every map's stack array escape.)
func collectMapEntries(entries []mapEntry, m map[string]any) ([]mapEntry, mapShape) {
	var shape mapShape
	for k, v := range m {
		// A key starting with '$' may make the map one the decoders refuse (DECISIONS rules
		// 10, 11, 13): only such keys are compared with the reserved ones, so that ordinary
		// keys cost one byte compare each.
		if k != "" && k[0] == '$' {
			switch k {
			case "$link":
				shape.hasLink = true
			case "$bytes":
				shape.hasBytes = true
			case "$type":
				shape.typ, shape.hasType = v, true
			}
		}
		entries = append(entries, mapEntry{k, v})
	}
	return entries, shape
}

// collectEntries is collectMapEntries that also appends every entry's sort item to order, for
// the struct encoders (typed_*), which sort through sortedEntries whatever the map's size.
func collectEntries(entries []mapEntry, order []sortItem, m map[string]any) ([]mapEntry, []sortItem, mapShape) {
	start := len(entries)
	entries, shape := collectMapEntries(entries, m)
	for i := start; i < len(entries); i++ {
		order = append(order, newSortItem(entries[i].key, i))
	}
	return entries, order, shape
}

// entrySpace returns the space in which the struct encoders collect and sort m's entries: the
// stack arrays when m fits in them, else pooled space (sc, to be returned with putEntryScratch).
func entrySpace(m map[string]any, stackEntries *[maxStackEntries]mapEntry, stackOrder *[maxStackEntries]sortItem) (entries []mapEntry, order []sortItem, sc *entryScratch) {
	if len(m) > maxStackEntries {
		sc = getEntryScratch(len(m))
		return sc.entries[:0], sc.order[:0], sc
	}
	return stackEntries[:0], stackOrder[:0], nil
}

// at returns the j-th entry in key order, once sorted.
func (s *sortedEntries) at(j int) *mapEntry { return &s.entries[s.order[j].i] }

// newSortItem returns the sort item of key k at index i.
func newSortItem(k string, i int) sortItem {
	n := uint32(math.MaxUint32)
	if uint64(len(k)) < math.MaxUint32 {
		n = uint32(len(k))
	}
	return sortItem{keyPrefix(k), n, uint32(i)}
}

// sortEntries puts entries in key order: in place for a map of up to maxStackEntries entries,
// returning nil; else through items appended to order (space for len(entries)), which it
// returns: entries[order[j].i] is then the j-th. The encoders inline the small case.
func sortEntries(entries []mapEntry, order []sortItem, lengthFirst bool) []sortItem {
	if len(entries) <= maxStackEntries {
		if lengthFirst {
			insertionSortCBOR(entries)
		} else {
			insertionSortBytewise(entries)
		}
		return nil
	}
	return sortLargeEntries(entries, order, lengthFirst)
}

// sortLargeEntries is sortEntries for a map of more than maxStackEntries entries.
func sortLargeEntries(entries []mapEntry, order []sortItem, lengthFirst bool) []sortItem {
	for i := range entries {
		order = append(order, newSortItem(entries[i].key, i))
	}
	s := sortedEntries{entries, order, lengthFirst}
	s.sort()
	return order
}

// insertionSortCBOR sorts a small map's entries in place, length-first then bytewise.
func insertionSortCBOR(entries []mapEntry) {
	for i := 1; i < len(entries); i++ {
		e := entries[i]
		j := i
		for ; j > 0 && cborKeyLess(e.key, entries[j-1].key); j-- {
			entries[j] = entries[j-1]
		}
		entries[j] = e
	}
}

// insertionSortBytewise sorts a small map's entries in place, bytewise.
func insertionSortBytewise(entries []mapEntry) {
	for i := 1; i < len(entries); i++ {
		e := entries[i]
		j := i
		for ; j > 0 && e.key < entries[j-1].key; j-- {
			entries[j] = entries[j-1]
		}
		entries[j] = e
	}
}

// check applies checkMapShape's rules, in its order, without its lookups.
func (sh *mapShape) check(m map[string]any, maxCIDLen int) *Error {
	switch {
	case sh.hasLink:
		return errReservedKey("$link")
	case sh.hasBytes:
		return errReservedKey("$bytes")
	case sh.hasType:
		return checkTypedMap(m, sh.typ, maxCIDLen)
	}
	return nil
}

// keyPrefix returns the first 8 bytes of k as a big-endian integer, padded with zeros: comparing
// two prefixes compares the keys bytewise as far as their first 8 bytes tell.
func keyPrefix(k string) uint64 {
	if len(k) >= 8 {
		return binary.BigEndian.Uint64(unsafe.Slice(unsafe.StringData(k), 8))
	}
	if len(k) >= 4 {
		// Two 4-byte words, the second overlapping the first and shifted to its place.
		hi := binary.BigEndian.Uint32(unsafe.Slice(unsafe.StringData(k), 4))
		lo := binary.BigEndian.Uint32(unsafe.Slice(unsafe.StringData(k[len(k)-4:]), 4))
		return uint64(hi)<<32 | uint64(lo)<<(8*(8-len(k)))
	}
	var p uint64
	for i := 0; i < len(k); i++ {
		p |= uint64(k[i]) << (56 - 8*i)
	}
	return p
}

// less reports whether a's key sorts before b's.
func (s *sortedEntries) less(a, b sortItem) bool {
	if s.lengthFirst && a.n != b.n {
		return a.n < b.n
	}
	if a.prefix != b.prefix {
		return a.prefix < b.prefix
	}
	return s.keyLess(a, b)
}

// keyLess compares the keys themselves, when their lengths and first 8 bytes agree.
func (s *sortedEntries) keyLess(a, b sortItem) bool {
	ka, kb := s.entries[a.i].key, s.entries[b.i].key
	if s.lengthFirst {
		return cborKeyLess(ka, kb)
	}
	return ka < kb
}

// sort puts s.order in key order.
func (s *sortedEntries) sort() {
	if len(s.order) >= radixMinItems {
		s.radix(s.order)
		return
	}
	s.quick(s.order, 2*bits.Len(uint(len(s.order))))
}

// radixMinItems is the number of items from which sort takes the radix sort. Below it, the
// radix sort's nine passes over the items cost more than the compares they save: on random keys
// of 1 to 16 bytes (BenchmarkSortItems, two runs) it takes 1.2-1.8x quick's time at 1 024 items,
// 0.8-1.2x at 2 048, 0.6x at 4 096 and 0.5x at 32 768.
const radixMinItems = 2048

// radix sorts a by the items' integers alone, with no compare: a stable counting sort (least
// significant digit first) on the length's digit and each byte of the prefix. On a map of 32 768
// keys the introsort's compares (mispredicted branches, half of them) were a third of
// MarshalCBOR's time (BenchmarkCBOREncode/rec=wide32k, profiled).
//
// The integers decide the order of two keys unless both are longer than 8 bytes and share their
// first 8, or, length-first, both are 255 bytes or longer: the length's digit then ties whatever
// their lengths, and the prefix must not decide before the length does. The runs of such items,
// adjacent once sorted, are then sorted by quick, which compares the lengths, then the keys.
//
// The length's digit is min(n, 255) in DAG-CBOR's length-first order, the most significant
// digit. In bytewise order it is min(n, 9), the least significant: of two keys with the same
// zero-padded prefix, one of at most 8 bytes is a prefix of the other, so the shorter sorts first.
func (s *sortedEntries) radix(a []sortItem) {
	if len(a) < 2 {
		return
	}
	digitCap := uint32(9)
	if s.lengthFirst {
		digitCap = 255
	}
	var counts [9][256]int // [0..7]: the prefix's bytes, least significant first; [8]: the length
	for _, it := range a {
		for b := range 8 {
			counts[b][uint8(it.prefix>>(8*b))]++
		}
		counts[8][min(it.n, digitCap)]++
	}
	passes := [9]int{8, 0, 1, 2, 3, 4, 5, 6, 7} // bytewise: the length first (least significant)
	if s.lengthFirst {
		passes = [9]int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	}
	sp := radixScratchPool.get()
	if cap(*sp) < len(a) {
		*sp = make([]sortItem, len(a))
	}
	src, dst := a, (*sp)[:len(a)]
	for _, p := range passes {
		c := &counts[p]
		if p == 8 {
			if c[min(src[0].n, digitCap)] == len(src) {
				continue // one digit for all: the pass would change nothing
			}
			startOffsets(c)
			for _, it := range src {
				d := min(it.n, digitCap)
				dst[c[d]] = it
				c[d]++
			}
		} else {
			shift := 8 * uint(p)
			if c[uint8(src[0].prefix>>shift)] == len(src) {
				continue
			}
			startOffsets(c)
			for _, it := range src {
				d := uint8(it.prefix >> shift)
				dst[c[d]] = it
				c[d]++
			}
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	if cap(*sp) <= maxPooledEntries {
		radixScratchPool.put(sp, true) // radixMinItems items are 32 KiB
	}
	// Runs whose integers tie: keys the integers cannot order, sorted by compares. Length-first,
	// every key of 255 bytes or more is in one run, whatever its prefix: the digit holds 255 for
	// all their lengths, so the radix passes put them in prefix order, not length order.
	for i := 0; i < len(a); {
		j := i + 1
		longRun := s.lengthFirst && a[i].n >= digitCap
		for j < len(a) && min(a[j].n, digitCap) == min(a[i].n, digitCap) && (longRun || a[j].prefix == a[i].prefix && a[i].n > 8) {
			j++
		}
		if j-i > 1 {
			s.quick(a[i:j], 2*bits.Len(uint(j-i)))
		}
		i = j
	}
}

// startOffsets turns a digit's counts into the offsets at which its items start.
func startOffsets(c *[256]int) {
	sum := 0
	for d := range c {
		c[d], sum = sum, sum+c[d]
	}
}

// radixScratchPool holds radix's second buffer of items.
var radixScratchPool = sharedPool[[]sortItem]{fresh: func() *[]sortItem { return new([]sortItem) }}

func (s *sortedEntries) quick(a []sortItem, splits int) {
	for len(a) > 12 {
		if splits == 0 {
			s.heap(a)
			return
		}
		splits--
		p := s.partition(a)
		// Recurse into the smaller side and loop on the larger, so that the recursion is at most
		// log₂n deep.
		if p < len(a)-p {
			s.quick(a[:p], splits)
			a = a[p+1:]
		} else {
			s.quick(a[p+1:], splits)
			a = a[:p]
		}
	}
	s.insertion(a)
}

// partition moves the median of a's first, middle and last items to a[p] with the smaller items
// before it and the larger after, and returns p.
func (s *sortedEntries) partition(a []sortItem) int {
	m, l := len(a)/2, len(a)-1
	if s.less(a[m], a[0]) {
		a[m], a[0] = a[0], a[m]
	}
	if s.less(a[l], a[m]) {
		a[l], a[m] = a[m], a[l]
		if s.less(a[m], a[0]) {
			a[m], a[0] = a[0], a[m]
		}
	}
	a[0], a[m] = a[m], a[0]
	pivot := a[0]
	// Keys are distinct: every item but the pivot is either smaller or larger.
	i, j := 1, l
	for {
		for i <= j && s.less(a[i], pivot) {
			i++
		}
		for i <= j && s.less(pivot, a[j]) {
			j--
		}
		if i >= j {
			break
		}
		a[i], a[j] = a[j], a[i]
		i++
		j--
	}
	a[0], a[j] = a[j], a[0]
	return j
}

func (s *sortedEntries) insertion(a []sortItem) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && s.less(x, a[j-1]); j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

func (s *sortedEntries) heap(a []sortItem) {
	for i := len(a)/2 - 1; i >= 0; i-- {
		s.siftDown(a, i)
	}
	for end := len(a) - 1; end > 0; end-- {
		a[0], a[end] = a[end], a[0]
		s.siftDown(a[:end], 0)
	}
}

func (s *sortedEntries) siftDown(a []sortItem, i int) {
	for {
		c := 2*i + 1
		if c >= len(a) {
			return
		}
		if c+1 < len(a) && s.less(a[c], a[c+1]) {
			c++
		}
		if !s.less(a[i], a[c]) {
			return
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
}

// entryScratch is the space in which a map of more than maxStackEntries entries is sorted.
type entryScratch struct {
	entries []mapEntry
	order   []sortItem
}

// entryScratchPool holds the sort space of large maps, so that encoding a wide map allocates only
// its output (48 bytes per entry, several times the entry's encoded size, were allocated before).
var entryScratchPool = sharedPool[entryScratch]{fresh: func() *entryScratch { return new(entryScratch) }}

// maxPooledEntries bounds the space the pool keeps, as maxPooledEncodeBuf bounds the buffers'.
const maxPooledEntries = maxPooledEncodeBuf / 48

// getEntryScratch returns empty sort space for n entries; putEntryScratch returns it to the
// pool once n entries were sorted in it, without the references to the tree they held. (The
// space goes back as the scratch's own slices, not as a sortedEntries': that would make every
// map's stack arrays escape to the heap.)
func getEntryScratch(n int) *entryScratch {
	sc := entryScratchPool.get()
	if cap(sc.entries) < n || cap(sc.order) < n {
		sc.entries = make([]mapEntry, 0, n)
		sc.order = make([]sortItem, 0, n)
	}
	return sc
}

func putEntryScratch(sc *entryScratch, n int) {
	if cap(sc.entries) > maxPooledEntries {
		return
	}
	clear(sc.entries[:min(n, cap(sc.entries))])
	entryScratchPool.put(sc, cap(sc.entries)*48 >= largeScratch) // 48 bytes an entry with its item
}
