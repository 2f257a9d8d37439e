package datamodel

// A struct's fields at run time, as the typed codecs read and write them through a plan
// (typed_plan.go builds the plans):
//
//	typedFieldPtr    the address of a field, through embedded pointers
//	typedOmitted     omitempty and omitzero, as encoding/json decides them
//	typedInteger     a Go integer of any size as the data model's integer
//	typedGoName      the Go side of a mismatch, for error details

import (
	"reflect"
	"strconv"
	"unsafe"
)

// typedFieldPtr returns the address of field f in the struct at base. Through an embedded nil
// pointer it allocates the struct when alloc is set (decoding) and returns nil otherwise
// (encoding: the promoted fields of a nil embedded pointer are not written).
func typedFieldPtr(base unsafe.Pointer, f *typedField, alloc bool) unsafe.Pointer {
	if f.direct {
		return unsafe.Add(base, f.offset)
	}
	p := base
	for _, s := range f.steps {
		p = unsafe.Add(p, s.offset)
		if s.ptrTo != nil {
			pp := (*unsafe.Pointer)(p)
			if *pp == nil {
				if !alloc {
					return nil
				}
				*pp = reflect.New(s.ptrTo).UnsafePointer()
			}
			p = *pp
		}
	}
	return p
}

// typedOmitted reports whether field f, whose value is at fp, is left out of its struct's map:
// omitempty and empty, or omitzero and zero. Callers test f.omit first: most fields have neither.
func typedOmitted(f *typedField, fp unsafe.Pointer) bool {
	return f.omitEmpty && typedEmpty(f.plan, fp) || f.omitZero && typedZero(f, fp)
}

// typedEmpty reports whether the value of plan p at ptr is empty in the sense of omitempty, as
// encoding/json decides it from the Go kind alone: false, 0, a nil pointer or interface, an
// array, slice, map or string of length 0. A struct is never empty (Link and Blob included:
// omitzero, or a pointer field, leaves out an unset one).
func typedEmpty(p *typedPlan, ptr unsafe.Pointer) bool {
	switch p.kind {
	case typedString:
		return len(*(*string)(ptr)) == 0
	case typedBool:
		return !*(*bool)(ptr)
	case typedInt, typedUint:
		return typedIntZero(p, ptr)
	case typedBytes, typedSlice:
		return (*typedSliceHeader)(ptr).len == 0
	case typedPointer:
		return *(*unsafe.Pointer)(ptr) == nil
	case typedMap, typedUnknown:
		return reflect.NewAt(p.typ, ptr).Elem().Len() == 0
	case typedAny:
		return *(*any)(ptr) == nil
	case typedArray, typedByteArray:
		return p.len == 0
	case typedStruct, typedLink, typedBlob, typedUnion:
		return false
	}
	// Types with methods, interfaces with methods, types outside the data model: by their kind.
	v := reflect.NewAt(p.typ, ptr).Elem()
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// typedIntZero reports whether the integer of plan p (typedInt, typedUint) at ptr is 0.
func typedIntZero(p *typedPlan, ptr unsafe.Pointer) bool {
	switch p.size {
	case 1:
		return *(*uint8)(ptr) == 0
	case 2:
		return *(*uint16)(ptr) == 0
	case 4:
		return *(*uint32)(ptr) == 0
	}
	return *(*uint64)(ptr) == 0
}

// typedZeroer is how omitzero tells that a field's value is zero, as encoding/json (Go 1.24) and
// fxamacker decide it: through the IsZero method of the field's type when it has one, else by
// comparing with the zero value of the type.
type typedZeroer uint8

const (
	zeroValue   typedZeroer = iota // no IsZero method: the zero value of the type
	zeroMethod                     // IsZero in the method set of the type
	zeroAddr                       // IsZero on the pointer only: called through the field's address
	zeroPointer                    // a pointer type with IsZero: nil, or IsZero of what it points to
	zeroIface                      // an interface type with IsZero: nil, a nil pointer, or IsZero
)

// typedIsZeroer is the method omitzero looks for.
type typedIsZeroer interface{ IsZero() bool }

var isZeroerT = reflect.TypeFor[typedIsZeroer]()

// typedZeroerOf returns how omitzero tells that a value of type t is zero (encoding/json's
// typeFields, in the same order).
func typedZeroerOf(t reflect.Type) typedZeroer {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerT):
		return zeroIface
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerT):
		return zeroPointer
	case t.Implements(isZeroerT):
		return zeroMethod
	case reflect.PointerTo(t).Implements(isZeroerT):
		return zeroAddr
	}
	return zeroValue
}

// typedZero reports whether the value of field f at ptr is zero in the sense of omitzero.
func typedZero(f *typedField, ptr unsafe.Pointer) bool {
	p := f.plan
	switch f.zeroer {
	case zeroMethod:
		return reflect.NewAt(p.typ, ptr).Elem().Interface().(typedIsZeroer).IsZero()
	case zeroAddr:
		return reflect.NewAt(p.typ, ptr).Interface().(typedIsZeroer).IsZero()
	case zeroPointer:
		v := reflect.NewAt(p.typ, ptr).Elem()
		return v.IsNil() || v.Interface().(typedIsZeroer).IsZero()
	case zeroIface:
		v := reflect.NewAt(p.typ, ptr).Elem()
		return v.IsNil() || v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() ||
			v.Interface().(typedIsZeroer).IsZero()
	}
	switch p.kind {
	case typedString, typedBool, typedInt, typedUint:
		return typedEmpty(p, ptr) // for these kinds, empty is zero
	case typedBytes, typedSlice:
		return (*typedSliceHeader)(ptr).data == nil // an empty slice is not nil
	case typedPointer, typedMap, typedUnknown:
		return *(*unsafe.Pointer)(ptr) == nil
	case typedAny:
		return *(*any)(ptr) == nil
	}
	return reflect.NewAt(p.typ, ptr).Elem().IsZero()
}

// typedSliceHeader is the memory layout of a slice.
type typedSliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// typedGoName names the Go side of a mismatch for error details: "Go field pkg.Post.Text of type
// int64"; "a Go string in field pkg.Post.Langs of type []string" for an element or a pointer's
// target; "a Go value of type int64" outside a struct.
func typedGoName(f *typedField, p *typedPlan) string {
	switch {
	case f == nil:
		return "a Go value of type " + p.typ.String()
	case f.plan != p:
		return "a Go " + p.typ.String() + " in field " + f.goName + " of type " + f.plan.typ.String()
	}
	return "Go field " + f.goName + " of type " + p.typ.String()
}

// typedInteger reads the Go integer at ptr, of plan p (typedInt or typedUint), as the data
// model's integer, for both typed encoders: an unsigned
// value beyond int64 is ErrIntegerRange (DECISIONS rule 9), as goInt reports it.
func typedInteger(p *typedPlan, ptr unsafe.Pointer) (int64, *Error) {
	if p.kind == typedInt {
		switch p.size {
		case 1:
			return int64(*(*int8)(ptr)), nil
		case 2:
			return int64(*(*int16)(ptr)), nil
		case 4:
			return int64(*(*int32)(ptr)), nil
		}
		return *(*int64)(ptr), nil
	}
	var u uint64
	switch p.size {
	case 1:
		u = uint64(*(*uint8)(ptr))
	case 2:
		u = uint64(*(*uint16)(ptr))
	case 4:
		u = uint64(*(*uint32)(ptr))
	default:
		u = *(*uint64)(ptr)
	}
	if u > 1<<63-1 {
		return 0, valueError(ErrIntegerRange, strconv.FormatUint(u, 10))
	}
	return int64(u), nil
}
