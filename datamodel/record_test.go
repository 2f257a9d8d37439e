package datamodel

import (
	"errors"
	"testing"
)

func TestRecordCIDErrors(t *testing.T) {
	if _, err := RecordCID(map[string]any{"a": 1.5}); !errors.Is(err, ErrFloat) {
		t.Errorf("RecordCID of a float: %v, want ErrFloat", err)
	}
}

func TestRecordCIDAllocs(t *testing.T) {
	v, err := UnmarshalJSON(jsonReadCases(t, "data-model-fixtures.json")[1].JSON)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RecordCID(v); err != nil {
		t.Fatal(err)
	}
	// The CID itself; the encoding buffer comes from a pool.
	want := 1.0
	if cborRaceEnabled {
		want = 2 // the race detector makes sync.Pool drop buffers at random
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = RecordCID(v) }); n > want {
		t.Errorf("RecordCID: %v allocations, want at most %v", n, want)
	}
}
