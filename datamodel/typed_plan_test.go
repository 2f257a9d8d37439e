package datamodel

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

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

// TestTypedEmpty: omitempty's emptiness, per kind.
func TestTypedEmpty(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	tests := []struct {
		v     any
		empty bool
	}{
		{"", true}, {"x", false}, {int8(0), true}, {int16(-1), false}, {uint32(0), true}, {int64(5), false},
		{false, true}, {true, false}, {[]string{}, true}, {[]string{""}, false}, {Bytes(nil), true},
		{map[string]any{}, true}, {map[string]any{"a": nil}, false}, {(*Link)(nil), true}, {&link, false},
		{Link{}, true}, {link, false}, {Blob{}, true}, {Blob{Size: 1}, false}, {tid.TID(0), true},
		{[0]int{}, true}, {[1]int{}, true}, {[1]int{1}, false}, {UnknownFields{}, true},
	}
	for _, tt := range tests {
		rv := reflect.New(reflect.TypeOf(tt.v))
		rv.Elem().Set(reflect.ValueOf(tt.v))
		if got := typedEmpty(typedPlanOf(rv.Type().Elem()), rv.UnsafePointer()); got != tt.empty {
			t.Errorf("%T %v: empty %v, want %v", tt.v, tt.v, got, tt.empty)
		}
	}
	var a any
	if !typedEmpty(typedPlanOf(reflect.TypeFor[any]()), reflect.ValueOf(&a).UnsafePointer()) {
		t.Error("nil any: not empty")
	}
}
