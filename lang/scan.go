package lang

import (
	"fmt"
	"strings"

	"github.com/atcore/atcore/internal/echo"
)

// This file holds the check: scan walks the subtags once and says ok or names a fault with its
// offset; the reason in words is written only when Parse fails (invalid, reason).

// Character classes of the bytes a tag may hold.
const (
	lower = 1 << iota
	upper
	digit
	alnum = lower | upper | digit
)

var class = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = lower
		t[c-'a'+'A'] = upper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = digit
	}
	return t
}()

// A fault is what scan found wrong.
type fault uint8

const (
	ok fault = iota
	faultEmpty
	faultLong
	faultChar          // a byte that is neither a letter, a digit nor '-'
	faultEmptySubtag   // "--", or a '-' at either end
	faultLongSubtag    // more than 8 characters
	faultPrimaryCase   // "JA"
	faultPrimary       // a primary language subtag that is not 2 or 3 letters
	faultPlace         // a subtag of a shape that may not come where it is
	faultBareSingleton // an extension singleton or "x" with no subtag after it
	faultDupVariant
	faultDupSingleton
)

// scan checks s as a tag in the langtag or private-use form of RFC 5646 §2.1, under the atproto
// rules of the package doc. It returns ok, or a fault and the offset where it lies (-1 for the
// whole input). Irregular grandfathered tags fail here and are matched by isIrregular.
func scan(s string) (int, fault) {
	n := len(s)
	if n == 0 {
		return -1, faultEmpty
	}
	if n > MaxLen {
		return MaxLen, faultLong
	}
	// The primary language subtag: 2 or 3 lower-case letters, or the "x" of a private-use tag.
	j, cls := 0, uint8(0)
	for j < n && s[j] != '-' {
		c := class[s[j]]
		if c == 0 {
			return j, faultChar
		}
		cls |= c
		j++
	}
	switch {
	case j == 0:
		return 0, faultEmptySubtag
	case j > 8:
		return 8, faultLongSubtag
	case j == 1 && (s[0] == 'x' || s[0] == 'X'):
		return privateUse(s, 1)
	case cls&digit != 0 || j > 3:
		return 0, faultPrimary
	case cls != lower:
		return 0, faultPrimaryCase
	case j == 1:
		return 0, faultPrimary
	case j == n:
		return -1, ok // "en", "ban": a bare language, the most common tag
	}
	// "pt-BR", "es-419": a language and a region, the next most common form.
	const letter = lower | upper
	switch r := s[j+1:]; len(r) {
	case 2:
		if class[r[0]]&letter != 0 && class[r[1]]&letter != 0 {
			return -1, ok
		}
	case 3:
		if class[r[0]]&class[r[1]]&class[r[2]] == digit {
			return -1, ok
		}
	}
	return subtags(s, j+1)
}

// subtags checks the subtags after the primary language, from s[i] on.
func subtags(s string, i int) (int, fault) {
	// Stages of a langtag, in the order its parts must come.
	const (
		afterLanguage = iota // extlangs, script, region, variants, extensions or private use may follow
		afterScript          // region, variants, …
		afterRegion          // variants, …
		inExtension          // extension subtags, another singleton, or private use
	)
	var (
		n          = len(s)
		stage      = afterLanguage
		extlangs   = 0
		singletons uint64 // bit per singleton seen (singletonIndex)
		variants   = -1   // offset of the first variant
		needSub    = -1   // offset of a singleton still waiting for its first subtag
	)
	for {
		// One subtag: s[i:j], with its character classes OR-ed together.
		j, cls := i, uint8(0)
		for j < n && s[j] != '-' {
			c := class[s[j]]
			if c == 0 {
				return j, faultChar
			}
			cls |= c
			j++
		}
		size := j - i
		switch {
		case size == 0:
			return i, faultEmptySubtag
		case size > 8:
			return i + 8, faultLongSubtag
		case size == 1:
			if needSub >= 0 {
				return needSub, faultBareSingleton
			}
			if s[i] == 'x' || s[i] == 'X' {
				return privateUse(s, j)
			}
			bit := uint64(1) << singletonIndex(s[i])
			if singletons&bit != 0 {
				return i, faultDupSingleton
			}
			singletons |= bit
			stage, needSub = inExtension, i
		case stage == inExtension:
			needSub = -1 // 2 to 8 characters: a subtag of the extension
		case stage == afterLanguage && extlangs < 3 && size == 3 && cls&digit == 0:
			extlangs++
		case stage == afterLanguage && size == 4 && cls&digit == 0:
			stage = afterScript
		case stage <= afterScript && (size == 2 && cls&digit == 0 || size == 3 && cls == digit):
			stage = afterRegion
		case size >= 5 || size == 4 && class[s[i]] == digit:
			if variants < 0 {
				variants = i
			} else if repeated(s[variants:i-1], s[i:j]) {
				return i, faultDupVariant
			}
			stage = afterRegion
		default:
			return i, faultPlace
		}
		if j == n {
			break
		}
		i = j + 1
	}
	if needSub >= 0 {
		return needSub, faultBareSingleton
	}
	return -1, ok
}

// repeated reports whether v is among the '-'-separated variants of list, without regard to
// case. Tags are short (MaxLen) and rarely have two variants: a rescan costs less than a set.
func repeated(list, v string) bool {
	for list != "" {
		w := list
		if k := strings.IndexByte(list, '-'); k >= 0 {
			w, list = list[:k], list[k+1:]
		} else {
			list = ""
		}
		if len(w) == len(v) && foldEqual(w, v) {
			return true
		}
	}
	return false
}

// foldEqual compares two strings of ASCII letters and digits of the same length without regard
// to case: setting bit 0x20 lowers a letter and leaves a digit as it is.
func foldEqual(a, b string) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k]|0x20 != b[k]|0x20 {
			return false
		}
	}
	return true
}

// singletonIndex numbers a singleton's character 0 to 35, both cases of a letter alike.
func singletonIndex(c byte) uint {
	if class[c] == digit {
		return uint(c - '0')
	}
	return uint(c|0x20-'a') + 10
}

// privateUse checks the private-use subtags after the "x" that ends at s[j]: one or more of 1 to
// 8 letters or digits, up to the end.
func privateUse(s string, j int) (int, fault) {
	if j == len(s) {
		return j - 1, faultBareSingleton
	}
	for i := j + 1; ; {
		k := i
		for k < len(s) && s[k] != '-' {
			if class[s[k]] == 0 {
				return k, faultChar
			}
			k++
		}
		switch {
		case k == i:
			return i, faultEmptySubtag
		case k-i > 8:
			return i + 8, faultLongSubtag
		case k == len(s):
			return -1, ok
		}
		i = k + 1
	}
}

// irregular lists the irregular grandfathered tags of RFC 5646 §2.1, which the langtag form
// does not match. (The regular ones, such as "zh-hakka", are well-formed langtags already.)
var irregular = [...]string{
	"en-GB-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux",
	"i-mingo", "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-BE-FR", "sgn-BE-NL", "sgn-CH-DE",
}

// isIrregular reports whether s is an irregular grandfathered tag: case-insensitive as in RFC
// 5646, except that "en" and "sgn", ISO 639 codes, must be lower case like every primary language.
func isIrregular(s string) bool {
	if len(s) < 5 || len(s) > 11 {
		return false
	}
	for _, g := range irregular {
		if len(s) == len(g) && strings.EqualFold(s, g) {
			primary, _, _ := strings.Cut(g, "-")
			return primary == "i" || strings.HasPrefix(s, primary)
		}
	}
	return false
}

// invalid builds Parse's error, out of line so that Parse stays small.
//
//go:noinline
func invalid(s string) error {
	off, f := scan(s)
	reason, sentinel := describe(s, off, f)
	return &Error{Kind: "language tag", Input: echo.Clip(s), Len: len(s), Offset: off, Reason: reason, Err: sentinel}
}

// describe puts fault f at offset off of s into words.
func describe(s string, off int, f fault) (reason string, sentinel error) {
	subtag := func() string {
		end := strings.IndexByte(s[off:], '-')
		if end < 0 {
			return s[off:]
		}
		return s[off : off+end]
	}
	switch f {
	case faultEmpty:
		return "empty; want a tag such as \"en\" or \"pt-BR\"", ErrLength
	case faultLong:
		return fmt.Sprintf("%d bytes long; a language tag has at most %d", len(s), MaxLen), ErrLength
	case faultChar:
		return fmt.Sprintf("%s at offset %d: a tag holds only ASCII letters, digits and '-'", echo.QuoteAt(s, off), off), ErrSyntax
	case faultEmptySubtag:
		return fmt.Sprintf("empty subtag at offset %d: '-' must separate subtags of 1 to 8 characters", off), ErrSyntax
	case faultLongSubtag:
		return fmt.Sprintf("subtag at offset %d is longer than 8 characters", off-8), ErrSyntax
	case faultPrimaryCase:
		return fmt.Sprintf("%q at offset %d: the primary language subtag must be lower case", subtag(), off), ErrSyntax
	case faultPrimary:
		return fmt.Sprintf("%q at offset %d: the primary language subtag must be an ISO 639 code of 2 or 3 letters", subtag(), off), ErrSyntax
	case faultPlace:
		return fmt.Sprintf("subtag %q at offset %d is out of place: after the language come up to 3 extended language subtags (3 letters), a script (4 letters), a region (2 letters or 3 digits), variants (5 to 8 characters, or a digit and 3), extensions, private use", subtag(), off), ErrSyntax
	case faultBareSingleton:
		return fmt.Sprintf("singleton %q at offset %d has no subtag after it", s[off], off), ErrSyntax
	case faultDupVariant:
		return fmt.Sprintf("variant %q at offset %d appears twice (RFC 5646 §2.2.5)", subtag(), off), ErrDuplicate
	case faultDupSingleton:
		return fmt.Sprintf("extension singleton %q at offset %d appears twice (RFC 5646 §2.2.6)", subtag(), off), ErrDuplicate
	}
	// Unreachable for an invalid s; kept so that a wrong caller gets an error, not a panic.
	return "rejected", ErrInvalid
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if class[s[i]]&(lower|upper) == 0 {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if class[s[i]] != digit {
			return false
		}
	}
	return true
}
