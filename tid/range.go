package tid

import (
	"strconv"
	"time"

	"github.com/atcore/atcore/internal/base32sort"
	"github.com/atcore/atcore/internal/echo"
)

// Bounds returns the smallest and the largest TID at the microsecond of t: clock ids 0 and 1023.
// All TIDs at that microsecond lie in [lo, hi], so a range query over a TID-keyed table from
// instant a to instant b can select keys from the lo of a to the hi of b. Errors are those of [FromTime].
func Bounds(t time.Time) (lo, hi TID, err error) {
	lo, err = FromTime(t, 0)
	if err != nil {
		return 0, 0, err
	}
	return lo, lo | MaxClockID, nil
}

// PrefixBounds returns the smallest and the largest TID whose string starts with prefix, which
// is 1 to 13 characters of a TID: prefix must match the start of the spec regex. A TID t starts
// with prefix exactly when lo <= t && t <= hi.
func PrefixBounds(prefix string) (lo, hi TID, err error) {
	if n := len(prefix); n == 0 || n > Len {
		off := min(n, Len)
		if n == 0 {
			off = -1
		}
		return 0, 0, prefixError(prefix, off, "a TID prefix has 1 to 13 characters; this has "+strconv.Itoa(n), ErrSyntax)
	}
	if i, reason := charProblem(prefix, false); reason != "" {
		return 0, 0, prefixError(prefix, i, reason, ErrSyntax)
	}
	v, _ := base32sort.Decode(prefix) // cannot fail: checked above
	shift := 5 * uint(Len-len(prefix))
	lo = TID(v << shift)
	return lo, lo | TID(uint64(1)<<shift-1), nil
}

// PrefixRange returns the first and the last instant held by the TIDs that start with prefix
// (from the TID draft, kept by DECISIONS rule 8: "prefixes can be used to mask ranges"). For
// example "3kxn" spans 2024-07-19T11:28:52.498432Z to 2024-07-19T21:01:32.236799Z. A prefix of 11 or more
// characters names a single microsecond. Prefixes starting with c–j set the top bit, which holds
// no time: they fail with [ErrTopBit].
func PrefixRange(prefix string) (first, last time.Time, err error) {
	lo, hi, err := PrefixBounds(prefix)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if lo&topBit != 0 {
		return time.Time{}, time.Time{}, prefixError(prefix, 0,
			"first character "+echo.QuoteAt(prefix, 0)+" sets the top bit, which holds no time", ErrTopBit)
	}
	return lo.Time(), hi.Time(), nil
}

func prefixError(prefix string, offset int, reason string, sentinel error) *Error {
	return newError("TID prefix", prefix, offset, reason, sentinel)
}
