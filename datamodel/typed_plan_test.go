package datamodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/tid"
)

type (
	planBase struct {
		Note  string `cbor:"note"`
		Shade string `json:"shade"`
		Both  int64  `cbor:"both"` // shadowed by planOuter.Both (shallower wins)
	}
	planOther struct {
		Tie    string // two untagged Tie at one depth: neither is kept
		Tagged string `cbor:"Untagged"`
	}
	planThird struct {
		Tie      string
		Untagged string // an untagged field loses to the tagged one at the same depth
	}
	planOuter struct {
		planBase
		*planOther
		planThird
		Both string `cbor:"both,omitempty"`
		Type string `cbor:"$type"`
		A    int8   `cbor:"a"`
		Skip string `cbor:"-"`
		//lint:ignore U1000 unexported: never read; the test checks it is not a member of the map
		hidden  string
		Extra   UnknownFields  `cbor:"-" json:"-"`
		Self    *planOuter     `cbor:"self,omitempty"`
		Kids    []planOuter    `cbor:"kids,omitempty"`
		ByName  map[string]any `cbor:"byName,omitempty"`
		Created time.Time      `cbor:"createdAt"`
	}
	planCycleA struct {
		B *planCycleB `cbor:"b"`
	}
	planCycleB struct {
		A []planCycleA `cbor:"a"`
	}
	planSelfPtr    *planSelfPtr
	planTwoUnknown struct {
		X UnknownFields
		Y UnknownFields
	}
)

// TestTypedPlanFields: a struct's fields, by the rules of fxamacker and encoding/json (cbor tag,
// else json tag, else the Go name; "-" and unexported fields left out; promoted fields of
// embedded structs, the shallower or the tagged one winning), in canonical DAG-CBOR key order
// (length-first, then bytewise), with each key's CBOR bytes.
func TestTypedPlanFields(t *testing.T) {
	p := typedPlanOf(reflect.TypeFor[planOuter]())
	if p.kind != typedStruct {
		t.Fatalf("kind %v", p.kind)
	}
	var names []string
	for _, f := range p.fields {
		names = append(names, f.name)
		if want := string(cborAppendHead(nil, cborMajorText, uint64(len(f.name)))) + f.name; f.key != want {
			t.Errorf("%s: key %q, want %q", f.name, f.key, want)
		}
	}
	want := []string{"a", "both", "kids", "note", "self", "$type", "shade", "byName", "Untagged", "createdAt"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("fields %q\nwant   %q", names, want)
	}
	byName := map[string]typedField{}
	for _, f := range p.fields {
		byName[f.name] = f
	}
	tests := []struct {
		rule string
		ok   bool
	}{
		{"a cbor tag names the key", byName["a"].plan.kind == typedInt && byName["a"].plan.bits == 8},
		{"a json tag names the key when there is no cbor tag", byName["shade"].goName == "datamodel.planBase.Shade"},
		{"the shallower of two fields of one key wins", byName["both"].goName == "datamodel.planOuter.Both" && byName["both"].plan.kind == typedString},
		{"the tagged of two fields at one depth wins", byName["Untagged"].goName == "datamodel.planOther.Tagged"},
		{"a field promoted through an embedded pointer is reached in steps", !byName["Untagged"].direct && len(byName["Untagged"].steps) == 2},
		{"a field promoted from an embedded struct is at a fixed offset", byName["note"].direct && byName["note"].offset == reflect.TypeFor[planOuter]().Field(0).Offset},
		{"omitempty", byName["both"].omitEmpty && !byName["a"].omitEmpty},
		{"always counts the fields always written (not omitempty, not behind an embedded pointer)", p.always == 5},
		{"optional lists the others", len(p.optional) == len(p.fields)-p.always && p.fields[p.optional[0]].name == "both"},
		{"dollar lists the keys starting with $", len(p.dollar) == 1 && p.fields[p.dollar[0]].name == "$type"},
		{"a recursive field has the struct's own plan", byName["self"].plan.elem == p && byName["kids"].plan.elem == p},
		{"a TextMarshaler is text", byName["createdAt"].plan.kind == typedText},
		{"map[string]any values are any", byName["byName"].plan.kind == typedMap && byName["byName"].plan.elem.kind == typedAny},
		{"the UnknownFields field is found by its type, whatever its tag", p.unknown != nil && p.unknown.goName == "datamodel.planOuter.Extra"},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: no", tt.rule)
		}
	}
}

// TestTypedPlanKinds: each Go type gets the plan of its data-model kind; types outside the data
// model get the error a value of theirs will get.
func TestTypedPlanKinds(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		kind typedKind
		err  error
	}{
		{reflect.TypeFor[Link](), typedLink, nil},
		{reflect.TypeFor[*Link](), typedPointer, nil},
		{reflect.TypeFor[Blob](), typedBlob, nil},
		{reflect.TypeFor[Bytes](), typedBytes, nil},
		{reflect.TypeFor[[]byte](), typedBytes, nil},
		{reflect.TypeFor[[4]byte](), typedByteArray, nil},
		{reflect.TypeFor[tid.TID](), typedTID, nil},
		{reflect.TypeFor[string](), typedString, nil},
		{reflect.TypeFor[bool](), typedBool, nil},
		{reflect.TypeFor[uint16](), typedUint, nil},
		{reflect.TypeFor[int](), typedInt, nil},
		{reflect.TypeFor[any](), typedAny, nil},
		{reflect.TypeFor[error](), typedIface, nil},
		{reflect.TypeFor[[]any](), typedSlice, nil},
		{reflect.TypeFor[[2]string](), typedArray, nil},
		{reflect.TypeFor[map[string]int](), typedMap, nil},
		{reflect.TypeFor[map[int]int](), typedInvalid, ErrKeyNotString},
		{reflect.TypeFor[float64](), typedInvalid, ErrFloat},
		{reflect.TypeFor[chan int](), typedInvalid, ErrUnsupported},
		{reflect.TypeFor[planSelfPtr](), typedInvalid, ErrUnsupported},
		{reflect.TypeFor[planTwoUnknown](), typedInvalid, ErrUnsupported},
	}
	for _, tt := range tests {
		p := typedPlanOf(tt.typ)
		if p.kind != tt.kind || (tt.err == nil) != (p.err == nil) || tt.err != nil && !errors.Is(p.err, tt.err) {
			t.Errorf("%v: kind %v, err %v; want %v, %v", tt.typ, p.kind, p.err, tt.kind, tt.err)
		}
	}
}

// TestTypedPlanCycles: types that reach each other get one plan each, linked in a cycle, and
// typedPlanOf returns the same plan from many goroutines at once.
func TestTypedPlanCycles(t *testing.T) {
	var wg sync.WaitGroup
	plans := make([]*typedPlan, 8)
	for i := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			plans[i] = typedPlanOf(reflect.TypeFor[planCycleA]())
		}()
	}
	wg.Wait()
	a := plans[0]
	for _, p := range plans {
		if p != a {
			t.Fatal("two plans for one type")
		}
	}
	b := a.fields[0].plan.elem // *planCycleB → planCycleB
	if b.typ != reflect.TypeFor[planCycleB]() || b.fields[0].plan.elem != a {
		t.Errorf("cycle not closed: %v → %v", a.typ, b.typ)
	}
	if typedPlanOf(reflect.TypeFor[planCycleB]()) != b {
		t.Error("the plan reached through the cycle is not the cached one")
	}
}

// Struct types embedded more than once, for TestTypedPlanEmbeddedTwice.
type (
	planEmbC struct{ X int64 }
	planEmbA struct{ planEmbC }
	planEmbB struct{ planEmbC }
	planEmbP struct{ *planEmbC }
	planEmbD struct {
		X int64 `json:"X"`
	}
	planEmbU   struct{ X int64 }
	planEmbTag struct {
		X int64 `json:"X"`
	}
	planEmbTA struct{ planEmbTag }
	planEmbTB struct{ planEmbTag }
)

// TestTypedPlanEmbeddedTwice: a struct type embedded twice at one depth has its fields there
// twice, ambiguous, as encoding/json's typeFields counts them: neither copy is kept unless a
// shallower or (against untagged copies) a tagged field dominates. Every encoder, the generic
// walk and both decoders agree with encoding/json.
func TestTypedPlanEmbeddedTwice(t *testing.T) {
	rows := []struct {
		rule string
		v    any // a pointer to a struct
	}{
		{"twice at one depth: neither copy", &struct {
			planEmbA
			planEmbB
		}{planEmbA{planEmbC{1}}, planEmbB{planEmbC{2}}}},
		{"twice at one depth, once through a pointer: neither copy", &struct {
			planEmbA
			planEmbP
		}{planEmbA{planEmbC{1}}, planEmbP{&planEmbC{2}}}},
		{"twice at one depth under a shallower field: the shallower", &struct {
			planEmbA
			planEmbB
			X int64
		}{planEmbA{planEmbC{1}}, planEmbB{planEmbC{2}}, 3}},
		{"twice untagged at one depth beside a tagged field: the tagged one", &struct {
			planEmbA
			planEmbB
			planEmbD
		}{planEmbA{planEmbC{1}}, planEmbB{planEmbC{2}}, planEmbD{3}}},
		{"twice tagged at one depth beside an untagged field: none", &struct {
			planEmbTA
			planEmbTB
			planEmbU
		}{planEmbTA{planEmbTag{1}}, planEmbTB{planEmbTag{2}}, planEmbU{3}}},
		{"once at each of two depths: the shallower", &struct {
			planEmbC
			planEmbA
		}{planEmbC{1}, planEmbA{planEmbC{2}}}},
	}
	for _, r := range rows {
		std, err := json.Marshal(r.v)
		if err != nil {
			t.Fatal(err)
		}
		for name, enc := range map[string]func(any, ...Option) ([]byte, error){
			"MarshalJSONStruct": MarshalJSONStruct, "MarshalJSON": MarshalJSON,
		} {
			if out, err := enc(r.v); err != nil || string(out) != string(std) {
				t.Errorf("%s: %s writes %s, %v; encoding/json %s", r.rule, name, out, err, std)
			}
		}
		g, err := UnmarshalJSON(std)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := MarshalCBOR(g)
		for name, enc := range map[string]func(any, ...Option) ([]byte, error){
			"MarshalCBORStruct": MarshalCBORStruct, "MarshalCBOR": MarshalCBOR,
			"MarshalCBOR in a slice": func(v any, _ ...Option) ([]byte, error) {
				out, err := MarshalCBOR([]any{v})
				if err == nil {
					out = out[1:]
				}
				return out, err
			},
		} {
			if out, err := enc(r.v); err != nil || !bytes.Equal(out, want) {
				t.Errorf("%s: %s writes %x, %v; want %x (%s)", r.rule, name, out, err, want, std)
			}
		}
		// Decoding: every key a field could have, into a zero value of the type.
		in := map[string]any{"X": int64(7)}
		js, _ := MarshalJSON(in)
		cb, _ := MarshalCBOR(in)
		typ := reflect.TypeOf(r.v).Elem()
		stdBack := reflect.New(typ)
		if err := json.Unmarshal(js, stdBack.Interface()); err != nil {
			t.Fatal(err)
		}
		for name, dec := range map[string]func() (any, error){
			"UnmarshalJSONStruct": func() (any, error) {
				v := reflect.New(typ)
				return v.Interface(), UnmarshalJSONStruct(js, v.Interface())
			},
			"UnmarshalCBORStruct": func() (any, error) {
				v := reflect.New(typ)
				return v.Interface(), UnmarshalCBORStruct(cb, v.Interface())
			},
		} {
			if got, err := dec(); err != nil || !reflect.DeepEqual(got, stdBack.Interface()) {
				t.Errorf("%s: %s reads %s as %+v, %v; encoding/json as %+v", r.rule, name, js, got, err, stdBack.Elem())
			}
		}
	}
}

// Structs with and without fxamacker's toarray option, for TestTypedToArrayAsFxamacker.
type (
	planArr struct {
		_ struct{} `cbor:",toarray"`
		A int64
	}
	planArr2 struct {
		_ struct{} `cbor:",toarray"`
		C int64
	}
	planArrEmbedded struct {
		planArr
		B int64
	}
	planArrTwoBlanks struct {
		_ int
		_ struct{} `cbor:",toarray"`
		A int64
	}
	planArrAmbiguous struct {
		planArr
		planArr2
	}
	planArrOptions struct {
		_ struct{} `cbor:"x,toarray,omitempty"`
		A int64
	}
	planArrNotOption struct {
		_ struct{} `cbor:",toarrays"`
		A int64
	}
)

// TestTypedToArrayAsFxamacker: a struct is an array of its fields exactly when fxamacker writes
// it as one (the field "_" that reflect's FieldByName finds, promoted ones included, has the
// option), and then MarshalCBORStruct writes an array, and MarshalCBOR (at the top or inside a
// slice), MarshalJSON and Validate refuse it alike (ErrUnsupported).
func TestTypedToArrayAsFxamacker(t *testing.T) {
	for _, v := range []any{&planArr{}, &planArrEmbedded{}, &planArrTwoBlanks{}, &planArrAmbiguous{},
		&planArrOptions{}, &planArrNotOption{}} {
		fx, err := cbor.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		array := fx[0]>>5 == 4
		name := reflect.TypeOf(v).Elem().Name()
		if p := typedPlanOf(reflect.TypeOf(v).Elem()); p.toArray != array {
			t.Errorf("%s: plan toArray %v, fxamacker writes %x", name, p.toArray, fx)
		}
		if out, err := MarshalCBORStruct(v); err != nil || out[0]>>5 != fx[0]>>5 {
			t.Errorf("%s: MarshalCBORStruct writes %x, %v; fxamacker %x", name, out, err, fx)
		}
		errs := map[string]error{"Validate": Validate(v), "Validate in a slice": Validate([]any{v})}
		_, errs["MarshalCBOR"] = MarshalCBOR(v)
		_, errs["MarshalCBOR in a slice"] = MarshalCBOR([]any{v})
		_, errs["MarshalJSON"] = MarshalJSON(v)
		for entry, err := range errs {
			if array != errors.Is(err, ErrUnsupported) || !array && err != nil {
				t.Errorf("%s: %s: %v (fxamacker writes %x)", name, entry, err, fx)
			}
		}
	}
}

// A struct with fxamacker's toindefarray option would be an indefinite-length array, no form of
// DAG-CBOR: every path refuses the type, as it refuses other Go types with no data-model form
// (the encoders and Validate with ErrUnsupported, the decoders with ErrGoType, saying why).
func TestTypedToIndefArrayRefused(t *testing.T) {
	type indef struct {
		_ struct{} `cbor:",toindefarray"`
		A int64    `cbor:"a"`
	}
	v := indef{A: 1}
	var into indef
	for _, c := range []struct {
		name string
		err  error
		is   error
	}{
		{"MarshalCBOR", func() error { _, err := MarshalCBOR(v); return err }(), ErrUnsupported},
		{"MarshalCBORStruct", func() error { _, err := MarshalCBORStruct(v); return err }(), ErrUnsupported},
		{"MarshalJSON", func() error { _, err := MarshalJSON(v); return err }(), ErrUnsupported},
		{"MarshalJSONStruct", func() error { _, err := MarshalJSONStruct(v); return err }(), ErrUnsupported},
		{"Validate", Validate(v), ErrUnsupported},
		{"UnmarshalCBORStruct", UnmarshalCBORStruct(cborMustHex("a1 6161 01"), &into), ErrGoType},
		{"UnmarshalJSONStruct", UnmarshalJSONStruct([]byte(`{"a":1}`), &into), ErrGoType},
	} {
		if !errors.Is(c.err, c.is) || !strings.Contains(c.err.Error(), "toindefarray") {
			t.Errorf("%s: %v, want %v naming toindefarray", c.name, c.err, c.is)
		}
	}
	if _, err := RecordCID(&v); err == nil {
		t.Error("RecordCID of a toindefarray struct: no error")
	}
	r := &Registry{}
	type indefRecord struct {
		_    struct{} `cbor:",toindefarray"`
		Type string   `json:"$type"`
	}
	if err := Register[indefRecord](r, "app.example.indef"); !errors.Is(err, ErrRegister) {
		t.Errorf("Register of a toindefarray struct: %v", err)
	}
}
