package lang

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

// checkError asserts what every error of this package promises.
func checkError(t *testing.T, err error, input string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %T is not an *Error", input, err)
	}
	if e.Kind != "language tag" || e.Len != len(input) || len(e.Input) > 64 || !strings.HasPrefix(input, e.Input) {
		t.Fatalf("%q: bad error fields %+v", input, *e)
	}
	if e.Offset < -1 || e.Offset > len(input) {
		t.Fatalf("%q: offset %d outside the input", input, e.Offset)
	}
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrLength) && !errors.Is(err, ErrDuplicate) {
		t.Fatalf("%q: %v matches no sentinel", input, err)
	}
	if msg := e.Error(); !strings.HasPrefix(msg, `invalid language tag "`) || len(msg) > 800 {
		t.Fatalf("%q: message %q", input, msg)
	}
	return e
}

func TestVectors(t *testing.T) {
	for _, s := range testvec.Syntax(t, "language_syntax_valid.txt") {
		tag, err := Parse(s)
		if err != nil || tag.String() != s || !IsValid(s) {
			t.Errorf("Parse(%q) = %v, %v (IsValid %v)", s, tag, err, IsValid(s))
		}
	}
	for _, file := range []struct {
		name string
		is   error
	}{
		{"language_syntax_invalid.txt", ErrSyntax},
		{"language_parse_invalid.txt", ErrDuplicate},
	} {
		for _, s := range testvec.Syntax(t, file.name) {
			_, err := Parse(s)
			if err == nil || IsValid(s) {
				t.Errorf("%s: Parse(%q) accepted it", file.name, s)
				continue
			}
			checkError(t, err, s)
			if !errors.Is(err, file.is) {
				t.Errorf("%s: Parse(%q) = %v, want %v", file.name, s, err, file.is)
			}
		}
	}
}

// TestRules takes each rule of RFC 5646 §2.1 and of the atproto spec at and past its edge.
func TestRules(t *testing.T) {
	tests := []struct {
		rule, in string
		offset   int
		is       error // nil: valid
	}{
		{"2-letter language", "ja", 0, nil},
		{"3-letter language", "ban", 0, nil},
		{"1-letter language", "j", 0, ErrSyntax},
		{"4-letter language (reserved)", "jaja", 0, ErrSyntax},
		{"5-to-8-letter language (registered form, not ISO 639)", "abcde", 0, ErrSyntax},
		{"upper-case language", "JA", 0, ErrSyntax},
		{"mixed-case language", "jA", 0, ErrSyntax},
		{"digits in language", "j1", 0, ErrSyntax},
		{"upper-case region, mixed-case script", "zh-hANT-tw", 0, nil},
		{"3 extlangs", "zh-min-nan-hak", 0, nil},
		{"4 extlangs", "zh-min-nan-hak-cmn", 15, ErrSyntax},
		{"extlang after script", "zh-Hant-yue", 8, ErrSyntax},
		{"script after region", "zh-TW-Hant", 6, ErrSyntax},
		{"two regions", "de-419-DE", 7, ErrSyntax},
		{"numeric region", "es-419", 0, nil},
		{"4-digit region", "es-4190", 0, nil}, // a variant: digit and 3 alphanumerics
		{"variant of 4 starting with a digit", "de-CH-1901", 0, nil},
		{"variant of 4 starting with a letter", "de-CH-a901", 6, ErrSyntax},
		{"variant of 8", "de-abcdefgh", 0, nil},
		{"subtag of 9", "de-abcdefghi", 11, ErrSyntax},
		{"two variants", "sl-rozaj-biske", 0, nil},
		{"repeated variant", "de-DE-1901-1901", 11, ErrDuplicate},
		{"repeated variant, other case", "en-rozaj-ROZAJ", 9, ErrDuplicate},
		{"repeated variant, not adjacent", "sl-rozaj-biske-rozaj", 15, ErrDuplicate},
		{"variant-like extension subtags may repeat", "en-a-rozaj-rozaj", 0, nil},
		{"extension", "en-u-co-phonebk", 0, nil},
		{"two extensions", "en-u-co-phonebk-t-en-US", 0, nil},
		{"repeated singleton", "en-a-foo-a-bar", 9, ErrDuplicate},
		{"repeated singleton, other case", "en-u-co-phonebk-U-ca-buddhist", 16, ErrDuplicate},
		{"digit singleton", "en-1-abc", 0, nil},
		{"singleton without subtag, at end", "en-a", 3, ErrSyntax},
		{"singleton without subtag, before another", "en-a-b-cd", 3, ErrSyntax},
		{"singleton without subtag, before private use", "en-a-x-cd", 3, ErrSyntax},
		{"one-character extension subtag", "en-a-bc-d", 8, ErrSyntax},
		{"private use after a tag", "de-x-foo", 0, nil},
		{"private use, upper-case X", "de-X-foo", 0, nil},
		{"private-use subtags may repeat", "de-x-foo-foo-a-a", 0, nil},
		{"private use without subtag", "de-x", 3, ErrSyntax},
		{"private use subtag of 9", "x-abcdefghi", 10, ErrSyntax},
		{"whole private-use tag", "x-whatever", 0, nil},
		{"whole private-use tag, upper case", "X-fr-CH", 0, nil},
		{"singleton as language", "a-DE", 0, ErrSyntax},
		{"irregular grandfathered", "i-default", 0, nil},
		{"irregular grandfathered, other case", "I-DEFAULT", 0, nil},
		{"irregular grandfathered with region", "en-GB-oed", 0, nil},
		{"irregular grandfathered, language upper case", "EN-GB-OED", 0, ErrSyntax},
		{"i- tag not in the list", "i-foo", 0, ErrSyntax},
		{"regular grandfathered is a langtag", "zh-min-nan", 0, nil},
		{"empty", "", -1, ErrLength},
		{"trailing hyphen", "ja-", 3, ErrSyntax},
		{"leading hyphen", "-ja", 0, ErrSyntax},
		{"double hyphen", "pt--BR", 3, ErrSyntax},
		{"underscore", "pt_BR", 2, ErrSyntax},
		{"space at end", "ja ", 2, ErrSyntax},
		{"space at start", " ja", 0, ErrSyntax},
		{"NUL at end", "ja\x00", 2, ErrSyntax},
		{"NUL at start", "\x00ja", 0, ErrSyntax},
		{"non-ASCII letter", "jä", 1, ErrSyntax},
		{"at MaxLen", "en-x" + strings.Repeat("-abcdefg", 15) + "-abc", 0, nil},
		{"past MaxLen", "en-x" + strings.Repeat("-abcdefg", 15) + "-abcd", 128, ErrLength},
	}
	for _, tt := range tests {
		tag, err := Parse(tt.in)
		if tt.is == nil {
			if err != nil || tag.String() != tt.in || !IsValid(tt.in) {
				t.Errorf("%s: Parse(%q) = %v, %v; want it valid", tt.rule, tt.in, tag, err)
			}
			continue
		}
		if err == nil || IsValid(tt.in) {
			t.Errorf("%s: Parse(%q) accepted it", tt.rule, tt.in)
			continue
		}
		e := checkError(t, err, tt.in)
		if !errors.Is(err, tt.is) || e.Offset != tt.offset {
			t.Errorf("%s: Parse(%q) = %v (offset %d); want %v at offset %d", tt.rule, tt.in, err, e.Offset, tt.is, tt.offset)
		}
	}
	if n := len("en-x" + strings.Repeat("-abcdefg", 15) + "-abc"); n != MaxLen {
		t.Fatalf("the MaxLen row is %d bytes", n)
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct{ in, want string }{
		{"JA", `invalid language tag "JA": "JA" at offset 0: the primary language subtag must be lower case`},
		{"de-DE-1901-1901", `invalid language tag "de-DE-1901-1901": variant "1901" at offset 11 appears twice (RFC 5646 §2.2.5)`},
		{"en-a", `invalid language tag "en-a": singleton 'a' at offset 3 has no subtag after it`},
		{"pt_BR", `invalid language tag "pt_BR": '_' at offset 2: a tag holds only ASCII letters, digits and '-'`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) error:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestSubtags(t *testing.T) {
	tests := []struct{ in, language, script, region string }{
		{"pt-BR", "pt", "", "BR"},
		{"ja", "ja", "", ""},
		{"es-419", "es", "", "419"},
		{"zh-Hant-TW", "zh", "Hant", "TW"},
		{"zh-yue-HK", "zh", "", "HK"},
		{"hy-Latn-IT-arevela", "hy", "Latn", "IT"},
		{"sgn-BE-NL", "sgn", "", "BE"},
		{"de-CH-1901", "de", "", "CH"},
		{"en-u-co-phonebk", "en", "", ""},
		{"x-fr-CH", "", "", ""},
		{"i-navajo", "", "", ""},
		{"en-x-US", "en", "", ""},
	}
	for _, tt := range tests {
		tag := MustParse(tt.in)
		if tag.Language() != tt.language || tag.Script() != tt.script || tag.Region() != tt.region {
			t.Errorf("%s: Language %q Script %q Region %q; want %q %q %q", tt.in,
				tag.Language(), tag.Script(), tag.Region(), tt.language, tt.script, tt.region)
		}
	}
	var zero Tag
	if zero.Language() != "" || zero.Region() != "" || !zero.IsZero() || MustParse("en").IsZero() || zero.IsValid() || !MustParse("en").IsValid() {
		t.Error("zero Tag")
	}
}

func TestText(t *testing.T) {
	type post struct {
		Langs []Tag `json:"langs"`
	}
	in := `{"langs":["pt-BR","X-fr-CH","i-default"]}`
	var p post
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(p)
	if err != nil || string(out) != in {
		t.Errorf("round trip: %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"langs":["JA"]}`), &p); !errors.Is(err, ErrSyntax) {
		t.Errorf("Unmarshal(JA) = %v", err)
	}
	tag := MustParse("en")
	if err := tag.UnmarshalText(nil); err != nil || !tag.IsZero() {
		t.Errorf("UnmarshalText(empty) = %v, %v", tag, err)
	}
	if b, _ := MustParse("en").AppendText([]byte("x:")); string(b) != "x:en" {
		t.Errorf("AppendText = %q", b)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("JA")
}

func TestAllocs(t *testing.T) {
	tag := MustParse("hy-Latn-IT-arevela")
	var buf [32]byte
	for name, f := range map[string]func(){
		"Parse":      func() { _, _ = Parse("en-GB-boont-r-extended-sequence-x-private") },
		"Parse i-":   func() { _, _ = Parse("i-default") },
		"IsValid":    func() { _ = IsValid("sl-rozaj-biske") },
		"Region":     func() { _ = tag.Region() },
		"Language":   func() { _ = tag.Language() },
		"AppendText": func() { _, _ = tag.AppendText(buf[:0]) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}

// However long the input, the error keeps and prints a bounded part of it.
func TestLongInputEchoBounded(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("en-", 1<<18),
		"en-" + strings.Repeat("a", 1<<20),
		strings.Repeat("\xff", 1000),
	} {
		_, err := Parse(s)
		e := checkError(t, err, s)
		if len(e.Input) > 64 || len(e.Error()) > 6*64+200 {
			t.Errorf("%d-byte input: echo %d bytes, message %d bytes", len(s), len(e.Input), len(e.Error()))
		}
	}
}
