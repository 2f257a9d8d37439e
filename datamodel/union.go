package datamodel

// Union fields: a member of a Lexicon union, chosen by its "$type" (issue 15). The decoder reads
// one with the Go types of a Registry (registry.go; typedDecoder.union below), and the encoders
// write whatever it holds.

import (
	"reflect"
	"unsafe"

	"github.com/atcore/atcore/internal/echo"
)

// Union is the value of a Lexicon union field (https://atproto.com/specs/lexicon, "union"): an
// object whose "$type" says which of several types it is, such as the embed of a post (images,
// an external link, a quoted record...). It holds one of:
//
//   - a pointer to a Go struct registered for the member's "$type" (see Registry), when decoded
//     with WithRegistry and that type is registered;
//   - a map[string]any, the generic form UnmarshalCBOR returns, when the type is not registered
//     or no registry is given: an open union takes types its reader does not know, and keeps
//     them whole, so that a record re-encoded from its struct keeps its bytes and CID;
//   - a Blob, for a member whose "$type" is "blob": the data model reads that object as a blob
//     (DECISIONS rule 13), in a union as anywhere, and it is written back as one;
//   - nothing (the zero Union): the field was absent, or null.
//
// A Union field follows the Lexicon's open union (the default, "closed": false); a ClosedUnion
// field is a closed one. Decoding a member whose "$type" names a registered type but whose body
// does not fit that type is an error at the member's path, never a silent fallback to the
// generic form; a member without "$type" is an error too (ErrType: the Lexicon requires it of
// union members).
//
// Encoding writes what the Union holds: null for the zero Union, the map as MarshalCBOR writes it,
// the struct as MarshalCBORStruct does. Tag an optional union field `cbor:"name,omitzero"`, so that
// a zero Union leaves the field out (omitzero uses IsZero, with every encoder; omitempty never
// leaves out a struct, as with encoding/json, nor fxamacker's a type with a MarshalCBOR method).
// The struct must carry its own "$type" in a field with that key (Register requires one),
// non-empty, and, for a Union that a Registry made (decoded or Registry.Union), equal to the NSID
// the registry has for its Go type; a map must have a non-empty "$type" string. Anything else is
// refused (ErrType). A struct with fxamacker's toarray option, written as an array, is never a
// member (ErrUnsupported).
//
// A Union is a small value (an interface and a string), meant to be copied; the value it holds is
// shared by the copies.
type Union struct {
	v    any
	nsid string // the NSID a registry holds v's Go type under; "" when no registry made it
}

// ClosedUnion is a Union for a Lexicon union marked "closed": true: decoding refuses a member
// whose "$type" is not registered in the registry given (ErrGoType, at the member), and, without
// a registry, every member. The registry stands for the union's refs: register the types the
// Lexicon lists (a registered type that the union does not list is not refused, since the
// registry does not know which union a field is).
type ClosedUnion struct {
	Union
}

var (
	unionType       = reflect.TypeFor[Union]()
	closedUnionType = reflect.TypeFor[ClosedUnion]()
)

// UnionOf returns a Union that holds v: a pointer to a struct with a "$type" field, or a
// map[string]any with a "$type" key. Nothing is checked until it is encoded; Registry.Union also
// checks that v's Go type is registered and remembers its NSID.
func UnionOf(v any) Union { return Union{v: v} }

// Value returns what u holds: a pointer to a registered struct, a map[string]any, a Blob (for a
// member typed "blob", which the data model reads as a blob), or nil.
func (u Union) Value() any { return u.v }

// IsZero reports whether u holds nothing.
func (u Union) IsZero() bool { return u.v == nil }

// Type returns the "$type" of what u holds: the value of the struct's "$type" field or of the
// map's "$type" key ("" when u is zero or it has none).
func (u Union) Type() string {
	t, _ := unionMemberType(u.v)
	return t
}

// unionMemberType returns the "$type" of a union member v and whether v has a place for one (a
// struct with a "$type" field of a string kind, a map with a "$type" key holding a string).
func unionMemberType(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case map[string]any:
		return typeString(x["$type"]) // a named string type, or a pointer to one, is a string
	case Blob:
		// The data model reads a member typed "blob" as a Blob; only the legacy form has no
		// "$type".
		return "blob", !x.Legacy
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return "", false
	}
	p := typedPlanOf(rv.Type().Elem())
	f := typeFieldOf(p)
	if f == nil {
		return "", false
	}
	ptr := typedFieldPtr(rv.UnsafePointer(), f, false)
	if ptr == nil {
		return "", false
	}
	return reflect.NewAt(f.plan.typ, ptr).Elem().String(), true
}

// typeFieldOf returns the field of the struct plan p whose key is "$type", if it is of a string
// kind, else nil.
func typeFieldOf(p *typedPlan) *typedField {
	if p.kind != typedStruct {
		return nil
	}
	for i := range p.fields {
		if f := &p.fields[i]; f.name == "$type" {
			if f.plan.kind != typedString {
				return nil
			}
			return f
		}
	}
	return nil
}

// member returns what u holds, checked for encoding: nil for the zero Union, else a value
// with a non-empty "$type", that of u's registered type if a registry made u.
func (u Union) member() (any, *Error) {
	if u.v == nil {
		return nil, nil
	}
	t, ok := unionMemberType(u.v)
	switch {
	case !ok:
		return nil, valueError(ErrType, "a union member, "+describeGoType(u.v)+", has no $type")
	case t == "":
		return nil, valueError(ErrType, "a union member has an empty $type")
	case u.nsid != "" && t != u.nsid:
		return nil, valueError(ErrType, "a union member of Go type "+reflect.TypeOf(u.v).String()+
			" has $type "+echo.Quote(t)+", but its type is registered as "+echo.Quote(u.nsid))
	}
	if typ := reflect.TypeOf(u.v); typ.Kind() == reflect.Pointer && typedPlanOf(typ.Elem()).toArray {
		// A member is a map (its "$type" is a key): refused by every encoder as the generic
		// ones refuse such a struct, not written as an array that no decoder reads as a member.
		return nil, errToArray(typ.Elem())
	}
	return u.v, nil
}

// MarshalCBOR encodes what u holds (see Union). It implements fxamacker's cbor.Marshaler, so
// that a Union field encodes through fxamacker and MarshalCBORStruct alike.
func (u Union) MarshalCBOR() ([]byte, error) {
	v, err := u.member()
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case nil:
		return []byte{cborNull}, nil
	case map[string]any, Blob:
		return MarshalCBOR(x)
	}
	return MarshalCBORStruct(v)
}

// UnmarshalCBOR decodes a union member into u in the generic form (a map[string]any), as a
// Union field without a registry is decoded, for fxamacker's decoder, which knows no registry.
// It implements fxamacker's cbor.Unmarshaler.
func (u *Union) UnmarshalCBOR(data []byte) error {
	v, err := UnmarshalCBOR(data)
	if err != nil {
		return err
	}
	return u.setGeneric(v)
}

// setGeneric sets u to the generic value v, decoded from a union member (offset 0).
func (u *Union) setGeneric(v any) error {
	switch x := v.(type) {
	case nil:
		*u = Union{}
		return nil
	case map[string]any:
		if _, ok := x["$type"]; !ok {
			return errNoRecordType(0)
		}
		*u = Union{v: x}
		return nil
	case Blob:
		if x.Legacy {
			return errNoRecordType(0) // {cid, mimeType}: no "$type"
		}
		*u = Union{v: x} // "$type": "blob", as the struct path decodes it
		return nil
	}
	return cborErr(ErrGoType, 0, describe(v)+" for a Go datamodel.Union (a union member is a map)")
}

// union decodes the map at off, a union member, into the Union or ClosedUnion of plan p at ptr:
// its "$type" read first (the record peek, at off), then the map decoded once, into a new value
// of the registered Go type of that NSID, or into the generic form if there is none.
func (d *typedDecoder) union(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	if d.data[off]>>5 != 5 {
		return 0, d.mismatch(p, f, off, "a union member is a map")
	}
	// The "$type" is looked for first, skipping the entries whose keys sort before it, and with
	// them any union members nested in them: the looks note where each skipped map's "$type"
	// lies, so that no look skips the same bytes again (see typedJSONDecoder.union).
	var t []byte
	var err *Error
	if at, ok := d.typeNotes.at[off]; ok {
		if t, err = peekTypeCBOR(d.data, at); err != nil {
			return 0, err.atKey("$type")
		}
	} else {
		d.typeNotes.base, d.typeNotes.maxDepth = off, d.lim.MaxDepth
		if t, err = recordTypeNoting(d.data[off:], &d.typeNotes); err != nil {
			// A map the generic decoder would refuse gets its error from typedUnmarshal, which
			// looks again at any input that fails; for a valid one this is "no $type key".
			err.Offset += off
			return 0, err
		}
	}
	e := d.registry.lookup(t)
	if e == nil {
		if p.typ == closedUnionType {
			return 0, cborErr(ErrGoType, off, "$type "+echo.Quote(string(t))+" is not registered, and "+typedGoName(f, p)+" is a closed union")
		}
		v, end, err := d.value(off, depth)
		if err != nil {
			return 0, err
		}
		*(*Union)(ptr) = Union{v: v}
		return end, nil
	}
	nv := reflect.New(e.typ)
	end, err := d.decode(e.plan, nil, nv.UnsafePointer(), off, depth)
	if err != nil {
		return 0, err
	}
	*(*Union)(ptr) = Union{v: nv.Interface(), nsid: e.nsid}
	return end, nil
}

// union decodes the object at d.pos, a union member, into the Union or ClosedUnion of plan p at
// ptr, as typedDecoder.union does for CBOR: its "$type" found first (the record peek, which
// skips the members before it without building them), then the object read once.
func (t *typedJSONDecoder) union(p *typedPlan, f *typedField, ptr unsafe.Pointer) error {
	d := t.jsonDecoder
	start := d.pos
	if d.data[start] != '{' {
		return t.mismatch(p, f, start, "a union member is an object")
	}
	// The "$type" is looked for first; when it comes after other members, the look skips them,
	// and with them any union members nested in them, whose own looks would skip their members
	// again: on members that put "$type" last, each level would skip every level below it, work
	// in proportion to the input times its depth. So the skips note where the "$type" of each
	// object they pass lies (d.typeAt), and a member found there is not looked through again.
	var typ []byte
	var perr *Error
	if at, ok := d.typeAt[start]; ok {
		d.pos = at
		typ, perr = d.peekTypeValue()
	} else {
		d.noteTypes = true
		typ, perr = d.peekRecordType()
		d.noteTypes = false
	}
	d.pos = start
	if perr != nil {
		return perr
	}
	e := t.registry.lookup(typ)
	if e == nil {
		if p.typ == closedUnionType {
			return d.fail(ErrGoType, start, "$type "+echo.Quote(string(typ))+" is not registered, and "+typedGoName(f, p)+" is a closed union")
		}
		v, err := d.value()
		if err != nil {
			return err
		}
		*(*Union)(ptr) = Union{v: v}
		return nil
	}
	nv := reflect.New(e.typ)
	if err := t.decode(e.plan, nil, nv.UnsafePointer()); err != nil {
		return err
	}
	*(*Union)(ptr) = Union{v: nv.Interface(), nsid: e.nsid}
	return nil
}

// MarshalJSON encodes what u holds as atproto JSON, as MarshalJSONStruct writes a Union field,
// for encoding/json. It implements json.Marshaler.
func (u Union) MarshalJSON() ([]byte, error) {
	v, err := u.member()
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case nil:
		return []byte("null"), nil
	case map[string]any, Blob:
		return MarshalJSON(x)
	}
	return MarshalJSONStruct(v)
}

// UnmarshalJSON decodes a union member into u in the generic form, as UnmarshalCBOR does, for
// encoding/json, which knows no registry. It implements json.Unmarshaler.
func (u *Union) UnmarshalJSON(data []byte) error {
	v, err := UnmarshalJSON(data)
	if err != nil {
		return err
	}
	return u.setGeneric(v)
}
