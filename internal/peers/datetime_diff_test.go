package peers

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bluesky-social/indigo/atproto/syntax"

	"github.com/atcore/atcore/datetime"
)

// datetimeAccepts reports whether each implementation accepts s as a datetime. Where both do,
// it checks that they read the same instant.
func datetimeAccepts(t testing.TB, s string) (atcore, indigo bool) {
	ours, errA := datetime.Parse(s)
	theirs, errI := syntax.ParseDatetime(s)
	if errA == nil && errI == nil && !ours.Time().Equal(theirs.Time()) {
		t.Errorf("%q: atcore reads %v, indigo %v", s, ours.Time(), theirs.Time())
	}
	return errA == nil, errI == nil
}

// datetimeDisagreement names why atcore and indigo may disagree on s, or returns "" for a
// disagreement that no rule explains (a test failure). Each reason is written up in
// CONFORMANCE.md with who is right.
func datetimeDisagreement(s string, atcore bool) string {
	if atcore {
		return "" // indigo accepts every datetime atcore accepts
	}
	_, err := datetime.Parse(s)
	var e *datetime.Error
	if !errors.As(err, &e) {
		return ""
	}
	switch {
	case e.Offset == 19 && s[19] == ',':
		return datetimeComma
	case errors.Is(err, datetime.ErrRange) && e.Offset >= 19 && strings.HasPrefix(e.Reason, "offset hours"):
		return datetimeOffsetHours
	}
	return ""
}

// The kinds of datetime disagreement found.
const (
	datetimeComma       = "a ',' before the fraction (indigo's regex has an unescaped '.', and Go's time.Parse takes ',')"
	datetimeOffsetHours = "offset hours 24 to 29 (indigo's regex allows [0-2][0-9])"
)

var datetimeVectorFiles = []struct {
	name  string
	valid bool
}{{"datetime_syntax_valid.txt", true}, {"datetime_syntax_invalid.txt", false}, {"datetime_parse_invalid.txt", false}}

func TestDatetimeVectorsAgree(t *testing.T) {
	for _, file := range datetimeVectorFiles {
		for _, s := range readVectorLines(t, file.name) {
			a, i := datetimeAccepts(t, s)
			if a != file.valid {
				t.Errorf("%s %q: atcore accepts=%v, vector says valid=%v", file.name, s, a, file.valid)
			}
			if a != i && datetimeDisagreement(s, a) == "" {
				t.Errorf("%s %q: atcore accepts=%v, indigo accepts=%v", file.name, s, a, i)
			}
		}
	}
}

// randomDatetimeCandidate returns a datetime string, often valid, often with one field at or
// past its range or one character changed.
func randomDatetimeCandidate(r *rand.Rand) string {
	t := time.Unix(r.Int64N(253402300800+62167219200)-62167219200, 0).UTC()
	var b []byte
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	if r.IntN(3) > 0 {
		b = append(b, '.')
		for range 1 + r.IntN(22) {
			b = append(b, byte('0'+r.IntN(10)))
		}
	}
	switch r.IntN(4) {
	case 0, 1:
		b = append(b, 'Z')
	default:
		b = append(b, "+-"[r.IntN(2)], byte('0'+r.IntN(3)), byte('0'+r.IntN(10)), ':', byte('0'+r.IntN(7)), byte('0'+r.IntN(10)))
	}
	// Push one two-digit field to its edge, or change one character.
	const noise = "0123456789-:.,+TtZz _\x00é"
	switch r.IntN(6) {
	case 0:
		fields := []int{5, 8, 11, 14, 17}
		i := fields[r.IntN(len(fields))]
		edge := []string{"00", "12", "13", "23", "24", "29", "30", "31", "32", "59", "60", "61", "99"}[r.IntN(13)]
		copy(b[i:], edge)
	case 1:
		i := r.IntN(len(b))
		b = append(b[:i], append([]byte(string(noise[r.IntN(len(noise))])), b[i:]...)...)
	case 2:
		b[r.IntN(len(b))] = noise[r.IntN(len(noise)-1)]
	case 3:
		b = b[:r.IntN(len(b))]
	}
	if r.IntN(20) == 0 {
		copy(b, "0000-01-01T00:")
	}
	return string(b)
}

func TestDatetimeRandomStringsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(syntaxSeed, 3))
	var accepted int
	for range randomStringsCount {
		s := randomDatetimeCandidate(r)
		a, i := datetimeAccepts(t, s)
		if a {
			accepted++
		}
		if a != i && datetimeDisagreement(s, a) == "" {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	}
	if accepted < randomStringsCount/10 || accepted > randomStringsCount*9/10 {
		t.Errorf("generator produced %d valid datetimes of %d; want a mix", accepted, randomStringsCount)
	}
}
