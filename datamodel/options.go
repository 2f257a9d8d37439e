package datamodel

import "strconv"

// Limits bound the work and memory spent on untrusted input (DECISIONS rule 14). The defaults come
// from the atproto data-validation guide, but for MaxValues, which the guide does not set (see
// DefaultMaxValues). A zero field means "use the default"; to lift a limit, set it to a large
// value. The limits apply to the fixed shapes too, alike at every entry point: a blob is a map
// of four entries (two in the legacy form) whose longest key, "mimeType", has eight bytes, so
// MaxKeyLen below 8 refuses every blob, and MaxElements below 4 every blob but the legacy ones,
// which MaxElements below 2 refuses too; the key of a JSON
// {"$link"} or {"$bytes"} object is not a map key (the value is a link or bytes, not a map) and
// is not held to MaxKeyLen. MaxDepth cannot be lifted past MaxDepthCeiling: a larger value is
// clamped to it, because every walker of a tree (the decoders, the encoders, Validate, the
// struct path) recurses once per level, and a goroutine stack that grows past Go's maximum kills
// the whole process with a fatal error that recover cannot catch.
type Limits struct {
	MaxDepth    int // nesting depth of arrays and maps; the top-level value is depth 1; at most MaxDepthCeiling
	MaxElements int // entries in one array or map
	MaxKeyLen   int // bytes in one map key
	MaxCBORSize int // bytes in one CBOR record
	MaxJSONSize int // bytes in one JSON record
	MaxCIDLen   int // bytes in one binary CID
	// MaxValues bounds the values in one record, and so the memory a decode can take whatever
	// the shape: every null, boolean, integer, string, bytes, link, array and map counts one,
	// at any depth, the top-level value included; map keys do not count. Values are counted as
	// DAG-CBOR holds them, so that every entry point counts alike: a blob is a map of four (five
	// values), a legacy blob a map of two (three), and a JSON {"$link"} or {"$bytes"} object is
	// one value.
	MaxValues int

	// safeInts (WithSafeIntegers) travels with the limits, which every decoder, encoder and
	// walker already holds, to the integer checks.
	safeInts bool
}

// Default limits (DECISIONS rule 14).
const (
	DefaultMaxDepth    = 32
	DefaultMaxElements = 131072
	DefaultMaxKeyLen   = 8192
	DefaultMaxCBORSize = 1 << 20
	DefaultMaxJSONSize = 2 << 20
	DefaultMaxCIDLen   = 100
	// DefaultMaxValues holds the worst shapes at the default sizes to at most 32 bytes allocated
	// per input byte: one-key maps, the costliest per value, as many as the budget allows, take
	// 27 MB through UnmarshalCBOR and UnmarshalCBORStruct alike (TestReliability), into the
	// generic forms. Into the caller's own Go types, a value costs what its type takes: a []T
	// field holds len × size of T, a null element included, so that a slice of [64]int64 takes
	// 512 bytes per one-byte element (64 MB for 131,072 nulls); the Go type, not the input,
	// sets that cost, and the budget still bounds the count. It is
	// above DefaultMaxElements, so that one array of that many scalars passes, while
	// the largest record of testdata/records has 1215 values and no record schema of the Lexicons
	// allows an array of more than 1000 items (RELIABILITY.md has the measurements).
	DefaultMaxValues = 150_000
)

// MaxDepthCeiling is the largest MaxDepth any entry point applies; a larger MaxDepth is clamped to
// it. At this depth the deepest walker measured (the encoders, about 2 KB of stack per level of
// nested maps; the decoders, UnmarshalCBORStruct included, about 0.5 KB) needs about 2 MB of
// stack, far below Go's 1 GB maximum (TestStackPerLevel measures it).
const MaxDepthCeiling = 1024

// DefaultLimits returns the limits used when none are given.
func DefaultLimits() Limits {
	return Limits{
		MaxDepth:    DefaultMaxDepth,
		MaxElements: DefaultMaxElements,
		MaxKeyLen:   DefaultMaxKeyLen,
		MaxCBORSize: DefaultMaxCBORSize,
		MaxJSONSize: DefaultMaxJSONSize,
		MaxCIDLen:   DefaultMaxCIDLen,
		MaxValues:   DefaultMaxValues,
	}
}

// withDefaults returns l with every zero field replaced by its default and MaxDepth clamped
// to MaxDepthCeiling. Every entry point gets its limits through it (WithLimits), so none can recurse
// deeper than the ceiling.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	l.MaxDepth = min(l.MaxDepth, MaxDepthCeiling)
	if l.MaxElements <= 0 {
		l.MaxElements = d.MaxElements
	}
	if l.MaxKeyLen <= 0 {
		l.MaxKeyLen = d.MaxKeyLen
	}
	if l.MaxCBORSize <= 0 {
		l.MaxCBORSize = d.MaxCBORSize
	}
	if l.MaxJSONSize <= 0 {
		l.MaxJSONSize = d.MaxJSONSize
	}
	if l.MaxCIDLen <= 0 {
		l.MaxCIDLen = d.MaxCIDLen
	}
	if l.MaxValues <= 0 {
		l.MaxValues = d.MaxValues
	}
	return l
}

// Option configures a call: a decode, an encode or Validate. The same options serve the CBOR and
// JSON entry points; an option that does not concern a call (DisallowUnknownFields for an
// encoder, say) is ignored by it, and so is a nil Option (a conditional option left unset).
type Option func(*config)

type config struct {
	limits Limits
	// disallowUnknown (DisallowUnknownFields) makes UnmarshalCBORStruct refuse a map key that
	// has no struct field.
	disallowUnknown bool
	// registry (WithRegistry) gives the Go types of union members; registeredOnly
	// (RegisteredOnly) makes Registry.DecodeCBOR refuse a record type it does not hold.
	registry       *Registry
	registeredOnly bool
}

// WithLimits sets the limits of a call (a decode, an encode or Validate); zero fields keep their
// defaults.
func WithLimits(l Limits) Option {
	return func(c *config) {
		safe := c.limits.safeInts // so that the options combine in either order
		c.limits = l.withDefaults()
		c.limits.safeInts = safe
	}
}

// newConfig applies opts over the defaults. With no options it does not allocate.
func newConfig(opts []Option) config {
	c := config{limits: DefaultLimits()}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// limitsOf returns the limits that opts set. Without options it does not allocate, unlike
// newConfig, whose config escapes through the option functions.
func limitsOf(opts []Option) Limits {
	if len(opts) == 0 {
		return DefaultLimits()
	}
	return newConfig(opts).limits
}

// overLimit is the detail of every limit error (DECISIONS rule 14), one wording for all the entry
// points: "40 elements, limit 32" when the size found, n units, is known, and "limit 32" when it
// is not (n < 0: nesting depth, or an element count read as a stream).
func overLimit(n int, unit string, limit int) string {
	if n < 0 {
		return "limit " + strconv.Itoa(limit)
	}
	return strconv.Itoa(n) + " " + unit + ", limit " + strconv.Itoa(limit)
}
