package datamodel

// The typed codec's plans: how a Go type is read from and written to the data model, compiled
// once per reflect.Type and shared by every codec on Go types (typed_cbor_decode.go,
// typed_cbor_encode.go, and the JSON and generic paths built on them).
//
//	typedPlanOf      the cache: a plan per reflect.Type, cycles in the type graph included
//	typedPlan        what a type is (typedKind) and what it holds: element plan, struct fields
//	typedField       a struct field: its map key, precomputed as CBOR, where it is, its options
//	typedStructFields which fields a struct has, under which keys (tags, embedding, dominance)
//	UnknownFields    the field type that keeps the keys a struct does not name

import (
	"encoding"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/internal/utf8v"
	"github.com/atcore/atcore/tid"
)

// UnknownFields holds the members of a record that its Go struct does not name, as generic
// data-model values (the types UnmarshalCBOR returns). A struct field of this type, whatever
// its name, is recognised by the typed codec (UnmarshalCBORStruct, UnmarshalJSONStruct,
// MarshalCBORStruct, MarshalJSONStruct, and the generic encoders for a struct): decoding fills
// it with every key that has no field of its own (nil when there are none), and encoding writes its
// entries back among the named fields, in canonical key order, so that a record read with an
// older revision of its Lexicon and written back keeps every byte and its CID
// (https://atproto.com/specs/lexicon, "Usage and Implementation Guidelines"). Encoding refuses
// an entry whose key is also the key of a named field of the struct (ErrGoType): every encoder,
// Validate and RecordCID refuse the struct before looking at anything in it, at the first such
// key in canonical key order.
//
// Tag the field `cbor:"-" json:"-"`, so that encoding/json and fxamacker/cbor, which do not know
// it, leave it out rather than writing it as a member of its own.
//
// Only a direct field of the struct counts (not one promoted from an embedded struct), and a
// struct may have one.
type UnknownFields map[string]any

// typedKind is what a plan does with its type.
type typedKind uint8

const (
	typedInvalid   typedKind = iota // no data-model form: typedPlan.err says why
	typedAny                        // interface{}: the generic decoder's values, MarshalCBOR's
	typedIface                      // an interface with methods: its dynamic value when encoding
	typedBool                       // bool kinds
	typedString                     // string kinds
	typedInt                        // signed integer kinds, of typedPlan.bits
	typedUint                       // unsigned integer kinds, of typedPlan.bits
	typedBytes                      // a slice of a uint8 kind: Bytes, []byte
	typedByteArray                  // an array of a uint8 kind, as bytes
	typedLink                       // Link
	typedBlob                       // Blob
	typedTID                        // tid.TID, a 13-character string
	typedText                       // encoding.TextMarshaler/TextUnmarshaler: a string
	typedMethod                     // a type with fxamacker's MarshalCBOR/UnmarshalCBOR methods
	typedSlice                      // []T
	typedArray                      // [N]T
	typedMap                        // map[K]T, K a string kind
	typedStruct                     // a struct: a map of its fields
	typedPointer                    // *T: null when nil
	typedUnknown                    // UnknownFields: only as a struct field (typedPlan.unknown)
	typedUnion                      // Union, ClosedUnion: a member chosen by its $type (union.go)
)

// typedPlan is how one Go type is read and written. Plans are immutable once typedPlanOf has
// returned them, and shared.
type typedPlan struct {
	typ  reflect.Type
	kind typedKind
	size uintptr // typ.Size()
	bits int     // typedInt, typedUint: 8, 16, 32 or 64

	elem *typedPlan // typedSlice, typedArray, typedMap (the value), typedPointer
	len  int        // typedArray, typedByteArray

	// Where the type has methods of its own, which apply instead of its kind.
	textMarshal, textUnmarshal     bool // typedText: encoding.TextMarshaler on T, TextUnmarshaler on *T
	cborMarshal, cborUnmarshal     bool // typedMethod: cbor.Marshaler on T, cbor.Unmarshaler on *T
	textMarshalPtr, cborMarshalPtr bool // the Marshaler is on *T only: encoded through the address

	// typedStruct: the fields in canonical DAG-CBOR key order (length-first, then bytewise), the
	// order they are written in and the order keys arrive in, so that decoding matches keys to
	// fields in one merge.
	fields  []typedField
	always  int         // fields always written: no omitempty or omitzero, no embedded pointer
	unknown *typedField // the UnknownFields field, or nil
	// optional lists the fields that may go unwritten (omitempty, omitzero, or behind an embedded
	// pointer), so that counting a struct's entries looks at those only; dollar lists the fields
	// whose key starts with '$', which the rules on reserved keys look at (rules 10, 11, 13).
	optional []int
	dollar   []int
	// toArray: the struct has fxamacker's `_ struct{} `cbor:",toarray"`` marker, as fxamacker
	// finds it (typedToArray), and is an array of its fields in declaration order (fields are then
	// in that order, omitempty and omitzero ignored).
	toArray bool

	err *Error // typedInvalid: the error a value of this type gets (Offset -1, no path)
}

// typedField is a field of a struct as the typed codec reads and writes it.
type typedField struct {
	name   string     // the map key
	key    string     // the map key as CBOR: head and text, written as is
	goName string     // Struct.Field, for error details
	plan   *typedPlan // the field's type
	// offset is the field's offset from the start of the struct when direct (no embedded
	// pointer on the way); otherwise steps leads to it.
	offset    uintptr
	direct    bool
	steps     []typedStep
	omit      bool        // omitEmpty || omitZero: see typedOmitted
	omitEmpty bool        // omitempty: not written when empty (typedEmpty)
	omitZero  bool        // omitzero: not written when zero (typedZero), as zeroer tells
	zeroer    typedZeroer // omitZero: how the value tells that it is zero
	validKey  bool        // the key is valid UTF-8 (an invalid one is refused when written)
	order     []int       // the index path, in declaration order (toArray structs)
}

// typedStep is one field on the way to a promoted field: its offset in its struct and, when it
// is an embedded pointer, the struct type it points to (to allocate when decoding).
type typedStep struct {
	offset uintptr
	ptrTo  reflect.Type // nil: the field is the struct itself
}

// typedPlanOf returns the plan of t, compiling it (and the plans of every type it reaches) on
// first use. Safe for concurrent use; plans are kept for the life of the program, one per type.
func typedPlanOf(t reflect.Type) *typedPlan {
	if p, ok := typedPlans.Load(t); ok {
		return p.(*typedPlan)
	}
	typedPlansMu.Lock()
	defer typedPlansMu.Unlock()
	if p, ok := typedPlans.Load(t); ok {
		return p.(*typedPlan)
	}
	b := typedBuilder{plans: map[reflect.Type]*typedPlan{}}
	p := b.plan(t)
	// Published only once complete: a plan under construction refers to itself through cycles,
	// and another goroutine must not see it half built.
	for t, p := range b.plans {
		typedPlans.Store(t, p)
	}
	return p
}

var (
	typedPlans   sync.Map // reflect.Type → *typedPlan
	typedPlansMu sync.Mutex
)

// typedBuilder compiles the plans of one type graph: plans holds those begun, so that a type
// reached again (a recursive type) gets the same plan, filled in by its first visit.
type typedBuilder struct {
	plans map[reflect.Type]*typedPlan
}

var (
	linkType          = reflect.TypeFor[Link]()
	blobType          = reflect.TypeFor[Blob]()
	tidType           = reflect.TypeFor[tid.TID]()
	unknownFieldsType = reflect.TypeFor[UnknownFields]()
	cborMarshalerT    = reflect.TypeFor[cbor.Marshaler]()
	cborUnmarshalerT  = reflect.TypeFor[cbor.Unmarshaler]()
	textMarshalerT    = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerT  = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func (b *typedBuilder) plan(t reflect.Type) *typedPlan {
	if p, ok := typedPlans.Load(t); ok {
		return p.(*typedPlan)
	}
	if p, ok := b.plans[t]; ok {
		return p
	}
	p := &typedPlan{typ: t, size: t.Size()}
	b.plans[t] = p
	switch t {
	case linkType, cidType:
		// A cid.Cid is the link it is in a generic tree (MarshalCBOR writes it as one), not
		// the string its MarshalText gives; Link's underlying type is cid.Cid, so one kind
		// reads and writes both.
		p.kind = typedLink
		return p
	case blobType:
		p.kind = typedBlob
		return p
	case tidType:
		p.kind = typedTID
		return p
	case unknownFieldsType:
		p.kind = typedUnknown
		p.elem = b.plan(t.Elem())
		return p
	case unionType, closedUnionType:
		p.kind = typedUnion
		return p
	}
	pt := reflect.PointerTo(t)
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		// Methods first, as fxamacker takes them: its own interfaces, then text.
		p.cborMarshal, p.cborMarshalPtr = t.Implements(cborMarshalerT), !t.Implements(cborMarshalerT) && pt.Implements(cborMarshalerT)
		p.cborUnmarshal = pt.Implements(cborUnmarshalerT)
		if p.cborMarshal || p.cborMarshalPtr || p.cborUnmarshal {
			p.kind = typedMethod
			return p
		}
		p.textMarshal, p.textMarshalPtr = t.Implements(textMarshalerT), !t.Implements(textMarshalerT) && pt.Implements(textMarshalerT)
		p.textUnmarshal = pt.Implements(textUnmarshalerT)
		if p.textMarshal || p.textMarshalPtr || p.textUnmarshal {
			p.kind = typedText
			return p
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		p.kind = typedBool
	case reflect.String:
		p.kind = typedString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind, p.bits = typedInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind, p.bits = typedUint, t.Bits()
	case reflect.Interface:
		p.kind = typedIface
		if t.NumMethod() == 0 {
			p.kind = typedAny
		}
	case reflect.Pointer:
		// A pointer type that reaches itself through pointers only (type P *P) would be followed
		// forever: no data-model form.
		seen := map[reflect.Type]bool{}
		for e := t; e.Kind() == reflect.Pointer; e = e.Elem() {
			if seen[e] {
				p.err = valueError(ErrUnsupported, "a Go "+t.String()+" points to itself")
				return p
			}
			seen[e] = true
		}
		p.kind = typedPointer
		p.elem = b.plan(t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !b.hasMethods(t.Elem()) {
			p.kind = typedBytes
			break
		}
		p.kind = typedSlice
		p.elem = b.plan(t.Elem())
	case reflect.Array:
		p.len = t.Len()
		if t.Elem().Kind() == reflect.Uint8 && !b.hasMethods(t.Elem()) {
			p.kind = typedByteArray
			break
		}
		p.kind = typedArray
		p.elem = b.plan(t.Elem())
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			p.err = valueError(ErrKeyNotString, "a Go "+t.String()+": map keys are strings in the data model")
			return p
		}
		p.kind = typedMap
		p.elem = b.plan(t.Elem())
	case reflect.Struct:
		p.kind = typedStruct
		b.structFields(p)
	case reflect.Float32, reflect.Float64:
		p.err = valueError(ErrFloat, "a Go "+t.String()+" (https://atproto.com/specs/data-model, \"Why No Floats?\")")
	default:
		p.err = valueError(ErrUnsupported, "a Go "+t.String()+" has no data-model form")
	}
	return p
}

// hasMethods reports whether t has methods that would make it other than a plain uint8 in an
// array or slice of bytes.
func (b *typedBuilder) hasMethods(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(cborMarshalerT) || pt.Implements(cborUnmarshalerT) ||
		pt.Implements(textMarshalerT) || pt.Implements(textUnmarshalerT)
}

// typedCandidate is a field found while walking a struct and its embedded structs.
type typedCandidate struct {
	typedField
	depth  int
	tagged bool
	order  []int // the index path, to keep declaration order among equals
}

// structFields fills p.fields for struct type p.typ with the keys fxamacker (and encoding/json)
// give them: the name in the `cbor` tag, else in the `json` tag, else the Go name; "-" leaves a
// field out; unexported fields are left out; the fields of an embedded struct without a name in
// its tag are promoted, and of two fields with one key the shallower wins, then the tagged one
// at the same depth, else neither is kept. As encoding/json's typeFields counts them, the fields
// of a struct type embedded twice at one depth are there twice, so neither copy is kept unless a
// field dominates them (json.Marshal of struct{ A; B }, both embedding C{X}, has no "X").
func (b *typedBuilder) structFields(p *typedPlan) {
	t := p.typ
	p.toArray = typedToArray(t)
	if typedToIndefArray(t) {
		p.kind, p.err = typedInvalid, valueError(ErrUnsupported, "Go struct "+t.String()+
			" has fxamacker's toindefarray option: an indefinite-length array is not DAG-CBOR")
		return
	}
	var found []typedCandidate
	type level struct {
		t     reflect.Type
		steps []typedStep
		order []int
		twice bool // t is embedded more than once at this depth
	}
	visited := map[reflect.Type]bool{}
	current := []level{{t: t}}
	for depth := 0; len(current) > 0; depth++ {
		var next []level
		embeds := map[reflect.Type]int{} // how often each struct type is embedded at depth+1
		for _, l := range current {
			if visited[l.t] {
				continue // an embedded struct reached again deeper is shadowed by the first
			}
			visited[l.t] = true
			for i := range l.t.NumField() {
				sf := l.t.Field(i)
				ft := sf.Type
				if depth == 0 && ft == unknownFieldsType {
					if p.unknown != nil {
						p.kind, p.err = typedInvalid, valueError(ErrUnsupported, "Go struct "+t.String()+" has two UnknownFields fields")
						return
					}
					p.unknown = &typedField{goName: t.String() + "." + sf.Name, offset: sf.Offset, direct: true, plan: b.plan(ft)}
					continue
				}
				tag := sf.Tag.Get("cbor")
				if tag == "" {
					tag = sf.Tag.Get("json")
				}
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				embedded := ft
				if embedded.Kind() == reflect.Pointer {
					embedded = embedded.Elem()
				}
				if sf.Anonymous && name == "" && embedded.Kind() == reflect.Struct {
					step := typedStep{offset: sf.Offset}
					if ft.Kind() == reflect.Pointer {
						step.ptrTo = embedded
					}
					if embeds[embedded]++; embeds[embedded] == 1 {
						next = append(next, level{t: embedded, steps: append(append([]typedStep{}, l.steps...), step), order: append(append([]int{}, l.order...), i)})
					}
					continue
				}
				if !sf.IsExported() {
					continue
				}
				if name == "" {
					name = sf.Name
				}
				f := typedCandidate{depth: depth, tagged: tag != "" && !strings.HasPrefix(tag, ","), order: append(append([]int{}, l.order...), i)}
				f.name = name
				f.key = string(cborAppendHead(nil, cborMajorText, uint64(len(name)))) + name
				f.goName = l.t.String() + "." + sf.Name
				f.validKey = utf8v.ValidString(name)
				for _, o := range strings.Split(opts, ",") {
					f.omitEmpty = f.omitEmpty || o == "omitempty"
					f.omitZero = f.omitZero || o == "omitzero"
				}
				if f.omitZero {
					f.zeroer = typedZeroerOf(ft)
				}
				f.omit = f.omitEmpty || f.omitZero
				f.steps = append(append([]typedStep{}, l.steps...), typedStep{offset: sf.Offset})
				f.direct = true
				for _, s := range f.steps {
					f.direct = f.direct && s.ptrTo == nil
					f.offset += s.offset
				}
				if !f.direct {
					f.offset = 0
				} else {
					f.steps = nil
				}
				f.plan = b.plan(ft)
				found = append(found, f)
				if l.twice {
					// A struct type embedded twice at one depth: its fields are there twice,
					// and so ambiguous (encoding/json's typeFields keeps a second copy for
					// the dominance below to drop both).
					found = append(found, f)
				}
			}
		}
		for i := range next {
			next[i].twice = embeds[next[i].t] > 1
		}
		current = next
	}
	// Dominance, as encoding/json: per key, the shallowest fields; of those the tagged ones;
	// exactly one must remain.
	byName := map[string][]int{}
	for i, f := range found {
		byName[f.name] = append(byName[f.name], i)
	}
	for _, f := range found {
		idx := byName[f.name]
		if idx == nil {
			continue // already decided
		}
		delete(byName, f.name)
		best := -1
		minDepth := found[idx[0]].depth
		for _, i := range idx {
			minDepth = min(minDepth, found[i].depth)
		}
		var shallow []int
		for _, i := range idx {
			if found[i].depth == minDepth {
				shallow = append(shallow, i)
			}
		}
		if len(shallow) == 1 {
			best = shallow[0]
		} else {
			tagged := 0
			for _, i := range shallow {
				if found[i].tagged {
					tagged++
					best = i
				}
			}
			if tagged != 1 {
				best = -1
			}
		}
		if best >= 0 {
			found[best].typedField.order = found[best].order
			p.fields = append(p.fields, found[best].typedField)
			if !found[best].omit {
				p.always++
			}
		}
	}
	if p.toArray {
		slices.SortStableFunc(p.fields, func(a, b typedField) int { return slices.Compare(a.order, b.order) })
		p.always = len(p.fields)
		return
	}
	sortTypedFields(p.fields)
	p.always = 0
	for i, f := range p.fields {
		if f.omit || !f.direct {
			p.optional = append(p.optional, i)
		} else {
			p.always++
		}
		if strings.HasPrefix(f.name, "$") {
			p.dollar = append(p.dollar, i)
		}
	}
}

// typedToArray reports whether struct type t has fxamacker's toarray option, as fxamacker decides
// it (collectFields and newEncodeFunc in its v2.10.0): the field t.FieldByName("_") finds (the
// first direct field named "_", else one promoted from an embedded struct, if only one is at the
// shallowest depth) has a cbor tag with the option ",toarray" (ending the tag or followed by a
// comma). The plans, and through them every encoder, decoder and walk, follow this one decision.
func typedToArray(t reflect.Type) bool { return typedStructOption(t, ",toarray") }

// typedToIndefArray reports whether struct type t has fxamacker's toindefarray option, which
// writes it as an indefinite-length array: no form of DAG-CBOR, so every path refuses the type.
func typedToIndefArray(t reflect.Type) bool { return typedStructOption(t, ",toindefarray") }

// typedStructOption reports whether the tag of struct type t's "_" field has opt (",toarray"),
// as fxamacker decides it: opt followed by the end of the tag or a comma.
func typedStructOption(t reflect.Type, opt string) bool {
	f, ok := t.FieldByName("_")
	if !ok {
		return false
	}
	tag := f.Tag.Get("cbor")
	i := strings.Index(tag, opt)
	return i >= 0 && (len(tag) == i+len(opt) || tag[i+len(opt)] == ',')
}

// sortTypedFields sorts fields by key in DAG-CBOR order (insertion sort: structs are small, and
// the order among fields is total since keys are unique).
func sortTypedFields(fields []typedField) {
	for i := 1; i < len(fields); i++ {
		f := fields[i]
		j := i
		for ; j > 0 && cborKeyLess(f.name, fields[j-1].name); j-- {
			fields[j] = fields[j-1]
		}
		fields[j] = f
	}
}

// typedKindNames names each kind, for tests and debugging.
var typedKindNames = [...]string{"invalid", "any", "interface", "bool", "string", "int", "uint", "bytes",
	"byte array", "link", "blob", "tid", "text", "method", "slice", "array", "map", "struct", "pointer", "unknown", "union"}

func (k typedKind) String() string {
	if int(k) < len(typedKindNames) {
		return typedKindNames[k]
	}
	return "typedKind(" + strconv.Itoa(int(k)) + ")"
}
