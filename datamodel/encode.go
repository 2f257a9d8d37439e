package datamodel

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/atcore/atcore/internal/utf8v"
)

// What the two encoders (CBOR and JSON) share: the limits they check on the way down, the cycle
// guard, the output buffer pool, and map key sorting (DAG-CBOR order for CBOR, bytewise for JSON,
// Validate and the walks).

// encodeLimits is what both encoders (CBOR and JSON) check on the way down: the limits the
// decoders enforce, so that whatever an encoder writes reads back, and the cycle guard.
type encodeLimits struct {
	maxDepth    int
	maxCIDLen   int
	maxElements int
	maxKeyLen   int
	maxValues   int
	left        int           // values the tree may still hold (Limits.MaxValues)
	safeInts    bool          // WithSafeIntegers
	path        containerPath // containers deeper than DefaultMaxDepth, to catch cycles
	// quickDepth bounds the depths that enter lets through without a call: containers above
	// DefaultMaxDepth or maxDepth need checks, and the one at stackRoomDepth makes room on the
	// stack (stackroom.go), until that room is made; it is above stackRoomDepth once it is.
	quickDepth int
}

func newEncodeLimits(lim Limits) encodeLimits {
	return encodeLimits{maxDepth: lim.MaxDepth, maxCIDLen: lim.MaxCIDLen, maxElements: lim.MaxElements,
		maxKeyLen: lim.MaxKeyLen, maxValues: lim.MaxValues, left: lim.MaxValues - 1, safeInts: lim.safeInts,
		quickDepth: min(lim.MaxDepth, DefaultMaxDepth, stackRoomDepth-1) + 1}
}

// roomMade reports whether the encode has made room on the stack for a deep tree.
func (g *encodeLimits) roomMade() bool { return g.quickDepth > stackRoomDepth }

// unsafeInt reports whether the integer n is refused: outside ±(2^53−1) under WithSafeIntegers.
func (g *encodeLimits) unsafeInt(n int64) bool {
	return g.safeInts && !isSafeInt(n)
}

// enter checks a container (id, with n elements or entries, at depth) before its content is
// written; leave undoes what enter recorded, once the content is written.
func (g *encodeLimits) enter(id containerID, n int, what string, depth int) *Error {
	if depth < g.quickDepth && n <= g.maxElements {
		return nil // the common case, inlined at the call
	}
	return g.enterChecked(id, n, what, depth)
}

func (g *encodeLimits) enterChecked(id containerID, n int, what string, depth int) *Error {
	if depth > g.maxDepth {
		return g.errTooDeep()
	}
	if n > g.maxElements {
		return errTooManyElements(n, what, g.maxElements)
	}
	if depth == stackRoomDepth && !g.roomMade() {
		g.quickDepth = min(g.maxDepth, DefaultMaxDepth) + 1
		stackRoom(stackRoomDepth, g.maxDepth, encodeLevelStack)
	}
	if depth > DefaultMaxDepth {
		return g.path.enter(id)
	}
	return nil
}

func (g *encodeLimits) leave(id containerID, depth int) {
	if depth > DefaultMaxDepth {
		g.path.leave(id)
	}
}

// take counts the n values of a container against Limits.MaxValues; the encoders call it after
// enter (kept out of enter, which must inline).
func (g *encodeLimits) take(n int) *Error {
	if g.left -= n; g.left < 0 {
		return errTooManyValues(-1, g.maxValues)
	}
	return nil
}

// blob checks a blob's map against the limits, as the decoders check it (its entries and keys)
// and counts its values (see Limits.MaxValues), once checkBlob has passed it.
func (g *encodeLimits) blob(b *Blob) *Error {
	if err := blobLimits(b, g.maxElements, g.maxKeyLen); err != nil {
		return err
	}
	if g.left -= blobValues(b); g.left < 0 {
		return errTooManyValues(-1, g.maxValues)
	}
	return nil
}

// blobLimits refuses a blob whose map, written out, would be beyond MaxElements or MaxKeyLen: the
// decoders read a blob as a map, so they would refuse it. Its longest key is "mimeType".
func blobLimits(b *Blob, maxElements, maxKeyLen int) *Error {
	if n := blobValues(b); n > maxElements {
		return errTooManyElements(n, "entries", maxElements)
	}
	if len("mimeType") > maxKeyLen {
		return valueError(ErrKeyTooLong, overLimit(len("mimeType"), "bytes", maxKeyLen)).atKey("mimeType")
	}
	return nil
}

// blobValues is the number of values in the map of b: four, or two in the legacy form.
func blobValues(b *Blob) int {
	if b.Legacy {
		return 2
	}
	return 4
}

func (g *encodeLimits) errTooDeep() *Error {
	return valueError(ErrTooDeep, overLimit(-1, "", g.maxDepth))
}

// containerPath holds the maps and arrays on the path to the current value once it is deeper
// than DefaultMaxDepth (only possible with a raised MaxDepth), so that an encoder catches a
// cyclic value when its cycle closes, rather than after recursing as deep as a huge limit allows.
type containerPath struct {
	onPath map[containerID]struct{}
}

// containerPathPool holds the sets of containerPath, so that deep trees encode without
// allocating in proportion to their depth (it grew a map as deep as the tree at every encode:
// 24 allocations at depth 1000, BenchmarkEncodeSweep). A set holds at most MaxDepthCeiling
// entries.
var containerPathPool = sync.Pool{New: func() any { return make(map[containerID]struct{}) }}

// enter records a container at depth > DefaultMaxDepth as on the current path, after checking
// that it is not already there (one of its own ancestors: a cycle); leave removes it once its
// content is written. An encode that fails stops there, so only success paths call leave.
func (p *containerPath) enter(id containerID) *Error {
	if _, ok := p.onPath[id]; ok {
		return valueError(ErrTooDeep, "cyclic value: the tree would be infinitely deep")
	}
	if p.onPath == nil {
		p.onPath = containerPathPool.Get().(map[containerID]struct{})
	}
	p.onPath[id] = struct{}{}
	return nil
}

// leave returns the set to the pool once the path is back within DefaultMaxDepth (empty). It is
// kept out of line so that encodeLimits.leave, on every container's path, still inlines.
//
//go:noinline
func (p *containerPath) leave(id containerID) {
	delete(p.onPath, id)
	if len(p.onPath) == 0 {
		clear(p.onPath) // drops the deleted entries' tombstones, which slow the next lookups
		containerPathPool.Put(p.onPath)
		p.onPath = nil
	}
}

// containerID identifies a map (by its pointer) or an array (by its backing store and
// length: an array that contains itself has both equal to an ancestor's).
type containerID struct {
	ptr unsafe.Pointer
	len int
}

func arrayID(a []any) containerID {
	return containerID{unsafe.Pointer(unsafe.SliceData(a)), len(a)}
}

func mapID(m map[string]any) containerID {
	return containerID{*(*unsafe.Pointer)(unsafe.Pointer(&m)), 0}
}

// encodeBufPool holds the output buffers of MarshalCBOR, MarshalJSON and RecordCID, so that a
// steady stream of encodes allocates only its exact-size results.
var encodeBufPool = sharedPool[[]byte]{fresh: freshEncodeBuf}

// lastLargeOutput is the length of the last output of largeScratch bytes or more, until a new
// buffer has been made from it (see freshEncodeBuf).
var lastLargeOutput atomic.Int64

// freshEncodeBuf makes a buffer for encodeBufPool when it has none: of 1 KiB, or room for the
// last large output and an eighth more if no buffer has been made for it yet. The pool lets a
// buffer go after two garbage collections unused, and an encode of a large record then grew a
// new one from 1 KiB, copying its output at every step on the way: in turn with goccy/go-json on
// internal/peers' big900k, with two forced collections between each of atcore's encodes, a
// MarshalJSON took 6.8-7.0 ms, and 4.2-4.7 ms with the buffer made this size (three runs of
// each, alternating builds; a build that never let the buffer go took 4.5 ms). The length is
// taken, not kept, so that after one large encode a process of small ones makes one large
// buffer at most, which the pool then lets go as any other.
func freshEncodeBuf() *[]byte {
	n := 1024
	if last := lastLargeOutput.Swap(0); last > 0 {
		n = int(min(last+last/8, maxPooledEncodeBuf))
	}
	b := make([]byte, 0, n)
	return &b
}

// maxPooledEncodeBuf is the largest buffer the pool keeps: the largest record the decoders accept
// by default (DefaultMaxJSONSize; a CBOR record's JSON form is larger than its CBOR), so that
// encodes of records of any size reuse a buffer instead of regrowing one from 1 KiB and
// copying it at every step (with a 64 KiB bound a 1 MB encode allocated 6 bytes per output byte;
// BenchmarkEncodeSweep). A buffer beyond it, only from a tree no decoder would have produced
// with the default limits, is dropped rather than pinned. A pooled buffer not used for two
// garbage collections is freed (sharedPool), so the memory held is at most this bound per
// encode running at once.
const maxPooledEncodeBuf = DefaultMaxJSONSize

// getEncodeBuf returns an empty pooled buffer; putEncodeBuf returns it, grown to buf, to the
// pool.
func getEncodeBuf() *[]byte { p := encodeBufPool.get(); *p = (*p)[:0]; return p }

func putEncodeBuf(p *[]byte, buf []byte) {
	if len(buf) >= largeScratch {
		lastLargeOutput.Store(int64(len(buf)))
	}
	if cap(buf) <= maxPooledEncodeBuf {
		*p = buf[:0]
	}
	encodeBufPool.put(p, cap(*p) >= largeScratch)
}

// exactCopy returns a copy of buf in one exact-size allocation (the growing happened in the
// pooled buffer), or nil if err is set.
func exactCopy(buf []byte, err error) []byte {
	if err != nil {
		return nil
	}
	out := make([]byte, len(buf))
	copy(out, buf)
	return out
}

// cborKeyLess reports whether a sorts before b in DAG-CBOR key order.
func cborKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// maxStackKeys is the size of the stack array in which a map's keys are sorted: records' maps
// are smaller.
const maxStackKeys = 16

// sortKeys sorts keys bytewise. Records have small maps, where an insertion sort beats the
// general sort.
func sortKeys(keys []string) {
	if len(keys) > 12 {
		slices.Sort(keys)
		return
	}
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && k < keys[j-1]; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// sortedKeys returns the keys of m sorted bytewise, in stack when they fit, and whether one of
// them starts with '$': only then does the map need checkMapShape (rules.go). The JSON encoder
// and Validate walk maps through it, so that they check a map in the same order.
func sortedKeys(stack *[maxStackKeys]string, m map[string]any) (keys []string, reserved bool) {
	keys = stack[:0]
	if len(m) > maxStackKeys {
		keys = make([]string, 0, len(m))
	}
	for k := range m {
		reserved = reserved || k != "" && k[0] == '$'
		keys = append(keys, k)
	}
	sortKeys(keys)
	return keys, reserved
}

// checkKey checks a map key as every encoder and Validate do, in this order: valid UTF-8, then
// at most maxKeyLen bytes (DECISIONS rule 14).
func checkKey(k string, maxKeyLen int) *Error {
	if !utf8v.ValidString(k) {
		return valueError(ErrInvalidUTF8, "map key "+quoteDetail(k)).atKey(k)
	}
	if len(k) > maxKeyLen {
		return valueError(ErrKeyTooLong, overLimit(len(k), "bytes", maxKeyLen)).atKey(k)
	}
	return nil
}

// checkKeyAfter is checkKey for a key whose first n bytes are known to be ASCII.
func checkKeyAfter(k string, n int, maxKeyLen int) *Error {
	if n < len(k) && !utf8v.ValidString(k[n:]) {
		return valueError(ErrInvalidUTF8, "map key "+quoteDetail(k)).atKey(k)
	}
	if len(k) > maxKeyLen {
		return valueError(ErrKeyTooLong, overLimit(len(k), "bytes", maxKeyLen)).atKey(k)
	}
	return nil
}
