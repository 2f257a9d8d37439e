package benchinputs_test

import (
	"fmt"

	"github.com/atcore/atcore/internal/peers/benchinputs"
)

func ExampleGenerate() {
	inputs, err := benchinputs.Generate(benchinputs.Seed)
	if err != nil {
		panic(err)
	}
	for _, in := range inputs {
		fmt.Printf("%-10s %5d records, %7d bytes of DAG-CBOR\n", in.Name, len(in.Parts), len(in.CBOR))
	}
	// Output:
	// mixprofile     1 records,     849 bytes of DAG-CBOR
	// mixpost        1 records,    2583 bytes of DAG-CBOR
	// mixlist        1 records,     767 bytes of DAG-CBOR
	// big50k         1 records,   50161 bytes of DAG-CBOR
	// big900k        1 records,  900159 bytes of DAG-CBOR
	// wide32k        1 records,  523268 bytes of DAG-CBOR
	// stream10k  10000 records, 3948026 bytes of DAG-CBOR
}
