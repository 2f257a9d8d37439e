package peers

import (
	"bytes"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

// FuzzTIDAgainstIndigo: atcore and indigo accept the same TIDs and read the same values
// (DECISIONS rule 4 is indigo's regex). Run by hand:
//
//	go test -run XXX -fuzz FuzzTIDAgainstIndigo -fuzztime 60s
func FuzzTIDAgainstIndigo(f *testing.F) {
	for _, name := range []string{"tid_syntax_valid.txt", "tid_syntax_invalid.txt"} {
		for _, s := range readVectorLines(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, i := tidAccepts(t, s); a != i && !allowedDisagreement(tidDisagreements, s) {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	})
}

// FuzzRecordKeyAgainstIndigo: atcore and indigo accept the same record keys (DECISIONS rules 1
// and 2 are indigo's checks).
func FuzzRecordKeyAgainstIndigo(f *testing.F) {
	for _, name := range []string{"recordkey_syntax_valid.txt", "recordkey_syntax_invalid.txt"} {
		for _, s := range readVectorLines(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, i := rkeyAccepts(s); a != i && !allowedDisagreement(rkeyDisagreements, s) {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	})
}

// FuzzCBORAgainstIPLD: whatever atcore accepts is canonical (it re-encodes to the same bytes),
// and go-ipld-prime, which is more lenient, accepts it too and re-encodes it to the same bytes.
func FuzzCBORAgainstIPLD(f *testing.F) {
	for _, rec := range loadRecords(f) {
		f.Add(rec.cbor)
	}
	for _, c := range malformedCases() {
		if len(c.input) < 4096 {
			f.Add(c.input)
		}
	}
	for _, c := range controlCases() {
		if len(c.input) < 4096 {
			f.Add(c.input)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := datamodel.UnmarshalCBOR(data)
		if err != nil {
			return
		}
		again, err := datamodel.MarshalCBOR(v)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("atcore accepts %x but re-encodes it as %x (%v)", data, again, err)
		}
		n, err := ipldDecode(data)
		if err != nil {
			t.Fatalf("atcore accepts %x, go-ipld-prime rejects it: %v", data, err)
		}
		theirs, err := ipldEncode(n)
		if err != nil || !bytes.Equal(theirs, data) {
			t.Fatalf("go-ipld-prime re-encodes %x as %x (%v)", data, theirs, err)
		}
	})
}
