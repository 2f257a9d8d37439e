package datamodel

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// TestScanCBORZeroAllocs: the scanner never allocates on valid input (issue 3). Options cost one
// allocation: applying an Option (a func(*config)) makes the config escape.
func TestScanCBORZeroAllocs(t *testing.T) {
	opts := []Option{WithLimits(Limits{MaxDepth: 40})}
	for _, r := range cborTestRecords(t) {
		if err := ScanCBOR(r.cbor, opts...); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if n := testing.AllocsPerRun(50, func() { _ = ScanCBOR(r.cbor) }); n != 0 {
			t.Errorf("%s: ScanCBOR allocated %v times", r.name, n)
		}
		if n := testing.AllocsPerRun(50, func() { _ = ScanCBOR(r.cbor, opts...) }); n > 1 {
			t.Errorf("%s: ScanCBOR with options allocated %v times", r.name, n)
		}
	}
}

// TestCBORValidText checks the UTF-8 fast paths against utf8.Valid at every length and position
// of a non-ASCII byte, with and without input after the string.
func TestCBORValidText(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for bad := -1; bad < n; bad++ {
			for _, c := range []byte{0x80, 0xff, 0xc3} {
				s := bytes.Repeat([]byte{'a'}, n)
				if bad >= 0 {
					s[bad] = c
				}
				for _, tail := range [][]byte{nil, []byte("\xffxxxxxxxx")} {
					data := append(append([]byte{}, s...), tail...)
					if got, want := cborValidText(data, 0, n), utf8.Valid(s); got != want {
						t.Errorf("%q followed by %q: %v, want %v", s, tail, got, want)
					}
					padded := append([]byte("xx"), data...)
					if got, want := cborValidText(padded, 2, 2+n), utf8.Valid(s); got != want {
						t.Errorf("%q at offset 2: %v, want %v", s, got, want)
					}
				}
			}
		}
	}
	// Valid multi-byte sequences after an ASCII prefix of every length.
	for n := 0; n <= 40; n++ {
		s := append(bytes.Repeat([]byte{'a'}, n), "é😀"...)
		if !cborValidText(s, 0, len(s)) {
			t.Errorf("%q: invalid", s)
		}
	}
}
