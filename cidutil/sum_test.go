package cidutil

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	cid "github.com/ipfs/go-cid"
)

// The sha2-256 digest of the empty string (FIPS 180-4 test value), written out so the known-answer
// tests do not depend on the code under test.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

func TestSumKnownAnswers(t *testing.T) {
	tests := []struct {
		rule      string
		got       cid.Cid
		wantBytes string // hex
		wantStr   string
	}{
		{"rule 12: data is dag-cbor 0x71, sha2-256", SumCBOR(nil),
			"01711220" + emptySHA256, "bafyreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku"},
		{"rule 12: blobs are raw 0x55, sha2-256", SumRaw([]byte{}),
			"01551220" + emptySHA256, "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku"},
	}
	for _, tt := range tests {
		if got := hex.EncodeToString(tt.got.Bytes()); got != tt.wantBytes {
			t.Errorf("%s: bytes %s, want %s", tt.rule, got, tt.wantBytes)
		}
		if got := tt.got.String(); got != tt.wantStr {
			t.Errorf("%s: string %s, want %s", tt.rule, got, tt.wantStr)
		}
	}
}

type fixture struct {
	CBORBase64 string `json:"cbor_base64"`
	CID        string `json:"cid"`
}

func readFixtures(t testing.TB) []fixture {
	t.Helper()
	raw, err := os.ReadFile("../testdata/interop/data-model/data-model-fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx []fixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx) == 0 {
		t.Fatal("no fixtures")
	}
	return fx
}

// The interop fixtures: the DAG-CBOR bytes must hash to the given CIDv1 (dag-cbor, sha2-256).
func TestSumCBORFixtures(t *testing.T) {
	for i, f := range readFixtures(t) {
		data, err := base64.RawStdEncoding.DecodeString(f.CBORBase64)
		if err != nil {
			t.Fatalf("fixture %d: %v", i, err)
		}
		if got := SumCBOR(data).String(); got != f.CID {
			t.Errorf("fixture %d: SumCBOR = %s, want %s", i, got, f.CID)
		}
		// The reader path agrees with the in-memory one (same hash, raw codec).
		rc, n, err := SumRawReader(iotest.OneByteReader(bytes.NewReader(data)))
		if err != nil || n != int64(len(data)) || rc != SumRaw(data) {
			t.Errorf("fixture %d: SumRawReader = %v, %d, %v; want %v, %d", i, rc, n, err, SumRaw(data), len(data))
		}
	}
}

func TestSumRawReader(t *testing.T) {
	big := bytes.Repeat([]byte("atproto blob "), 1<<17) // 1.6 MiB, more than io.Copy's buffer
	want := sha256.Sum256(big)
	c, n, err := SumRawReader(bytes.NewReader(big))
	if err != nil || n != int64(len(big)) {
		t.Fatalf("SumRawReader = %d, %v", n, err)
	}
	if !bytes.Equal(c.Bytes(), append([]byte{1, CodecRaw, HashSHA256, SHA256Len}, want[:]...)) {
		t.Errorf("SumRawReader CID bytes %x", c.Bytes())
	}

	// A read error is returned with the count so far and no CID.
	boom := errors.New("boom")
	c, n, err = SumRawReader(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || n != 3 || c.Defined() {
		t.Errorf("SumRawReader(failing) = %v, %d, %v; want Undef, 3, boom", c, n, err)
	}
}

func TestSumAllocs(t *testing.T) {
	data := bytes.Repeat([]byte{0xa1}, 1024)
	if n := testing.AllocsPerRun(100, func() { _ = SumCBOR(data) }); n != 1 {
		t.Errorf("SumCBOR allocates %v times, want 1 (the CID string)", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = SumRaw(data) }); n != 1 {
		t.Errorf("SumRaw allocates %v times, want 1 (the CID string)", n)
	}
}

// AppendSumCBOR and AppendSumRaw append exactly the bytes of the CID that SumCBOR and SumRaw
// return, keep what dst held, and allocate nothing when dst has room.
func TestAppendSum(t *testing.T) {
	prefix := []byte("kept")
	for _, data := range [][]byte{nil, {0xa0}, []byte("hello"), bytes.Repeat([]byte{0xa1}, 1000)} {
		for _, tt := range []struct {
			name   string
			append func(dst, data []byte) []byte
			sum    func([]byte) cid.Cid
		}{
			{"AppendSumCBOR", AppendSumCBOR, SumCBOR},
			{"AppendSumRaw", AppendSumRaw, SumRaw},
		} {
			got := tt.append(bytes.Clone(prefix), data)
			want := append(bytes.Clone(prefix), tt.sum(data).Bytes()...)
			if !bytes.Equal(got, want) {
				t.Errorf("%s(%q, %d bytes) = %x, want %x", tt.name, prefix, len(data), got, want)
			}
			if c, err := ParseBinary(got[len(prefix):]); err != nil || !IsBlessed(c) {
				t.Errorf("%s: %v, %v: not a blessed CID", tt.name, c, err)
			}
		}
	}
	dst := make([]byte, 0, 64)
	data := bytes.Repeat([]byte{0xa1}, 1024)
	if n := testing.AllocsPerRun(100, func() { _ = AppendSumCBOR(dst, data) }); n != 0 {
		t.Errorf("AppendSumCBOR into a buffer with room allocates %v times, want 0", n)
	}
}

// countingReader yields n bytes of a pattern and hides io.WriterTo, so io.Copy uses its own
// buffer as it would for a network body.
type countingReader struct{ n int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = byte(i)
	}
	r.n -= int64(len(p))
	return len(p), nil
}

// SumRawReader and VerifyReader run in constant memory: hashing 64 MiB allocates no more than a
// copy buffer and the hash state.
func TestReaderConstantMemory(t *testing.T) {
	const size = 64 << 20
	const budget = 64 << 10
	var c cid.Cid
	allocated := bytesAllocated(1, func() {
		var n int64
		var err error
		c, n, err = SumRawReader(&countingReader{n: size})
		if err != nil || n != size {
			t.Fatalf("SumRawReader = %d, %v", n, err)
		}
	})
	if allocated > budget {
		t.Errorf("SumRawReader allocated %d bytes for %d bytes of input, want at most %d", allocated, size, budget)
	}
	allocated = bytesAllocated(1, func() {
		if n, err := VerifyReader(c, &countingReader{n: size}); err != nil || n != size {
			t.Fatalf("VerifyReader = %d, %v", n, err)
		}
	})
	if allocated > budget {
		t.Errorf("VerifyReader allocated %d bytes for %d bytes of input, want at most %d", allocated, size, budget)
	}
}

// bytesAllocated reports the heap bytes f allocates per call, averaged over runs calls. Like
// testing.AllocsPerRun it pins GOMAXPROCS to 1, and averaging keeps a one-off allocation elsewhere
// in the process (the runtime, the race detector, another test's goroutine), which TotalAlloc
// also counts, from failing a budget meant for f: CI once saw 5944 such bytes in a single call.
func bytesAllocated(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}
