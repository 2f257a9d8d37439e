package cidutil

import (
	"sync"
	"testing"
)

// The package has no mutable state: every function may be called from many goroutines at once
// (run with -race).
func TestConcurrentUse(t *testing.T) {
	data := []byte("concurrent")
	want := SumCBOR(data)
	str := want.String()
	bin := want.Bytes()
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if c := SumCBOR(data); c != want {
					t.Errorf("SumCBOR = %v", c)
				}
				if c, err := ParseBinary(bin); err != nil || c != want {
					t.Errorf("ParseBinary = %v, %v", c, err)
				}
				if c, err := ParseString(str); err != nil || c != want {
					t.Errorf("ParseString = %v, %v", c, err)
				}
				if c, err := ParseBlessed(str); err != nil || c != want {
					t.Errorf("ParseBlessed = %v, %v", c, err)
				}
				if !IsBlessed(want) || CheckSyntax(str) != nil || Verify(want, data) != nil {
					t.Error("IsBlessed, CheckSyntax or Verify failed")
				}
				if _, err := ParseString("M" + str[1:]); err == nil {
					t.Error("ParseString accepted a base32 body under the base64pad prefix")
				}
			}
		}()
	}
	wg.Wait()
}
