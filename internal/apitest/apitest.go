// Package apitest holds what the tests of the identifier packages (tid, rkey, nsid, did, handle,
// atident, aturi, datetime, lang) share about their common API: the offsets a located error
// gives, and (in its own tests) the check that every identifier type has the whole verb set.
package apitest

// OffsetAt is the Offset that ValidateAt(in, base) must give for an input whose error, on its
// own (base 0), has Offset off: off moved by base; -1 (the input as a whole at fault) stays -1;
// and an empty input, whose Offset is -1 on its own, has a place in the longer input: base (the
// module's rule, internal/echo.EmptyOffset).
func OffsetAt(in string, off, base int) int {
	switch {
	case in == "" && base > 0:
		return base
	case off < 0:
		return -1
	}
	return off + base
}
