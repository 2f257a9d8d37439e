package datamodel

import "strconv"

// Limits bound the work and memory spent on untrusted input (DECISIONS rule 14). The defaults come
// from the atproto data-validation guide. A zero field means "use the default"; to lift a limit,
// set it to a large value.
type Limits struct {
	MaxDepth    int // nesting depth of arrays and maps; the top-level value is depth 1
	MaxElements int // entries in one array or map
	MaxKeyLen   int // bytes in one map key
	MaxCBORSize int // bytes in one CBOR record
	MaxJSONSize int // bytes in one JSON record
	MaxCIDLen   int // bytes in one binary CID
}

// Default limits (DECISIONS rule 14).
const (
	DefaultMaxDepth    = 32
	DefaultMaxElements = 131072
	DefaultMaxKeyLen   = 8192
	DefaultMaxCBORSize = 1 << 20
	DefaultMaxJSONSize = 2 << 20
	DefaultMaxCIDLen   = 100
)

// DefaultLimits returns the limits used when none are given.
func DefaultLimits() Limits {
	return Limits{
		MaxDepth:    DefaultMaxDepth,
		MaxElements: DefaultMaxElements,
		MaxKeyLen:   DefaultMaxKeyLen,
		MaxCBORSize: DefaultMaxCBORSize,
		MaxJSONSize: DefaultMaxJSONSize,
		MaxCIDLen:   DefaultMaxCIDLen,
	}
}

// withDefaults returns l with every zero field replaced by its default.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
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
	return l
}

// Option configures a decode. The same options serve the CBOR and JSON decoders.
type Option func(*config)

type config struct {
	limits Limits
}

// WithLimits sets the limits for a decode; zero fields keep their defaults.
func WithLimits(l Limits) Option {
	return func(c *config) { c.limits = l.withDefaults() }
}

// newConfig applies opts over the defaults. With no options it does not allocate.
func newConfig(opts []Option) config {
	c := config{limits: DefaultLimits()}
	for _, o := range opts {
		o(&c)
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
