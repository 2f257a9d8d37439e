package rkey

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateErrors(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		key      string
		sentinel error
		offset   int
		message  string
	}{
		{"rule 1: disallowed character, named with its offset", "a/b", ErrCharacter, 1,
			`invalid record key "a/b": '/' at offset 1 is not allowed`},
		{"rule 1: first bad character is reported", "ab c/d", ErrCharacter, 2,
			`invalid record key "ab c/d": ' ' at offset 2 is not allowed`},
		{"rule 1: control byte escaped", "a\x00b", ErrCharacter, 1,
			`invalid record key "a\x00b": '\x00' at offset 1 is not allowed`},
		{"rule 1: non-ASCII character escaped", "café", ErrCharacter, 3,
			`invalid record key "caf\u00e9": '\u00e9' at offset 3 is not allowed`},
		{"rule 1: invalid UTF-8 byte escaped", "a\xffb", ErrCharacter, 1,
			`invalid record key "a\xffb": '\xff' at offset 1 is not allowed`},
		{"rule 1: quote escaped", `"q"`, ErrCharacter, 0,
			`invalid record key "\"q\"": '"' at offset 0 is not allowed`},
		{"rule 1: empty", "", ErrLength, -1,
			`invalid record key "": empty; a record key has 1 to 512 characters`},
		{"rule 2: dot", ".", ErrReserved, 0,
			`invalid record key ".": "." is reserved and is never a record key`},
		{"rule 2: dot dot", "..", ErrReserved, 0,
			`invalid record key "..": ".." is reserved and is never a record key`},
	} {
		err := Validate(tc.key)
		if err == nil {
			t.Errorf("%s: Validate(%q) = nil", tc.rule, tc.key)
			continue
		}
		if got := err.Error(); got != tc.message {
			t.Errorf("%s: message\n got %s\nwant %s", tc.rule, got, tc.message)
		}
		if !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v does not match %v and ErrInvalid", tc.rule, err, tc.sentinel)
		}
		if errors.Is(err, ErrPath) || errors.Is(err, ErrKeyType) {
			t.Errorf("%s: %v matches a sentinel of another kind", tc.rule, err)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %T is not an *Error", tc.rule, err)
			continue
		}
		if e.Offset != tc.offset || e.Kind != "record key" || e.Input != tc.key || e.Len != len(tc.key) || e.Err != tc.sentinel {
			t.Errorf("%s: got %+v", tc.rule, *e)
		}
	}
}

// A huge hostile key must not come back whole in the message (nor be kept by the error).
func TestErrorBoundedEcho(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		key      string
		sentinel error
		offset   int
	}{
		{"rule 1: 10 KB key, too long", strings.Repeat("o", 10240), ErrLength, 512},
		{"rule 1: 10 KB key with a bad byte at the end", strings.Repeat("o", 500) + "/", ErrCharacter, 500},
		{"rule 1: 10 KB of multi-byte characters", strings.Repeat("é", 5120), ErrLength, 512},
		{"rule 1: 10 KB of invalid UTF-8", strings.Repeat("\xff", 10240), ErrLength, 512},
	} {
		err := Validate(tc.key)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tc.sentinel) {
			t.Fatalf("%s: got %v", tc.rule, err)
		}
		if len(e.Input) > MaxEcho || !strings.HasPrefix(tc.key, e.Input) || len(e.Input) < MaxEcho-3 {
			t.Errorf("%s: Input is %d bytes, want a prefix of at most %d", tc.rule, len(e.Input), MaxEcho)
		}
		if e.Len != len(tc.key) || e.Offset != tc.offset {
			t.Errorf("%s: Len %d Offset %d, want %d %d", tc.rule, e.Len, e.Offset, len(tc.key), tc.offset)
		}
		msg := err.Error()
		// At most MaxEcho input bytes, each escaped to at most 6 (\u00e9), plus the reason.
		if len(msg) > 6*MaxEcho+150 {
			t.Errorf("%s: message is %d bytes: %s", tc.rule, len(msg), msg)
		}
		if len(tc.key) > MaxEcho && !strings.Contains(msg, "…") {
			t.Errorf("%s: message does not mark the cut: %s", tc.rule, msg)
		}
	}
	err := Validate(strings.Repeat("o", 10240))
	want := `invalid record key "` + strings.Repeat("o", 64) + `"… (10240 bytes): 10240 bytes long; a record key has at most 512`
	if err.Error() != want {
		t.Errorf("message\n got %s\nwant %s", err, want)
	}
}
