package datetime

import (
	"fmt"

	"github.com/atcore/atcore/internal/echo"
)

// ParseLenient reads s as [Parse] does and, failing that, tolerates the looser forms that
// older records hold. Each tolerance, and nothing else:
//
//   - lower-case 't' between date and time, and lower-case 'z' (RFC 3339 §5.6 allows both);
//   - a space between date and time (RFC 3339 §5.6's note allows it);
//   - a ',' as the decimal mark (ISO 8601 allows it);
//   - more than 20 fraction digits (the spec allows "arbitrary" precision);
//   - no time zone at all: the time is read as UTC;
//   - an offset without its colon (+HHMM) or without minutes (+HH);
//   - "-00:00" ("unknown local offset" in RFC 3339), also as -0000 or -00: read as UTC.
//
// The date and time fields themselves must be as strict as ever: four-digit year, two digits for
// each other field, real calendar values, and an instant at or after 0000-01-01T00:00:00Z.
//
// The Datetime keeps s as it came, so that an old record written back keeps its bytes and CID:
// its String may be a form that [Parse] rejects (IsValid(d.String()) tells). To write a new
// record, use FromTime(d.Time()). Like Parse, ParseLenient does not allocate unless it fails.
func ParseLenient(s string) (Datetime, error) {
	if sec, nsec, off, ok := instant(s); ok {
		return Datetime{s: s, sec: sec, nsec: nsec, off: off}, nil
	}
	var buf [lenientMax]byte
	n, bad, reason := rewrite(s, &buf)
	if reason != "" {
		return Datetime{}, newError(s, bad, ErrSyntax, reason)
	}
	sec, nsec, off, ok := instant(buf[:n])
	if !ok {
		return Datetime{}, lenientRange(s, string(buf[:n]), bad)
	}
	return Datetime{s: s, sec: sec, nsec: nsec, off: off}, nil
}

// lenientMax is the longest strict form rewrite makes: the fixed part, 20 fraction digits and
// their point, and an offset.
const lenientMax = fixedLen + 1 + MaxFractionDigits + len("+00:00")

// rewrite writes into buf the strict form of s under ParseLenient's tolerances and returns its
// length and the offset in s where the time zone starts. If s is not of a tolerated shape, it
// returns the offset of the first thing wrong and a reason instead. The values of the fields are
// not checked here: instant does that on the result.
func rewrite(s string, buf *[lenientMax]byte) (n, zone int, reason string) {
	for i := 0; i < fixedLen; i++ {
		if i >= len(s) {
			return 0, i, fixedFault(s, i)
		}
		c := s[i]
		if i == 10 {
			if c != 'T' && c != 't' && c != ' ' {
				return 0, i, fmt.Sprintf("%s at offset %d: want 'T', 't' or a space between date and time", echo.QuoteAt(s, i), i)
			}
			c = 'T'
		} else if !fits(i, c) {
			return 0, i, fixedFault(s, i)
		}
		buf[i] = c
	}
	n, i := fixedLen, fixedLen
	if i < len(s) && (s[i] == '.' || s[i] == ',') {
		buf[n] = '.'
		n++
		i++
		start := i
		for i < len(s) && notDigit[s[i]] == 0 {
			if i-start < MaxFractionDigits {
				buf[n] = s[i]
				n++
			}
			i++
		}
		if i == start {
			return 0, i, fmt.Sprintf("no digit after the %q at offset %d", s[start-1], start-1)
		}
	}
	zone = i
	tz := s[i:]
	switch {
	case tz == "" || tz == "Z" || tz == "z":
		buf[n] = 'Z'
		return n + 1, zone, ""
	case tz[0] == '+' || tz[0] == '-':
		var hhmm [4]byte
		switch {
		case len(tz) == 6 && tz[3] == ':':
			hhmm = [4]byte{tz[1], tz[2], tz[4], tz[5]}
		case len(tz) == 5:
			hhmm = [4]byte{tz[1], tz[2], tz[3], tz[4]}
		case len(tz) == 3:
			hhmm = [4]byte{tz[1], tz[2], '0', '0'}
		default:
			return 0, i, fmt.Sprintf("offset %s at offset %d: want ±HH:MM, ±HHMM or ±HH", quoteShort(tz), i)
		}
		if notDigit[hhmm[0]]|notDigit[hhmm[1]]|notDigit[hhmm[2]]|notDigit[hhmm[3]] != 0 {
			return 0, i, fmt.Sprintf("offset %s at offset %d: want ±HH:MM, ±HHMM or ±HH", quoteShort(tz), i)
		}
		sign := tz[0]
		if hhmm == [4]byte{'0', '0', '0', '0'} {
			sign = '+' // "-00:00" and its short forms: read as UTC
		}
		buf[n], buf[n+1], buf[n+2], buf[n+3], buf[n+4], buf[n+5] = sign, hhmm[0], hhmm[1], ':', hhmm[2], hhmm[3]
		return n + 6, zone, ""
	}
	return 0, i, fmt.Sprintf("%s at offset %d: want a time zone ('Z' or ±HH:MM), or nothing", echo.QuoteAt(s, i), i)
}

// lenientRange explains why strict, the rewritten form of s whose time zone starts at offset
// zone of s, has a value out of range. Offsets within the fixed part are the same in both
// strings; a fault in the time zone is reported where s's time zone starts.
func lenientRange(s, strict string, zone int) error {
	off, reason, sentinel := problem(strict)
	// Past the fixed part, only a numeric offset can be out of range: rewrite checked the shape.
	if off >= fixedLen && strict[len(strict)-1] != 'Z' {
		tz := strict[len(strict)-6:]
		why := "the instant is before 0000-01-01T00:00:00Z once the offset is applied"
		switch {
		case tz[1:3] > "23":
			why = "offset hours out of range 00 to 23"
		case tz[4:6] > "59":
			why = "offset minutes out of range 00 to 59"
		}
		off, reason = zone, fmt.Sprintf("time zone %s at offset %d: %s", quoteShort(s[zone:]), zone, why)
	}
	return newError(s, off, sentinel, reason)
}
