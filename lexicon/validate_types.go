package lexicon

import (
	"slices"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/internal/plural"
)

// integer checks const, enum, minimum and maximum
// (https://atproto.com/specs/lexicon#integer).
func (st *state) integer(n *node, i int64) bool {
	switch {
	case n.flags&hasConst != 0 && i != n.constInt:
		return st.fail("const", "%d: must be %d", i, n.constInt)
	case n.enumInt != nil && !slices.Contains(n.enumInt, i):
		return st.fail("enum", "%d is not one of %v", i, n.enumInt)
	case n.flags&hasMin != 0 && i < n.minimum:
		return st.fail("minimum", "%d is below the minimum %d", i, n.minimum)
	case n.flags&hasMax != 0 && i > n.maximum:
		return st.fail("maximum", "%d is above the maximum %d", i, n.maximum)
	}
	return true
}

// length checks minLength and maxLength: UTF-8 bytes of a string, bytes of a bytes value,
// elements of an array.
func (st *state) length(n *node, l int64, unit string) bool {
	switch {
	case n.flags&hasMinLen != 0 && l < n.minLen:
		return st.fail("minLength", "%d %s, at least %d", l, unit, n.minLen)
	case n.flags&hasMaxLen != 0 && l > n.maxLen:
		return st.fail("maxLength", "%d %s, at most %d", l, unit, n.maxLen)
	}
	return true
}

// string checks const, enum, lengths in bytes and graphemes, and the format
// (https://atproto.com/specs/lexicon#string). knownValues are advice, not a rule: not checked.
func (st *state) string(n *node, s string) bool {
	if n.flags&hasConst != 0 && s != n.constStr {
		return st.fail("const", "%q: must be %q", clip(s), n.constStr)
	}
	if n.enumStr != nil && !slices.Contains(n.enumStr, s) {
		return st.fail("enum", "%q is not one of %q", clip(s), n.enumStr)
	}
	ok := st.length(n, int64(len(s)), "bytes")
	if !ok && !st.all {
		return false
	}
	if n.flags&(hasMinGraphemes|hasMaxGraphemes) != 0 && !st.graphemes(n, s) {
		if !st.all {
			return false
		}
		ok = false
	}
	if n.format != nil {
		if err := n.format.checkMode(s, st.mode); err != nil {
			return st.fail("format", "not a valid %s: %v", n.format.name, err)
		}
	}
	return ok
}

// graphemes checks minGraphemes and maxGraphemes, counting extended grapheme clusters
// (Unicode UAX #29) with uniseg. Every grapheme is at least one byte, so a string no longer in
// bytes than maxGraphemes needs no count when there is no minimum, and counting stops once past
// the maximum: the work is bounded by the limit, not by the string.
func (st *state) graphemes(n *node, s string) bool {
	hasLo, hasHi := n.flags&hasMinGraphemes != 0, n.flags&hasMaxGraphemes != 0
	if !hasLo && int64(len(s)) <= n.maxGr {
		return true
	}
	limit := int64(-1)
	if hasHi {
		limit = n.maxGr + 1
	}
	count := graphemeCount(s, limit)
	switch {
	case hasLo && count < n.minGr:
		return st.fail("minGraphemes", "%d graphemes, at least %d", count, n.minGr)
	case hasHi && count > n.maxGr:
		return st.fail("maxGraphemes", "more than %d graphemes", n.maxGr)
	}
	return true
}

// graphemeCount counts the grapheme clusters of s, stopping at limit when limit ≥ 0. Runs of
// ASCII other than CR are one grapheme per byte, unless a combining mark follows: the ASCII
// fast path counts all but the last byte of the run and lets uniseg take it from there.
func graphemeCount(s string, limit int64) int64 {
	var count int64
	state := -1
	for len(s) > 0 && (limit < 0 || count < limit) {
		// ASCII bytes before the last one of a run, other than CR (CR LF is one cluster),
		// are clusters by themselves.
		i := 0
		for i+1 < len(s) && s[i] < 0x80 && s[i+1] < 0x80 && s[i] != '\r' {
			i++
		}
		if i > 0 {
			count += int64(i)
			s = s[i:]
			state = -1
			continue
		}
		_, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		count++
	}
	return count
}

// blob checks a blob's form, MIME type and size (https://atproto.com/specs/lexicon#blob).
func (st *state) blob(n *node, b *datamodel.Blob) bool {
	if !decodedBlob(b) {
		st.whole = true // a Blob no decoder returns: the data model refuses it (settle)
	}
	if b.Legacy && st.mode&AllowLegacyBlob == 0 {
		return st.fail("blob", "a legacy {cid, mimeType} blob (allowed only under AllowLegacyBlob, which Lenient and atcore validate -lenient include)")
	}
	if n.accept != nil && !acceptMIME(n.accept, b.MimeType) {
		return st.fail("accept", "MIME type %q is not one of %q", clip(b.MimeType), n.accept)
	}
	if n.flags&hasMaxSize != 0 && !b.Legacy && b.Size > n.maxSize {
		return st.fail("maxSize", "%d byte%s, at most %d", b.Size, plural.S(b.Size), n.maxSize)
	}
	return true
}

// decodedBlob reports whether b may be one the decoders return: a MIME type, a link, a size not
// negative. The data model refuses the others (settle says why).
func decodedBlob(b *datamodel.Blob) bool {
	return b.MimeType != "" && b.Ref.Defined() && b.Size >= 0
}

// acceptMIME matches a MIME type against accept patterns: "*/*", "type/*", or exact; MIME
// types compare without regard to case (RFC 2045 §5.1), and parameters (";charset=…") are not
// part of the type.
func acceptMIME(accept []string, mime string) bool {
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimRight(mime[:i], " ")
	}
	for _, a := range accept {
		if a == "*/*" {
			return true
		}
		if prefix, ok := strings.CutSuffix(a, "*"); ok {
			if len(mime) > len(prefix) && strings.EqualFold(mime[:len(prefix)], prefix) {
				return true
			}
			continue
		}
		if strings.EqualFold(a, mime) {
			return true
		}
	}
	return false
}

// clip keeps at most echo.Max bytes of a value for a message, cut on a UTF-8 boundary.
func clip(s string) string {
	if len(s) <= echo.Max {
		return s
	}
	return echo.Clip(s) + "…"
}
