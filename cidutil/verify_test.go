package cidutil

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	cid "github.com/ipfs/go-cid"
)

func TestVerify(t *testing.T) {
	data := []byte("self-certifying")
	v0, _ := cid.Decode("QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR")
	tests := []struct {
		rule    string
		c       cid.Cid
		data    []byte
		wantErr error
		detail  string
	}{
		{"data matches its dag-cbor CID", SumCBOR(data), data, nil, ""},
		{"data matches its raw CID", SumRaw(data), data, nil, ""},
		{"codec does not matter, only the hash", mustBinary("01 70 12 20" + hexOfSum(data)), data, nil, ""},
		{"one changed byte is a mismatch", SumRaw(data), []byte("self-certifyinG"), ErrMismatch, "CID has"},
		{"empty data vs non-empty CID", SumRaw(data), nil, ErrMismatch, "data has sha2-256 e3b0c442"},
		{"other hash functions cannot be checked", mustBinary("01 71 a0e402 20" + digest32), data, ErrUnsupported, "0xb220"},
		{"truncated sha2-256 cannot be checked", mustBinary("01 71 12 10" + hexOfSum(data)[:32]), data, ErrUnsupported, "16 bytes"},
		{"cid.Undef", cid.Undef, data, ErrInvalid, "undefined"},
		{"rule 12: CIDv0 is never valid", v0, data, ErrInvalid, "CIDv0"},
	}
	for _, tt := range tests {
		err := Verify(tt.c, tt.data)
		n, errR := VerifyReader(tt.c, iotest.HalfReader(bytes.NewReader(tt.data)))
		for _, e := range []error{err, errR} {
			if tt.wantErr == nil {
				if e != nil {
					t.Errorf("%s: %v", tt.rule, e)
				}
			} else if !errors.Is(e, tt.wantErr) || !strings.Contains(e.Error(), tt.detail) {
				t.Errorf("%s: error %v, want %v containing %q", tt.rule, e, tt.wantErr, tt.detail)
			}
		}
		if tt.wantErr == nil && n != int64(len(tt.data)) {
			t.Errorf("%s: VerifyReader read %d bytes, want %d", tt.rule, n, len(tt.data))
		}
	}
	c := SumCBOR(data)
	if n := testing.AllocsPerRun(100, func() { _ = Verify(c, data) }); n != 0 {
		t.Errorf("Verify allocates %v times on success, want 0", n)
	}
}

// hexOfSum is the sha2-256 digest of data in hex, computed without the package.
func hexOfSum(data []byte) string {
	d := sha256.Sum256(data)
	return hex.EncodeToString(d[:])
}
