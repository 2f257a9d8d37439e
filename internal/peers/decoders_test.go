package peers

import (
	"fmt"
	"time"

	"github.com/bluesky-social/indigo/atproto/atdata"
	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/datamodel"
)

// A decoder is one implementation's generic DAG-CBOR decode, reduced to accept or reject.
type decoder struct {
	name   string // column name, also the benchmarks' impl= value
	doc    string // what exactly is called, for CONFORMANCE.md
	decode func(data []byte) error
}

// cborDecoders lists every implementation in the conformance matrix, atcore first.
var cborDecoders = []decoder{
	{"atcore", "`datamodel.UnmarshalCBOR`", func(data []byte) error {
		_, err := datamodel.UnmarshalCBOR(data)
		return err
	}},
	{"atcore-scan", "`datamodel.ScanCBOR`", func(data []byte) error {
		return datamodel.ScanCBOR(data)
	}},
	{"atcore-struct", "`datamodel.UnmarshalCBORStruct` into a `map[string]any`", func(data []byte) error {
		var v map[string]any
		return datamodel.UnmarshalCBORStruct(data, &v)
	}},
	{"indigo", "indigo `atdata.UnmarshalCBOR` (go-ipld-cbor + refmt, then atproto checks)", func(data []byte) error {
		_, err := atdata.UnmarshalCBOR(data)
		return err
	}},
	{"ipld", "go-ipld-prime `dagcbor.Decode` into `basicnode` (default, strict options)", func(data []byte) error {
		_, err := ipldDecode(data)
		return err
	}},
	{"fxamacker", "fxamacker/cbor `cbor.Unmarshal` into `any` (default options)", func(data []byte) error {
		var v any
		return cbor.Unmarshal(data, &v)
	}},
}

// Outcome of running one decoder on one input.
type outcome string

const (
	accepted outcome = "accept"
	rejected outcome = "reject"
	panicked outcome = "PANIC"
	hung     outcome = "TIMEOUT"
)

// decodeTimeout bounds one decode; a well-behaved decoder needs microseconds.
const decodeTimeout = 20 * time.Second

// run calls decode on data in its own goroutine, turning a panic or a hang into an outcome
// instead of taking the test binary down. (A stack overflow would still kill the process; no
// input in the tables nests deeply enough for that: Go stacks grow to 1 GB.)
func run(decode func([]byte) error, data []byte) (outcome, error) {
	type result struct {
		out outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panicked, fmt.Errorf("panic: %v", p)}
			}
		}()
		if err := decode(data); err != nil {
			done <- result{rejected, err}
			return
		}
		done <- result{accepted, nil}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(decodeTimeout):
		return hung, fmt.Errorf("no result after %v", decodeTimeout)
	}
}
