package datamodel

import (
	"errors"
	"strconv"
)

// JavaScript-safe integers (DECISIONS rule 10). The data-model spec
// (https://atproto.com/specs/data-model, "Data Types") advises keeping integers within 53 bits,
// and the TypeScript stack enforces it: its JSON parser refuses 2^53 and its CBOR encoder will
// not write it. A service that accepts such an integer stores a record that half the network
// cannot read, so WithSafeIntegers lets it refuse them at the door. The default stays int64.

// The range of WithSafeIntegers: ±(2^53−1), JavaScript's Number.MAX_SAFE_INTEGER, the largest
// magnitude at which every integer has its own float64.
const (
	MaxSafeInteger = 1<<53 - 1
	MinSafeInteger = -MaxSafeInteger
)

// ErrUnsafeInteger is the rule broken by an integer outside ±(2^53−1) under WithSafeIntegers.
// An integer outside int64 is ErrIntegerRange, with or without the option.
var ErrUnsafeInteger = errors.New("integer outside ±(2^53−1), the JavaScript-safe range")

// WithSafeIntegers refuses integers outside [MinSafeInteger, MaxSafeInteger] with
// ErrUnsafeInteger, located like every other error. Every entry point that takes options honours
// it, reading and writing alike: UnmarshalCBOR, UnmarshalCBORPrefix, ScanCBOR,
// UnmarshalCBORStruct, UnmarshalJSON, UnmarshalJSONStruct, the stream decoders,
// Registry.DecodeCBOR and DecodeJSON, MarshalCBOR, AppendCBOR, MarshalCBORStruct, MarshalJSON,
// MarshalJSONIndent, AppendJSON, MarshalJSONStruct, JSONToCBOR, CBORToJSON, Validate and
// ValidateRecord. Blob sizes are integers too. It combines with WithLimits in either order.
func WithSafeIntegers() Option {
	return func(c *config) { c.limits.safeInts = true }
}

// isSafeInt reports whether n is within ±(2^53−1): one comparison, as n+MaxSafeInteger is in
// [0, 2·MaxSafeInteger] exactly when n is in range (and wraps far above it otherwise).
func isSafeInt(n int64) bool {
	return uint64(n+MaxSafeInteger) <= 2*MaxSafeInteger
}

// errUnsafeInteger is the error for the integer n under WithSafeIntegers, for the Go values of
// the encoders and Validate (no offset; the callers prepend the path).
func errUnsafeInteger(n int64) *Error {
	return valueError(ErrUnsafeInteger, strconv.FormatInt(n, 10))
}

// checkSafeInt returns the error for n if lim asks for safe integers and n is outside them.
func checkSafeInt(n int64, lim *Limits) *Error {
	if lim.safeInts && !isSafeInt(n) {
		return errUnsafeInteger(n)
	}
	return nil
}

// cborSafeArg reports whether a CBOR integer of major type major (0: n, 1: −1−n) with argument
// arg is within ±(2^53−1).
func cborSafeArg(major byte, arg uint64) bool {
	if major == 0 {
		return arg <= MaxSafeInteger
	}
	return arg <= MaxSafeInteger-1
}
