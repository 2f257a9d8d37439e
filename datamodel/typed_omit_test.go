package datamodel

// omitempty and omitzero on the typed path, as encoding/json (Go 1.24) decides them.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/tid"
)

// TestTypedEmpty: omitempty's emptiness, per kind, as encoding/json decides it from the Go kind
// alone: a struct (Link, Blob) is never empty, an array only of length 0.
func TestTypedEmpty(t *testing.T) {
	link := cborTestLink(t, cborTestLinkString)
	tests := []struct {
		v     any
		empty bool
	}{
		{"", true}, {"x", false}, {int8(0), true}, {int16(-1), false}, {uint32(0), true}, {int64(5), false},
		{false, true}, {true, false}, {[]string{}, true}, {[]string{""}, false}, {Bytes(nil), true},
		{map[string]any{}, true}, {map[string]any{"a": nil}, false}, {(*Link)(nil), true}, {&link, false},
		{Link{}, false}, {link, false}, {Blob{}, false}, {Blob{Size: 1}, false}, {tid.TID(0), true},
		{[0]int{}, true}, {[1]int{}, false}, {[1]int{1}, false}, {UnknownFields{}, true},
		{Union{}, false}, {struct{}{}, false}, {0.0, true}, {goTestLang(""), true},
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

// Types whose IsZero differs from their zero value, for omitzero: a value is zero when N is -1.
type (
	omitZeroVal struct {
		N int64 `json:"n"`
	}
	omitZeroPtr struct {
		N int64 `json:"n"`
	}
	omitZeroer interface{ IsZero() bool }
)

func (v omitZeroVal) IsZero() bool  { return v.N == -1 }
func (v *omitZeroPtr) IsZero() bool { return v.N == -1 }

// TestOmitOptionsAsEncodingJSON: omitempty and omitzero leave out what encoding/json (Go 1.24)
// leaves out, with every encoder and the generic walk of Go structs: omitempty the empty values
// by their Go kind (never a struct, an array only of length 0), omitzero the zero values or
// those whose IsZero method, on the value or the pointer, says so (a non-nil empty slice is not
// zero). fxamacker's omitzero agrees too.
func TestOmitOptionsAsEncodingJSON(t *testing.T) {
	neg := &omitZeroVal{N: -1}
	rows := []struct {
		rule string
		v    any
	}{
		{"omitzero: a non-nil empty slice is not zero", &struct {
			A []string `json:"a,omitzero"`
		}{A: []string{}}},
		{"omitzero: a nil slice is zero", &struct {
			A []string `json:"a,omitzero"`
		}{}},
		{"omitempty: an empty slice is empty", &struct {
			A []string `json:"a,omitempty"`
		}{A: []string{}}},
		{"omitzero: an empty map is not zero", &struct {
			M map[string]int64 `json:"m,omitzero"`
		}{M: map[string]int64{}}},
		{"omitzero: 0 and \"\" are zero", &struct {
			N int64  `json:"n,omitzero"`
			S string `json:"s,omitzero"`
		}{}},
		{"omitzero: an array of zeros is zero", &struct {
			A [2]int64 `json:"a,omitzero"`
		}{}},
		{"omitempty: an array of zeros is not empty", &struct {
			A [2]int64 `json:"a,omitempty"`
		}{}},
		{"omitempty: a struct is never empty", &struct {
			S struct {
				N int64 `json:"n"`
			} `json:"s,omitempty"`
		}{}},
		{"omitzero: a struct of zeros is zero", &struct {
			S struct {
				N int64 `json:"n"`
			} `json:"s,omitzero"`
		}{}},
		{"omitzero: IsZero on the value says zero", &struct {
			V omitZeroVal `json:"v,omitzero"`
		}{V: omitZeroVal{N: -1}}},
		{"omitzero: IsZero on the value says not zero, for the zero value", &struct {
			V omitZeroVal `json:"v,omitzero"`
		}{}},
		{"omitzero: IsZero on the pointer says zero", &struct {
			V omitZeroPtr `json:"v,omitzero"`
		}{V: omitZeroPtr{N: -1}}},
		{"omitzero: IsZero on the pointer says not zero, for the zero value", &struct {
			V omitZeroPtr `json:"v,omitzero"`
		}{}},
		{"omitzero: a nil pointer to a type with IsZero", &struct {
			P *omitZeroVal `json:"p,omitzero"`
		}{}},
		{"omitzero: a pointer to a value whose IsZero says zero", &struct {
			P *omitZeroVal `json:"p,omitzero"`
		}{P: neg}},
		{"omitzero: a pointer to a value whose IsZero says not zero", &struct {
			P *omitZeroVal `json:"p,omitzero"`
		}{P: &omitZeroVal{}}},
		{"omitzero: an interface with IsZero holding a nil pointer", &struct {
			I omitZeroer `json:"i,omitzero"`
		}{I: (*omitZeroPtr)(nil)}},
		{"omitzero: an interface with IsZero holding a zero value", &struct {
			I omitZeroer `json:"i,omitzero"`
		}{I: omitZeroVal{N: -1}}},
		{"omitzero: an interface with IsZero holding a value not zero", &struct {
			I omitZeroer `json:"i,omitzero"`
		}{I: omitZeroVal{}}},
		{"omitzero: time.Time's IsZero, in another zone", &struct {
			T time.Time `json:"t,omitzero"`
		}{T: time.Time{}.In(time.FixedZone("x", 3600))}},
		{"omitempty: a zero tid.TID is empty (a uint64 kind)", &struct {
			T tid.TID `json:"t,omitempty"`
		}{}},
		{"omitzero: a Union that holds nothing", &struct {
			U Union `json:"u,omitzero"`
		}{}},
		{"omitempty: a Union is a struct, never empty", &struct {
			U Union `json:"u,omitempty"`
		}{}},
		{"omitempty,omitzero: either leaves the field out", &struct {
			A []string    `json:"a,omitempty,omitzero"`
			V omitZeroVal `json:"v,omitempty,omitzero"`
		}{A: []string{}, V: omitZeroVal{N: -1}}},
	}
	keys := func(m any) []string {
		var ks []string
		for k := range m.(map[string]any) {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	// read returns what an encoder wrote as decoded by dec, or the error.
	read := func(dec func([]byte, ...Option) (any, error)) func([]byte, error) any {
		return func(out []byte, err error) any {
			if err != nil {
				return err
			}
			v, err := dec(out)
			if err != nil {
				return err
			}
			return v
		}
	}
	for _, r := range rows {
		std, err := json.Marshal(r.v)
		if err != nil {
			t.Fatalf("%s: encoding/json: %v", r.rule, err)
		}
		var sm map[string]any
		if err := json.Unmarshal(std, &sm); err != nil {
			t.Fatal(err)
		}
		want := keys(sm)
		got := map[string]any{
			"MarshalJSONStruct": read(UnmarshalJSON)(MarshalJSONStruct(r.v)),
			"MarshalJSON":       read(UnmarshalJSON)(MarshalJSON(r.v)),
			"MarshalCBORStruct": read(UnmarshalCBOR)(MarshalCBORStruct(r.v)),
			"MarshalCBOR":       read(UnmarshalCBOR)(MarshalCBOR(r.v)),
		}
		// The generic walk of a Go struct (govalue.go), below the top.
		if out, err := MarshalCBOR([]any{r.v}); err == nil {
			a, _ := UnmarshalCBOR(out)
			got["MarshalCBOR in a slice"] = a.([]any)[0]
		} else {
			got["MarshalCBOR in a slice"] = err
		}
		if strings.Contains(r.rule, "omitzero:") {
			if out, err := cbor.Marshal(r.v); err == nil {
				var m map[string]any
				if err := cbor.Unmarshal(out, &m); err != nil {
					t.Fatal(err)
				}
				got["fxamacker"] = map[string]any(m)
			} else {
				got["fxamacker"] = err
			}
		}
		for name, g := range got {
			if _, ok := g.(map[string]any); !ok {
				t.Errorf("%s: %s: %v", r.rule, name, g)
			} else if k := keys(g); !slices.Equal(k, want) {
				t.Errorf("%s: %s writes keys %q, encoding/json %q (%s)", r.rule, name, k, want, std)
			}
		}
	}
}

// TestOmitZeroKeepsEmptyArray: a record whose array is empty, read into an omitzero slice field,
// is written back with the array (it is not nil, so not zero): the bytes survive.
func TestOmitZeroKeepsEmptyArray(t *testing.T) {
	var s struct {
		A []string `json:"a,omitzero"`
	}
	data := []byte{0xa1, 0x61, 'a', 0x80}
	if err := UnmarshalCBORStruct(data, &s); err != nil {
		t.Fatal(err)
	}
	if out, err := MarshalCBORStruct(&s); err != nil || !bytes.Equal(out, data) {
		t.Errorf("read %x, wrote %x, %v", data, out, err)
	}
	js := []byte(`{"a":[]}`)
	if err := UnmarshalJSONStruct(js, &s); err != nil {
		t.Fatal(err)
	}
	if out, err := MarshalJSONStruct(&s); err != nil || !bytes.Equal(out, js) {
		t.Errorf("read %s, wrote %s, %v", js, out, err)
	}
}
