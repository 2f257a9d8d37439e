// Command cmd writes the benchmark inputs of package benchinputs to a directory, as NAME.json
// and NAME.cbor (the stream as NAME.ndjson and NAME.cbor, records back to back), for looking at
// them or timing other tools on the same bytes.
//
//	go run ./benchinputs/cmd -out /tmp/bench [-seed 16]   # in internal/peers
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/atcore/atcore/internal/peers/benchinputs"
)

func main() {
	out := flag.String("out", "", "directory to write the inputs to (created if missing)")
	seed := flag.Uint64("seed", benchinputs.Seed, "generator seed")
	flag.Parse()
	if err := run(*out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "benchinputs:", err)
		os.Exit(1)
	}
}

func run(dir string, seed uint64) error {
	if dir == "" {
		return fmt.Errorf("-out is required")
	}
	inputs, err := benchinputs.Generate(seed)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, in := range inputs {
		ext := ".json"
		if len(in.Parts) > 1 {
			ext = ".ndjson"
		}
		if err := os.WriteFile(filepath.Join(dir, in.Name+ext), in.JSON, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, in.Name+".cbor"), in.CBOR, 0o644); err != nil {
			return err
		}
		fmt.Printf("%-10s %5d records, %8d bytes CBOR, %8d bytes JSON: %s\n", in.Name, len(in.Parts), len(in.CBOR), len(in.JSON), in.What)
	}
	return nil
}
