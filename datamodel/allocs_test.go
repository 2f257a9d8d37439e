package datamodel

import "testing"

// TestAllocs is the table of allocation promises: what each entry point allocates at most on a
// valid record. The encoders' scratch space is pooled, so a result is their only allocation; the
// race detector makes sync.Pool drop buffers at random, which costs one more.
func TestAllocs(t *testing.T) {
	v, err := UnmarshalJSON(interopCases(t, "data-model-fixtures.json")[1].JSON)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	limits := []Option{WithLimits(Limits{MaxDepth: 40})}
	type row struct {
		name   string
		f      func() error
		want   float64
		pooled bool // uses sync.Pool: one more allocation under the race detector
	}
	rows := []row{
		{"MarshalCBOR: the result only", func() error { _, err := MarshalCBOR(v); return err }, 1, true},
		{"AppendCBOR into a large enough buffer", func() error { _, err := AppendCBOR(buf, v); return err }, 0, false},
		{"MarshalJSON: the result only", func() error { _, err := MarshalJSON(v); return err }, 1, true},
		{"AppendJSON into a large enough buffer", func() error { _, err := AppendJSON(buf, v); return err }, 0, false},
		{"Validate", func() error { return Validate(v) }, 0, false},
		{"RecordCID: the CID only", func() error { _, err := RecordCID(v); return err }, 1, true},
	}
	for _, r := range cborTestRecords(t) {
		rows = append(rows,
			row{"ScanCBOR " + r.name, func() error { return ScanCBOR(r.cbor) }, 0, false},
			// Applying an Option (a func(*config)) makes the config escape.
			row{"ScanCBOR with options " + r.name, func() error { return ScanCBOR(r.cbor, limits...) }, 1, false},
		)
	}
	// A Go struct is checked by the typed encoder, into pooled space (typedValid).
	_, postCBOR := readRecord(t, "post")
	post := new(cborTestPost)
	if err := UnmarshalCBORStruct(postCBOR, post); err != nil {
		t.Fatal(err)
	}
	rows = append(rows,
		row{"Validate of a Go struct", func() error { return Validate(post) }, 0, true},
		row{"ValidateRecord of a Go struct", func() error { return ValidateRecord(post) }, 0, true})
	for _, tt := range rows {
		if err := tt.f(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := tt.want
		if tt.pooled && cborRaceEnabled {
			want++
		}
		if n := testing.AllocsPerRun(100, func() { _ = tt.f() }); n > want {
			t.Errorf("%s: %v allocations, want at most %v", tt.name, n, want)
		}
	}
}
