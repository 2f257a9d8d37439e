package datamodel

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// jsonBase64Reference is what jsonDecodeBase64 must agree with: encoding/base64's RawStdEncoding
// after the optional padding is dropped, except that \r and \n, which encoding/base64 skips, are
// refused at the first byte that is not base64.
func jsonBase64Reference(s string) (Bytes, error) {
	n := len(s)
	if n%4 == 0 && n > 0 && s[n-1] == '=' {
		n--
		if s[n-1] == '=' {
			n--
		}
	}
	text := s[:n]
	if strings.ContainsAny(text, "\r\n") {
		for i := range len(text) {
			if !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", rune(text[i])) {
				return nil, base64.CorruptInputError(i)
			}
		}
	}
	out := make(Bytes, base64.RawStdEncoding.DecodedLen(n))
	k, err := base64.RawStdEncoding.Decode(out, []byte(text))
	if err != nil {
		return nil, err
	}
	return out[:k], nil
}

func checkJSONBase64(t *testing.T, s string) {
	t.Helper()
	got, err := jsonDecodeBase64(s)
	want, wantErr := jsonBase64Reference(s)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || err == nil && !bytes.Equal(got, want) {
		t.Fatalf("%q: got %x, %v; want %x, %v", s, got, err, want, wantErr)
	}
	if err == nil && got == nil {
		t.Fatalf("%q: nil Bytes, want empty", s)
	}
}

// TestJSONDecodeBase64: jsonDecodeBase64 against encoding/base64 on every length to 13, padded
// and not, with each of the bytes that can go wrong at each position (RFC 4648 §4: '=' only as
// padding, no other byte outside the alphabet; DECISIONS rule 10: padding optional, unused low
// bits of the last character not checked).
func TestJSONDecodeBase64(t *testing.T) {
	for n := 0; n <= 13; n++ {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*37 + 200)
		}
		for _, enc := range []string{base64.RawStdEncoding.EncodeToString(data), base64.StdEncoding.EncodeToString(data)} {
			checkJSONBase64(t, enc)
			for i := range len(enc) {
				for _, c := range []byte{'=', '\n', '\r', '-', '_', ' ', 0, 0x80, 0xff, 'A', '/', '+', 'z'} {
					b := []byte(enc)
					b[i] = c
					checkJSONBase64(t, string(b))
				}
			}
			checkJSONBase64(t, enc+"A")
			checkJSONBase64(t, enc+"=")
			checkJSONBase64(t, enc+"==")
			checkJSONBase64(t, enc+"AB=")
		}
	}
	for _, s := range []string{"", "=", "==", "===", "====", "A", "A=", "A==", "A===", "AB", "AB==", "ABC=", "AB=C", "ABCD====", "QUJD\nRA==", "12", "123", "Zm9v"} {
		checkJSONBase64(t, s)
	}
}

func FuzzJSONDecodeBase64(f *testing.F) {
	for _, s := range []string{"", "Zm9vYmFy", "Zm9vYg==", "Zm9vYmE", "Zm9v\nYmFy", "A", "ab=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkJSONBase64(t, s)
	})
}
