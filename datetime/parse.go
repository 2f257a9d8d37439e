package datetime

import (
	"fmt"
	"strconv"

	"github.com/atcore/atcore/internal/echo"
)

// This file holds the strict reader: instant, the fast check that also computes the instant, and
// problem, the slow diagnosis that runs only when instant has said no.

// notDigit[c] is 1 unless c is an ASCII digit: the 14 digits of the fixed part OR together
// without a branch each.
var notDigit = func() (t [256]byte) {
	for c := range t {
		if c < '0' || c > '9' {
			t[c] = 1
		}
	}
	return t
}()

// pow10[k] scales a fraction of k digits to nanoseconds.
var pow10 = [10]uint32{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

const (
	fixedLen = len("YYYY-MM-DDTHH:MM:SS")
	// minUnix is 0000-01-01T00:00:00Z in Unix seconds: nothing before it is a valid datetime.
	minUnix = -62167219200
)

// chars is what instant reads: a string, or (for ParseLenient's rewritten form) a byte array
// on the stack, without converting one into the other.
type chars interface{ string | []byte }

// instant checks s against the strict layout and returns the instant (Unix seconds and
// nanoseconds) and the offset in minutes, or ok = false.
func instant[T chars](s T) (sec int64, nsec int32, off int16, ok bool) {
	n := len(s)
	if n < fixedLen+1 {
		return
	}
	_ = s[fixedLen]
	if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return
	}
	if notDigit[s[0]]|notDigit[s[1]]|notDigit[s[2]]|notDigit[s[3]]|
		notDigit[s[5]]|notDigit[s[6]]|notDigit[s[8]]|notDigit[s[9]]|
		notDigit[s[11]]|notDigit[s[12]]|notDigit[s[14]]|notDigit[s[15]]|
		notDigit[s[17]]|notDigit[s[18]] != 0 {
		return
	}
	year := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month := int(s[5]-'0')*10 + int(s[6]-'0')
	day := int(s[8]-'0')*10 + int(s[9]-'0')
	hour := int(s[11]-'0')*10 + int(s[12]-'0')
	minute := int(s[14]-'0')*10 + int(s[15]-'0')
	second := int(s[17]-'0')*10 + int(s[18]-'0')
	if uint(month-1) > 11 || day == 0 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59 {
		return
	}

	i := fixedLen
	if s[i] == '.' {
		i++
		start := i
		var frac uint32
		for i < n && notDigit[s[i]] == 0 {
			if i-start < 9 {
				frac = frac*10 + uint32(s[i]-'0')
			}
			i++
		}
		digits := i - start
		if digits == 0 || digits > MaxFractionDigits {
			return
		}
		nsec = int32(frac * pow10[min(digits, 9)])
	}

	// The time zone: "Z", or ±HH:MM with HH <= 23, MM <= 59, and not "-00:00".
	switch {
	case i == n-1 && s[i] == 'Z':
	case i == n-6 && (s[i] == '+' || s[i] == '-') && s[i+3] == ':':
		if notDigit[s[i+1]]|notDigit[s[i+2]]|notDigit[s[i+4]]|notDigit[s[i+5]] != 0 {
			return
		}
		oh := int(s[i+1]-'0')*10 + int(s[i+2]-'0')
		om := int(s[i+4]-'0')*10 + int(s[i+5]-'0')
		if oh > 23 || om > 59 {
			return
		}
		off = int16(oh*60 + om)
		if s[i] == '-' {
			if off == 0 {
				return
			}
			off = -off
		}
	default:
		return
	}

	sec = daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+second-int(off)*60)
	if sec < minUnix {
		return
	}
	return sec, nsec, off, true
}

// isLeap reports whether year is a leap year of the proleptic Gregorian calendar (year 0 is one).
func isLeap(year int) bool { return year%4 == 0 && (year%100 != 0 || year%400 == 0) }

// daysIn returns the number of days of month (1 to 12) in year.
func daysIn(year, month int) int {
	if month == 2 {
		if isLeap(year) {
			return 29
		}
		return 28
	}
	// 30 days hath September, April, June and November: bits 4, 6, 9, 11.
	return 31 - int(0b1010_0101_0000>>month&1)
}

// daysSinceEpoch returns the days from 1970-01-01 to year-month-day, for years 0 to 9999: the
// civil-to-days computation on 400-year eras, with 400 years added so that it never divides a
// negative number.
func daysSinceEpoch(year, month, day int) int64 {
	y := year + 400
	if month <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400 // 0 to 399
	mp := (month + 9) % 12
	doy := (153*mp+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097+doe) - 719468 - 146097
}

// layout names what each byte of the fixed part holds, for the diagnosis.
const layout = "YYYY-MM-DDTHH:MM:SS"

// fieldName names the field that byte i of the fixed part belongs to.
func fieldName(i int) string {
	switch {
	case i < 4:
		return "year (4 digits)"
	case i < 7:
		return "month (2 digits)"
	case i < 10:
		return "day (2 digits)"
	case i < 13:
		return "hour (2 digits)"
	case i < 16:
		return "minute (2 digits)"
	}
	return "second (2 digits)"
}

// quoteShort quotes a time zone for a reason, cut after 8 bytes: however long the input, the
// message echoes a bounded part of it (the whole input is quoted by echo.Message, also bounded).
func quoteShort(tz string) string {
	if len(tz) > 8 {
		return strconv.QuoteToASCII(tz[:8]) + "…"
	}
	return strconv.QuoteToASCII(tz)
}

// isDigitPos reports whether byte i of the fixed part is a digit.
func isDigitPos(i int) bool {
	c := layout[i]
	return c != '-' && c != ':' && c != 'T'
}

// fits reports whether c is what the layout wants at offset i of the fixed part: a digit where
// the layout has a field's letter, the separator itself elsewhere. (The letters are only names:
// a 'Y' in the year is not a digit.)
func fits(i int, c byte) bool {
	if isDigitPos(i) {
		return notDigit[c] == 0
	}
	return c == layout[i]
}

// fixedFault says what is wrong at offset i of the fixed part of s: s ends there, or s[i] is not
// what the layout wants.
func fixedFault(s string, i int) string {
	if i >= len(s) {
		return fmt.Sprintf("ends at offset %d, in the %s; want YYYY-MM-DDTHH:MM:SS and a time zone", len(s), fieldName(i))
	}
	c := s[i]
	at := fmt.Sprintf("%s at offset %d", echo.QuoteAt(s, i), i)
	switch {
	case isDigitPos(i) && i == 0 && (c == '+' || c == '-'):
		return at + ": a sign before the year is not allowed; the year has exactly 4 digits"
	case isDigitPos(i):
		return at + ": want a digit of the " + fieldName(i)
	case notDigit[c] == 0:
		return at + ": the " + fieldName(i-1) + " has too many digits"
	case i == 10 && c == 't':
		return at + ": date and time must be separated by upper-case 'T'"
	case i == 10:
		return at + ": date and time must be separated by 'T' (ISO 8601), not a space or another character"
	}
	return fmt.Sprintf("%s: want %q after the %s", at, layout[i], fieldName(i-1))
}

// problem explains why s is not a strict datetime; s must be invalid. It returns the offset of
// the first thing wrong (or -1), the sentinel and the reason.
func problem(s string) (offset int, reason string, sentinel error) {
	n := len(s)
	if n == 0 {
		return -1, "empty; want a datetime like 1985-04-12T23:20:50.123Z", ErrSyntax
	}
	for i := 0; i < fixedLen; i++ {
		if i >= n || !fits(i, s[i]) {
			return min(i, n), fixedFault(s, i), ErrSyntax
		}
	}

	year := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month := int(s[5]-'0')*10 + int(s[6]-'0')
	day := int(s[8]-'0')*10 + int(s[9]-'0')
	switch {
	case month < 1 || month > 12:
		return 5, fmt.Sprintf("month %s at offset 5 is out of range 01 to 12", s[5:7]), ErrRange
	case day < 1 || day > daysIn(year, month):
		return 8, fmt.Sprintf("day %s at offset 8 is out of range: %s has %d days", s[8:10], s[:7], daysIn(year, month)), ErrRange
	case s[11:13] > "23":
		return 11, fmt.Sprintf("hour %s at offset 11 is out of range 00 to 23", s[11:13]), ErrRange
	case s[14:16] > "59":
		return 14, fmt.Sprintf("minute %s at offset 14 is out of range 00 to 59", s[14:16]), ErrRange
	case s[17:19] > "59":
		return 17, fmt.Sprintf("second %s at offset 17 is out of range 00 to 59 (no leap seconds)", s[17:19]), ErrRange
	}

	i := fixedLen
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && notDigit[s[i]] == 0 {
			i++
		}
		switch digits := i - start; {
		case digits == 0:
			return start, fmt.Sprintf("no digit after the '.' at offset %d", start-1), ErrSyntax
		case digits > MaxFractionDigits:
			return start + MaxFractionDigits, fmt.Sprintf("%d fraction digits; at most %d are allowed", digits, MaxFractionDigits), ErrSyntax
		}
	}
	if i >= n {
		return n, "no time zone: end with 'Z' or an offset like +00:00", ErrSyntax
	}
	c := s[i]
	at := fmt.Sprintf("%s at offset %d", echo.QuoteAt(s, i), i)
	switch {
	case c == 'Z':
		if i+1 < n {
			return i + 1, fmt.Sprintf("%s at offset %d: nothing may follow the time zone", echo.QuoteAt(s, i+1), i+1), ErrSyntax
		}
	case c == 'z':
		return i, at + ": the time zone must be upper-case 'Z'", ErrSyntax
	case c == ',' && i == fixedLen:
		return i, at + ": the decimal mark must be '.'", ErrSyntax
	case c == '+' || c == '-':
		tz := s[i:]
		if len(tz) < 6 || tz[3] != ':' || notDigit[tz[1]]|notDigit[tz[2]]|notDigit[tz[4]]|notDigit[tz[5]] != 0 {
			return i, fmt.Sprintf("offset %s at offset %d: want ±HH:MM, two digits each side of a colon", quoteShort(tz), i), ErrSyntax
		}
		if len(tz) > 6 {
			return i + 6, fmt.Sprintf("%s at offset %d: nothing may follow the time zone", echo.QuoteAt(s, i+6), i+6), ErrSyntax
		}
		switch {
		case tz[1:3] > "23":
			return i + 1, fmt.Sprintf("offset hours %s at offset %d are out of range 00 to 23", tz[1:3], i+1), ErrRange
		case tz[4:6] > "59":
			return i + 4, fmt.Sprintf("offset minutes %s at offset %d are out of range 00 to 59", tz[4:6], i+4), ErrRange
		case tz == "-00:00":
			return i, fmt.Sprintf("offset -00:00 at offset %d is not allowed (ISO 8601); write Z or +00:00", i), ErrSyntax
		}
	case notDigit[c] == 0 && i == fixedLen:
		return i, at + ": the second (2 digits) has too many digits", ErrSyntax
	default:
		return i, at + ": want a time zone, 'Z' or ±HH:MM", ErrSyntax
	}
	// The layout and every field are right: only the instant can be wrong.
	if _, _, _, ok := instant(s); !ok {
		return i, fmt.Sprintf("the instant is before 0000-01-01T00:00:00Z once the offset %s is applied", s[i:]), ErrRange
	}
	// Unreachable for an invalid s; kept so that a wrong caller gets an error, not a panic.
	return -1, "rejected", ErrInvalid
}
