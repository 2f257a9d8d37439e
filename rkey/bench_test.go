package rkey

import (
	"strconv"
	"strings"
	"testing"
)

// benchKeys are valid keys of the lengths that matter: "self", a TID, a long "any" key, and
// the longest allowed.
var benchKeys = []string{
	"self",
	"3jui7kd54zh2y",
	strings.Repeat("a1-_:~.Z", 8),
	strings.Repeat("a1-_:~.Z", 64),
}

func BenchmarkValidate(b *testing.B) {
	for _, key := range benchKeys {
		b.Run(strconv.Itoa(len(key)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(key)))
			for b.Loop() {
				if Validate(key) != nil {
					b.Fatal("rejected")
				}
			}
		})
	}
}

func BenchmarkIsValid(b *testing.B) {
	for _, key := range benchKeys {
		b.Run(strconv.Itoa(len(key)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(key)))
			for b.Loop() {
				if !IsValid(key) {
					b.Fatal("rejected")
				}
			}
		})
	}
}

// BenchmarkValidateInvalid measures the error path, which allocates the *Error.
func BenchmarkValidateInvalid(b *testing.B) {
	key := "3jui7kd5/zh2y"
	b.ReportAllocs()
	for b.Loop() {
		if Validate(key) == nil {
			b.Fatal("accepted")
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	for _, tc := range []struct {
		typ KeyType
		key string
	}{
		{TID, "3jui7kd54zh2y"},
		{NSID, "app.bsky.feed.post"},
		{MustParseKeyType("literal:self"), "self"},
		{Any, "self"},
	} {
		b.Run(tc.typ.String(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.key)))
			for b.Loop() {
				if tc.typ.Check(tc.key) != nil {
					b.Fatal("rejected")
				}
			}
		})
	}
}

func BenchmarkParsePath(b *testing.B) {
	path := "app.bsky.feed.post/3jui7kd54zh2y"
	b.ReportAllocs()
	b.SetBytes(int64(len(path)))
	for b.Loop() {
		if _, _, err := ParsePath(path); err != nil {
			b.Fatal(err)
		}
	}
}
