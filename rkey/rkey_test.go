package rkey

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

func TestVectorsValid(t *testing.T) {
	for _, key := range testvec.Syntax(t, "recordkey_syntax_valid.txt") {
		if err := Validate(key); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", key, err)
		}
		if !IsValid(key) {
			t.Errorf("IsValid(%q) = false, want true", key)
		}
	}
}

func TestVectorsInvalid(t *testing.T) {
	cases := testvec.Syntax(t, "recordkey_syntax_invalid.txt")
	// interop/README.md: the file holds the case "#extra", which the comment filter drops.
	cases = append(cases, "#extra")
	for _, key := range cases {
		err := Validate(key)
		if err == nil {
			t.Errorf("Validate(%q) = nil, want an error", key)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%q) = %v, does not match ErrInvalid", key, err)
		}
		if IsValid(key) {
			t.Errorf("IsValid(%q) = true, want false", key)
		}
	}
}

func TestValidateTable(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		key   string
		valid bool
	}{
		{"spec example: TID", "3jui7kd54zh2y", true},
		{"spec example: literal", "self", true},
		{"spec example: domain", "example.com", true},
		{"spec example: punctuation", "~1.2-3_", true},
		{"rule 1: colon allowed", "did:plc:abc", true},
		{"rule 1: colon alone", ":", true},
		{"rule 1: every allowed character", "AZaz09.-_:~", true},
		{"rule 1: case-sensitive, upper case kept", "SELF", true},
		{"rule 1: one character", "a", true},
		{"rule 1: 512 characters", strings.Repeat("a", 512), true},
		{"rule 1: 513 characters", strings.Repeat("a", 513), false},
		{"rule 1: empty", "", false},
		{"rule 1: slash", "a/b", false},
		{"rule 1: percent reserved", "a%20b", false},
		{"rule 1: space", "a b", false},
		{"rule 1: NUL", "a\x00b", false},
		{"rule 1: non-ASCII", "café", false},
		{"rule 1: invalid UTF-8", "a\xffb", false},
		{"rule 1: hash", "#extra", false},
		{"rule 1: at", "@handle", false},
		{"rule 1: last byte bad", strings.Repeat("a", 511) + "!", false},
		{"rule 1: bad byte 0x80+'.' table aliasing", "\xae", false},
		{"rule 2: dot", ".", false},
		{"rule 2: dot dot", "..", false},
		{"rule 2: three dots", "...", true},
		{"rule 2: trailing dot", "self.", true},
		{"rule 2: leading dot", ".self", true},
		{"rule 2: dot dash", ".-", true},
	} {
		err := Validate(tc.key)
		if (err == nil) != tc.valid || IsValid(tc.key) != tc.valid {
			t.Errorf("%s: Validate(%.40q) = %v, IsValid = %v; want valid=%v", tc.rule, tc.key, err, IsValid(tc.key), tc.valid)
		}
	}
}

// TestTableAgreesWithRule checks every byte value against DECISIONS rule 1 written out longhand.
func TestTableAgreesWithRule(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' ||
			strings.IndexByte(".-_:~", b) >= 0
		if got := IsValid("x" + string([]byte{b})); got != want {
			t.Errorf("byte %#02x: IsValid = %v, want %v", b, got, want)
		}
	}
}

func TestValidateNoAllocs(t *testing.T) {
	for _, key := range []string{"self", "3jui7kd54zh2y", strings.Repeat("a", 512), "did:plc:abc"} {
		if n := testing.AllocsPerRun(100, func() {
			if Validate(key) != nil || !IsValid(key) {
				t.Fatal("valid key rejected")
			}
		}); n != 0 {
			t.Errorf("Validate(%.20q) allocates %v times, want 0", key, n)
		}
	}
}

// The package holds only read-only tables, so every function is safe to call from any number of
// goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	self := MustParseKeyType("literal:self")
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if Validate("3jui7kd54zh2y") != nil || Validate("a/b") == nil ||
					TID.Check("3jui7kd54zh2y") != nil || self.Check("other") == nil ||
					ValidatePath("app.bsky.feed.post/self") != nil || ValidatePath("x") == nil {
					t.Error("wrong answer under concurrency")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestValidateAt(t *testing.T) {
	for _, tc := range []struct {
		key     string
		base    int
		offset  int
		message string
	}{
		{"self", 7, 0, ""},
		{"a b", 7, 8, `invalid record key "a b": ' ' at offset 8 is not allowed`},
		{"", 7, 7, `invalid record key "": empty; a record key has 1 to 512 characters`},
		{"..", 7, 7, `invalid record key "..": ".." is reserved and is never a record key`},
	} {
		err := ValidateAt(tc.key, tc.base)
		if tc.message == "" {
			if err != nil {
				t.Errorf("ValidateAt(%q) = %v", tc.key, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset != tc.offset || err.Error() != tc.message {
			t.Errorf("ValidateAt(%q, %d) = %v; want offset %d, %s", tc.key, tc.base, err, tc.offset, tc.message)
		}
	}
}
