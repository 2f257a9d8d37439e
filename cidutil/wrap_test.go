package cidutil

import (
	"testing"

	cid "github.com/ipfs/go-cid"
)

// wrap gives the same cid.Cid as go-cid's own constructors, on its fast path (the layout check
// holds for the go-cid in go.mod) and on the slow path a changed layout would take.
func TestWrapMatchesGoCID(t *testing.T) {
	if !cidIsString {
		t.Error("cid.Cid is no longer laid out as a string: wrap takes the slow path; check go-cid's Cid")
	}
	bins := [][]byte{
		mustHex("01 71 12 20" + digest32),
		mustHex("01 55 12 20" + digest32),
		mustHex("01 55 00 00"),
		mustHex("01 8001 a0e402 20" + digest32),
	}
	for _, fast := range []bool{true, false} {
		saved := cidIsString
		cidIsString = fast && saved
		for _, b := range bins {
			codecEnd, err := checkBinary(b)
			if err != nil {
				t.Fatalf("%x: %v", b, err)
			}
			want, cerr := cid.Cast(b)
			if cerr != nil {
				t.Fatalf("cid.Cast(%x): %v", b, cerr)
			}
			got := wrap(b, codecEnd)
			if got != want || got.KeyString() != string(b) || got.String() != want.String() {
				t.Errorf("fast=%v: wrap(%x) = %v, want %v", fast, b, got, want)
			}
		}
		cidIsString = saved
	}
	d := SumCBOR([]byte("record"))
	if want, _ := (cid.Prefix{Version: 1, Codec: cid.DagCBOR, MhType: 0x12, MhLength: 32}).Sum([]byte("record")); d != want {
		t.Errorf("SumCBOR = %v, want %v", d, want)
	}
}
