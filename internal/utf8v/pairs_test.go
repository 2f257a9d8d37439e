package utf8v

import "testing"

// TestPairTables checks the pair step against the byte step it stands for: for every two bytes
// and every state, one look-up in pairRows (textPairRows) leads where two in rows (textRows) do. A class table that
// merged two bytes UTF-8 tells apart, or a composition in the wrong order, fails here.
func TestPairTables(t *testing.T) {
	states := []uint64{sError, sAccept, sTail1, sTail2, sTail3, sE0, sED, sF0, sF4, sStop}
	for b0 := range 256 {
		for b1 := range 256 {
			for _, tab := range []struct {
				name       string
				pair, byte *[256]uint64
			}{{"pairRows", &pairRows, &rows}, {"textPairRows", &textPairRows, &textRows}} {
				pair := tab.pair[pairClass[b0|b1<<8]]
				for _, s := range states {
					want := tab.byte[b1] >> (tab.byte[b0] >> s & 63) & 63
					if got := pair >> s & 63; got != want {
						t.Fatalf("%s, bytes %#02x %#02x from state %d: pair step gives %d, two byte steps %d",
							tab.name, b0, b1, s, got, want)
					}
				}
			}
		}
	}
}
