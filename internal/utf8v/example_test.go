package utf8v_test

import (
	"fmt"

	"github.com/atcore/atcore/internal/utf8v"
)

func Example() {
	good := []byte("Привет, 世界 👋")
	bad := []byte("caf\xc3 au lait") // a 2-byte lead followed by a space
	fmt.Println(utf8v.Valid(good), utf8v.FirstInvalid(good))
	fmt.Println(utf8v.Valid(bad), utf8v.FirstInvalid(bad))
	fmt.Println(utf8v.ValidString("\xed\xa0\x80")) // U+D800, a surrogate
	// Output:
	// true -1
	// false 3
	// false
}
