package datamodel

import "testing"

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
