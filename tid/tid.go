// Package tid implements AT Protocol timestamp identifiers (TIDs): 64-bit, time-ordered ids
// written as 13 base32-sortable characters, used as record keys and repository revisions.
//
// A [TID] is a uint64: compare it with ==, sort it with < or [TID.Compare], use it as a map key.
// Its layout (https://atproto.com/specs/tid; DECISIONS rule 5): the top bit is 0, the next 53 bits count microseconds
// since the Unix epoch, and the low 10 bits are a clock id.
//
//	id := tid.Next()               // a new TID, strictly after every one before it
//	t, err := tid.Parse(s)         // strict: exactly the spec regex
//	when, clock := t.Time(), t.ClockID()
//
// Generation is lock-free and safe from any number of goroutines; see [Generator].
//
// A TID is stored as text (JSON, [TID.MarshalText]; SQL, [TID.Value]), as 8 big-endian bytes that
// sort as the TIDs do ([TID.Bytes], [FromBytes]), or as a SQL BIGINT (see [TID.Scan]). A string that
// is not a TID (or TID prefix) gives an *[Error]; every error matches one of the package's
// sentinels ([ErrSyntax], [ErrTimeRange], [ErrTopBit], [ErrAhead], [ErrClockID]) with
// [errors.Is], but for [TID.Scan]'s errors about NULL and column types. The rules followed
// where the texts disagree are numbered in the module's DECISIONS.md (rules 4 to 8).
package tid

import (
	"cmp"
	"strconv"
	"time"

	"github.com/atcore/atcore/internal/base32sort"
	"github.com/atcore/atcore/internal/echo"
)

// A TID is a timestamp identifier. Its zero value is the valid TID "2222222222222": the Unix
// epoch, clock id 0 (https://atproto.com/specs/tid: "The TID corresponding to integer zero is 2222222222222").
//
// Every string the spec regex accepts is a TID (DECISIONS rule 4), including the ones starting with
// c–j, which set the top bit. A generator never sets it, and [TID.Time], [TID.UnixMicro] ignore it.
type TID uint64

const (
	// Len is the length of a TID string.
	Len = 13

	// MaxClockID is the largest clock id: a TID keeps 10 bits for it.
	MaxClockID = 1023

	// MaxUnixMicro is the last microsecond a TID can hold, 2255-06-05T23:47:34.740991Z (53 bits).
	MaxUnixMicro = 1<<53 - 1

	clockBits = 10
	topBit    = 1 << 63
)

// Parse parses a TID in its canonical form: exactly 13 characters matching
// ^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$ (https://atproto.com/specs/tid;
// DECISIONS rule 4). Upper case and the legacy dashed form are rejected (see [ParseLenient]). An
// error is an *[Error] matching [ErrSyntax], which reports a wrong length before a wrong
// character. Parse does not allocate unless it fails.
func Parse(s string) (TID, error) {
	if v, ok := base32sort.Decode13(s); ok {
		return TID(v), nil
	}
	return 0, syntaxError(s, false)
}

// MustParse is like [Parse] but panics if s is not a TID. It is intended for tests and
// hard-coded strings.
func MustParse(s string) TID {
	t, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// IsValid reports whether s is a TID in its canonical form, as [Parse] would accept it.
func IsValid(s string) bool {
	_, ok := base32sort.Decode13(s)
	return ok
}

// ParseLenient parses a TID in its canonical form or in the legacy dashed form STTT-TTT-TTTT-CC
// that early versions allowed (DECISIONS rule 8). Use it only to read old data: the spec says
// hyphens "should be rejected when parsing" (https://atproto.com/specs/tid), which [Parse] does.
func ParseLenient(s string) (TID, error) {
	if len(s) == dashedLen && s[4] == '-' && s[8] == '-' && s[13] == '-' {
		var buf [Len]byte
		copy(buf[0:4], s[0:4])
		copy(buf[4:7], s[5:8])
		copy(buf[7:11], s[9:13])
		copy(buf[11:13], s[14:16])
		if v, ok := base32sort.Decode13(string(buf[:])); ok {
			return TID(v), nil
		}
	} else if v, ok := base32sort.Decode13(s); ok {
		return TID(v), nil
	}
	return 0, syntaxError(s, true)
}

// dashedLen is the length of the dashed form STTT-TTT-TTTT-CC.
const dashedLen = Len + 3

// syntaxError explains why s is not a TID. It runs only after the fast path failed.
func syntaxError(s string, lenient bool) *Error {
	i, reason := problem(s, lenient)
	return newError("TID", s, i, reason, ErrSyntax)
}

// problem returns the offset of the first thing wrong with s, which is not a TID, and what it
// is. The length comes first, as for every key type of rkey: "self" is 4 characters long before
// its 'l' is above 'j'.
func problem(s string, lenient bool) (offset int, reason string) {
	n := len(s)
	switch {
	case n == 0:
		return -1, "empty; a TID has 13 characters"
	case n == dashedLen && s[4] == '-' && s[8] == '-' && s[13] == '-':
		if lenient {
			return dashedProblem(s)
		}
		return 4, badChar(s, 4, false) // the legacy form, named as such rather than by its length
	case lenient && n == dashedLen:
		return dashedProblem(s)
	case n != Len:
		want, end := "a TID has 13 characters", Len
		if lenient {
			want = "a TID has 13 characters, or 16 in the dashed form STTT-TTT-TTTT-CC"
			if n > Len {
				end = dashedLen
			}
		}
		return min(n, end), want + "; this has " + strconv.Itoa(n)
	}
	return charProblem(s, lenient)
}

// charProblem returns the first character of s that no TID (or TID prefix) has there, and why;
// it returns -1, "" if there is none.
func charProblem(s string, lenient bool) (offset int, reason string) {
	if i := base32sort.IndexInvalid(s); i >= 0 {
		return i, badChar(s, i, lenient)
	}
	if len(s) > 0 && s[0] > 'j' {
		return 0, "first character " + echo.QuoteAt(s, 0) + " is above 'j': the value would not fit in 64 bits"
	}
	return -1, ""
}

// dashedProblem explains why s, 16 bytes long, is not a TID in the dashed form STTT-TTT-TTTT-CC.
func dashedProblem(s string) (offset int, reason string) {
	for i := 0; i < len(s); i++ {
		if i == 4 || i == 8 || i == 13 {
			continue
		}
		if _, ok := base32sort.Value(s[i]); !ok {
			return i, badChar(s, i, true)
		}
	}
	for _, i := range [...]int{4, 8, 13} {
		if s[i] != '-' {
			return i, echo.QuoteAt(s, i) + " at offset " + strconv.Itoa(i) + ": the dashed form STTT-TTT-TTTT-CC has '-' there"
		}
	}
	return charProblem(s[:4], true) // every character fits: the first is above 'j'
}

// badChar says what is wrong with s[i], a byte outside the base32-sortable alphabet.
func badChar(s string, i int, lenient bool) string {
	at := echo.QuoteAt(s, i) + " at offset " + strconv.Itoa(i)
	switch c := s[i]; {
	case c == '-' && lenient:
		return at + ": hyphens are allowed only as in the dashed form STTT-TTT-TTTT-CC"
	case c == '-':
		return at + ": hyphens (the legacy dashed form) are not allowed"
	case c >= 'A' && c <= 'Z':
		return at + ": upper case is not allowed"
	}
	return at + " is not in the base32-sortable alphabet " + base32sort.Alphabet
}

// IsValid reports true: every 64-bit value is a TID (DECISIONS rule 4), the zero TID
// ("2222222222222") included, so a TID holds no "absent" state; use a *TID or sql.Null[TID]
// for one that may be missing. The method gives TID the verb set that every identifier type of
// the module has (netip's), for code written against it.
func (t TID) IsValid() bool { return true }

// String returns the 13-character canonical form of t.
func (t TID) String() string {
	var buf [Len]byte
	base32sort.Encode13(buf[:], uint64(t))
	return string(buf[:])
}

// AppendText appends the canonical form of t to b. It implements [encoding.TextAppender] and
// never fails.
func (t TID) AppendText(b []byte) ([]byte, error) {
	return base32sort.Append13(b, uint64(t)), nil
}

// MarshalText implements [encoding.TextMarshaler]: the canonical form, so that encoding/json
// writes a TID as a JSON string.
func (t TID) MarshalText() ([]byte, error) {
	return t.AppendText(make([]byte, 0, Len))
}

// UnmarshalText implements [encoding.TextUnmarshaler] with [Parse]'s strict rules.
//
// With encoding/json, a JSON null leaves a TID unchanged and sets a *TID to nil: use a *TID for a
// field that may be null, since the zero TID is itself a valid TID.
func (t *TID) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Dashed returns t in the dashed display form STTT-TTT-TTTT-CC (DECISIONS rule 8), for people
// to read. It is not a valid TID string: [Parse] rejects it, [ParseLenient] accepts it.
func (t TID) Dashed() string {
	var c [Len]byte
	base32sort.Encode13(c[:], uint64(t))
	d := [dashedLen]byte{
		c[0], c[1], c[2], c[3], '-',
		c[4], c[5], c[6], '-',
		c[7], c[8], c[9], c[10], '-',
		c[11], c[12],
	}
	return string(d[:])
}

// Compare returns -1, 0 or +1 as t is before, equal to, or after u. TIDs order as their strings
// do (https://atproto.com/specs/tid: base32-sortable).
func (t TID) Compare(u TID) int { return cmp.Compare(t, u) }

// UnixMicro returns the microseconds since the Unix epoch that t holds: bits 62 to 10.
func (t TID) UnixMicro() int64 { return int64(t>>clockBits) & MaxUnixMicro }

// Time returns the instant t holds, in UTC, with microsecond precision.
func (t TID) Time() time.Time { return time.UnixMicro(t.UnixMicro()).UTC() }

// ClockID returns t's clock id, 0 to 1023: the low 10 bits.
func (t TID) ClockID() uint { return uint(t & MaxClockID) }

// ClockClass returns the range t's clock id falls in (DECISIONS rule 7).
func (t TID) ClockClass() ClockClass { return classOf(t.ClockID()) }

// A ClockClass is one of the three ranges of clock ids the TID draft defines (DECISIONS rule 7).
type ClockClass uint8

const (
	// BestEffort: clock ids 0–31, chosen at random without coordination; the default.
	BestEffort ClockClass = iota
	// ContextDependent: clock ids 32–991, assigned by a deployment, e.g. one per worker.
	ContextDependent
	// GloballyUnique: clock ids 992–1023, only for ids registered globally.
	GloballyUnique
)

// String returns "best-effort", "context-dependent" or "globally-unique".
func (c ClockClass) String() string {
	switch c {
	case BestEffort:
		return "best-effort"
	case ContextDependent:
		return "context-dependent"
	case GloballyUnique:
		return "globally-unique"
	}
	return "ClockClass(" + strconv.Itoa(int(c)) + ")"
}

// classOf returns the class of clock id id, which must be at most 1023.
func classOf(id uint) ClockClass {
	switch {
	case id < 32:
		return BestEffort
	case id < 992:
		return ContextDependent
	}
	return GloballyUnique
}
