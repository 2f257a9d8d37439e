package tid

import (
	"fmt"
	"time"
)

// FromUnixMicro returns the TID for us microseconds since the Unix epoch and the clock id
// clockID. It fails with [ErrTimeRange] if us is negative or above [MaxUnixMicro], and with
// [ErrClockID] if clockID is above [MaxClockID]: never a silent wrap (DECISIONS rule 5).
func FromUnixMicro(us int64, clockID uint) (TID, error) {
	if us < 0 || us > MaxUnixMicro {
		return 0, fmt.Errorf("tid: %d microseconds since the Unix epoch: %w", us, ErrTimeRange)
	}
	if clockID > MaxClockID {
		return 0, fmt.Errorf("tid: clock id %d: %w", clockID, ErrClockID)
	}
	return TID(uint64(us)<<clockBits | uint64(clockID)), nil
}

// FromTime returns the TID for the instant t, truncated down to the microsecond, and the clock
// id clockID. It fails with [ErrTimeRange] for instants before 1970-01-01T00:00:00Z or after
// 2255-06-05T23:47:34.740991Z, and with [ErrClockID] if clockID is above [MaxClockID].
func FromTime(t time.Time, clockID uint) (TID, error) {
	// Check the seconds first: t.UnixMicro overflows int64 for years beyond ±292277.
	if sec := t.Unix(); sec < 0 || sec > MaxUnixMicro/1_000_000 {
		return 0, fmt.Errorf("tid: time %s: %w", t.Format(time.RFC3339Nano), ErrTimeRange)
	}
	us := t.UnixMicro()
	if us > MaxUnixMicro {
		return 0, fmt.Errorf("tid: time %s: %w", t.Format(time.RFC3339Nano), ErrTimeRange)
	}
	return FromUnixMicro(us, clockID)
}
