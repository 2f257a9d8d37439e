package base32sort

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// reference encodes v the slow, obvious way: 65 bits, 5 at a time, from the top.
func reference(v uint64) string {
	var b strings.Builder
	for shift := 60; shift >= 0; shift -= 5 {
		b.WriteByte(Alphabet[(v>>uint(shift))&31])
	}
	return b.String()
}

func TestEncodeDecode13(t *testing.T) {
	tests := []struct {
		v    uint64
		want string
	}{
		{0, "2222222222222"}, // https://atproto.com/specs/tid: the TID for integer zero
		{1, "2222222222223"},
		{31, "222222222222z"},
		{32, "2222222222232"},
		{math.MaxInt64, "bzzzzzzzzzzzz"},
		{math.MaxUint64, "jzzzzzzzzzzzz"},
	}
	for _, tt := range tests {
		buf := make([]byte, Len)
		Encode13(buf, tt.v)
		if got := string(buf); got != tt.want {
			t.Errorf("Encode13(%d) = %q, want %q", tt.v, got, tt.want)
		}
		if got, ok := Decode13(tt.want); !ok || got != tt.v {
			t.Errorf("Decode13(%q) = %d, %v; want %d, true", tt.want, got, ok, tt.v)
		}
		if got, ok := Decode(tt.want); !ok || got != tt.v {
			t.Errorf("Decode(%q) = %d, %v; want %d, true", tt.want, got, ok, tt.v)
		}
	}
}

func TestRandomAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		v := r.Uint64()
		want := reference(v)
		if got := string(Append13(nil, v)); got != want {
			t.Fatalf("Append13(%d) = %q, want %q", v, got, want)
		}
		if got, ok := Decode13(want); !ok || got != v {
			t.Fatalf("Decode13(%q) = %d, %v; want %d", want, got, ok, v)
		}
	}
}

func TestOrderPreserved(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		a, b := r.Uint64(), r.Uint64()
		if (a < b) != (reference(a) < reference(b)) {
			t.Fatalf("order of %d, %d not kept by encoding", a, b)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, s := range []string{
		"", "22222222222222", // lengths
		"k222222222222", "z222222222222", // needs a 65th bit
		"222222222222A", "2222222222221", "222222-222222", "2222222222220", "\xff222222222222",
	} {
		if _, ok := Decode13(s); ok {
			t.Errorf("Decode13(%q) ok, want rejected", s)
		}
		if _, ok := Decode(s); ok {
			t.Errorf("Decode(%q) ok, want rejected", s)
		}
	}
	if _, ok := Decode13("222222222222"); ok {
		t.Error("Decode13 accepted 12 characters")
	}
}

func TestDecodeVariable(t *testing.T) {
	tests := []struct {
		s    string
		want uint64
	}{
		{"2", 0}, {"z", 31}, {"32", 32}, {"zz", 1023}, {"3kxn", 1<<15 | 16<<10 | 29<<5 | 19},
	}
	for _, tt := range tests {
		if got, ok := Decode(tt.s); !ok || got != tt.want {
			t.Errorf("Decode(%q) = %d, %v; want %d", tt.s, got, ok, tt.want)
		}
	}
	if i := IndexInvalid("abc-d"); i != 3 {
		t.Errorf("IndexInvalid = %d, want 3", i)
	}
	if i := IndexInvalid("abcd"); i != -1 {
		t.Errorf("IndexInvalid = %d, want -1", i)
	}
}

func TestZeroAllocs(t *testing.T) {
	buf := make([]byte, 0, Len)
	if n := testing.AllocsPerRun(100, func() {
		buf = Append13(buf[:0], 12345)
		_, _ = Decode13("3jzfcijpj2z2a")
	}); n != 0 {
		t.Errorf("allocs = %v, want 0", n)
	}
}

func BenchmarkEncode13(b *testing.B) {
	buf := make([]byte, Len)
	for i := 0; b.Loop(); i++ {
		Encode13(buf, uint64(i))
	}
}

func BenchmarkDecode13(b *testing.B) {
	for b.Loop() {
		_, _ = Decode13("3jzfcijpj2z2a")
	}
}
