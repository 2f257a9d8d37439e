package datamodel

// The typed CBOR decoder: DAG-CBOR into Go values, following the plans of typed_plan.go. It walks
// the bytes once with the wire helpers of cbor_wire.go and cbor_scan.go, checking everything
// UnmarshalCBOR checks (canonical form, limits, the data-model rules), and writes each value
// straight into its Go field. Values typed any go through the generic decoder itself, which
// shares this decoder's input, limits, value budget and string arena.
//
//	typedDecoder.decode   one item into one Go value, by kind
//	typedDecoder.integer  an integer into an int or uint kind, range-checked
//	typedDecoder.method   a type with its own fxamacker UnmarshalCBOR
//	typedDecoder.mismatch the error for a value its Go type cannot hold
//
// Maps and arrays (structs, Go maps, slices) are in typed_cbor_containers.go.

import (
	"encoding"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/fxamacker/cbor/v2"

	"github.com/atcore/atcore/tid"
)

// typedDecoder is the state of one UnmarshalCBORStruct: the generic decoder's (input, limits,
// value budget, arena, slabs), and the options of the typed path.
type typedDecoder struct {
	cborDecoder
	disallowUnknown bool
	registry        *Registry     // WithRegistry: the Go types of union members, or nil
	typeNotes       cborTypeNotes // where skipped maps' "$type" lie (see union)
}

// cborGenericErr returns UnmarshalCBOR's error for data under lim, or nil.
func cborGenericErr(data []byte, lim Limits) *Error {
	g := cborDecoder{data: data, lim: lim, left: lim.MaxValues - 1, chunk: len(data), slabs: cborSlabs{size: len(data)}}
	_, end, err := g.value(0, 1)
	if err == nil && end != len(data) {
		err = cborErr(ErrTrailingBytes, end, count(len(data)-end, "bytes"))
	}
	return err
}

// typedUnmarshal decodes data into the value ptr points to, of plan p, and returns the error
// UnmarshalCBORStruct returns.
func typedUnmarshal(data []byte, p *typedPlan, ptr unsafe.Pointer, opts []Option) error {
	return typedUnmarshalIn(nil, data, p, ptr, opts)
}

// typedUnmarshalIn is typedUnmarshal with the registry reg for union fields, unless opts give
// one (Registry.DecodeCBOR).
func typedUnmarshalIn(reg *Registry, data []byte, p *typedPlan, ptr unsafe.Pointer, opts []Option) error {
	d := typedDecoder{registry: reg}
	if len(opts) == 0 {
		d.lim = DefaultLimits()
	} else {
		c := newConfig(opts)
		d.lim, d.disallowUnknown = c.limits, c.disallowUnknown
		if c.registry != nil {
			d.registry = c.registry
		}
	}
	if len(data) > d.lim.MaxCBORSize {
		return cborErrTooLarge(len(data), d.lim)
	}
	d.data, d.chunk, d.slabs.size = data, len(data), len(data)
	d.left = d.lim.MaxValues - 1
	end, err := d.decode(p, nil, ptr, 0, 1)
	if err == nil && end != len(data) {
		err = cborErr(ErrTrailingBytes, end, count(len(data)-end, "bytes"))
	}
	if err != nil {
		// Errors are rare: only now is the whole input decoded as UnmarshalCBOR decodes it, so
		// that an input that is itself invalid gets UnmarshalCBOR's error for it, whatever the Go
		// type and whichever of its faults the typed walk met first. Otherwise the error is
		// about the Go side, and stands.
		if gerr := cborGenericErr(data, d.lim); gerr != nil {
			return finished(gerr)
		}
	}
	if err != nil {
		return finished(err)
	}
	return nil
}

// skip checks the item at off, at depth, as UnmarshalCBOR would (the scanner with the data-model
// rules, on this decode's value budget), without building anything, and returns its end.
func (d *typedDecoder) skip(off, depth int) (int, *Error) {
	s := cborScanner{data: d.data, lim: &d.lim, left: d.left, dataModel: true}
	end, err := s.value(off, depth)
	d.left = s.left
	return end, err
}

// mismatch is the error for the item at off, which the Go value of plan p (field f, if in a
// struct) cannot hold: ErrGoType, located, naming what was found, the Go field and its type.
func (d *typedDecoder) mismatch(p *typedPlan, f *typedField, off int, why string) *Error {
	found := "found nothing"
	if off < len(d.data) {
		found = describeHead(d.data[off])
	}
	detail := found + " for " + typedGoName(f, p)
	if why != "" {
		detail += " (" + why + ")"
	}
	return cborErr(ErrGoType, off, detail)
}

// decode decodes the item at off, at nesting depth depth, into the value ptr points to, of plan
// p (the value of field f when in a struct, for error details), and returns the offset after it.
func (d *typedDecoder) decode(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	data := d.data
	if off >= len(data) {
		return 0, cborErr(ErrTruncated, off, "")
	}
	ib := data[off]
	if ib == cborNull {
		// null sets what can be nil to nil, and leaves other values as they are (as fxamacker
		// does), except those whose type asks for a value (Link, Blob, tid.TID, methods).
		switch p.kind {
		case typedAny:
			*(*any)(ptr) = nil
		case typedPointer:
			*(*unsafe.Pointer)(ptr) = nil
		case typedBytes, typedSlice:
			*(*typedSliceHeader)(ptr) = typedSliceHeader{}
		case typedMap, typedUnknown:
			*(*unsafe.Pointer)(ptr) = nil
		case typedIface:
			reflect.NewAt(p.typ, ptr).Elem().SetZero()
		case typedLink, typedTID:
			return 0, d.mismatch(p, f, off, "")
		case typedBlob:
			return 0, cborErr(ErrBlob, off, "expected a blob, found null")
		case typedMethod:
			return d.method(p, f, ptr, off, depth)
		case typedUnion:
			*(*Union)(ptr) = Union{}
		}
		return off + 1, nil
	}
	switch p.kind {
	case typedAny:
		v, end, err := d.value(off, depth)
		if err != nil {
			return 0, err
		}
		*(*any)(ptr) = v
		return end, nil
	case typedString:
		if ib-0x60 < 0x18 { // a text string of up to 23 bytes: the usual record string
			start, end := off+1, off+1+int(ib-0x60)
			if end-start <= 16 && start+16 <= len(data) && cborASCII16(data, start, end-start) {
				*(*string)(ptr) = d.str(start, end)
				return end, nil
			}
		}
		major, n, q, err := cborHead(data, off)
		if err != nil {
			return 0, err
		}
		if major != 3 {
			return 0, d.mismatch(p, f, off, "")
		}
		end, err := cborText(data, off, q, n)
		if err != nil {
			return 0, err
		}
		*(*string)(ptr) = d.str(q, end)
		return end, nil
	case typedInt, typedUint:
		return d.integer(p, f, ptr, off)
	case typedBool:
		switch ib {
		case cborFalse:
			*(*bool)(ptr) = false
		case cborTrue:
			*(*bool)(ptr) = true
		default:
			return 0, d.mismatch(p, f, off, "")
		}
		return off + 1, nil
	case typedPointer:
		pp := (*unsafe.Pointer)(ptr)
		if *pp == nil {
			*pp = reflect.New(p.elem.typ).UnsafePointer()
		}
		return d.decode(p.elem, f, *pp, off, depth)
	case typedStruct:
		if p.toArray {
			return d.structArray(p, f, ptr, off, depth)
		}
		return d.fields(p, f, ptr, off, depth)
	case typedSlice, typedArray:
		return d.slice(p, f, ptr, off, depth)
	case typedMap, typedUnknown:
		return d.mapOf(p, f, ptr, off, depth)
	case typedLink:
		major, arg, q, err := cborHead(data, off)
		if err != nil {
			return 0, err
		}
		if major != 6 || arg != cborTagCID {
			if major == 6 {
				return 0, cborErr(ErrTag, off, "tag "+strconv.FormatUint(arg, 10))
			}
			return 0, d.mismatch(p, f, off, "want a link")
		}
		cs, ce, err := cborLink(data, &d.lim, off, q)
		if err != nil {
			return 0, err
		}
		c, err := d.link(cs, ce)
		if err != nil {
			return 0, err
		}
		*(*Link)(ptr) = c
		return ce, nil
	case typedBlob:
		return d.blobField(ptr, off, depth)
	case typedBytes, typedByteArray:
		major, n, q, err := cborHead(data, off)
		if err != nil {
			return 0, err
		}
		if major != 2 {
			return 0, d.mismatch(p, f, off, "")
		}
		if n > uint64(len(data)-q) {
			return 0, cborErr(ErrTruncated, off, "byte string of "+count(n, "bytes"))
		}
		end := q + int(n)
		if p.kind == typedByteArray {
			if int(n) != p.len { // exactly: a shorter one would come back longer, with another CID
				return 0, d.mismatch(p, f, off, count(n, "bytes"))
			}
			dst := unsafe.Slice((*byte)(ptr), p.len)
			clear(dst[copy(dst, data[q:end]):])
			return end, nil
		}
		b := make([]byte, n)
		copy(b, data[q:end])
		*(*[]byte)(ptr) = b
		return end, nil
	case typedTID:
		major, n, q, err := cborHead(data, off)
		if err != nil {
			return 0, err
		}
		if major != 3 {
			return 0, d.mismatch(p, f, off, "want a TID string")
		}
		end, err := cborText(data, off, q, n)
		if err != nil {
			return 0, err
		}
		t, perr := tid.Parse(d.str(q, end))
		if perr != nil {
			return 0, d.mismatch(p, f, off, perr.Error())
		}
		*(*tid.TID)(ptr) = t
		return end, nil
	case typedText:
		major, n, q, err := cborHead(data, off)
		if err != nil {
			return 0, err
		}
		if major != 3 || !p.textUnmarshal {
			return 0, d.mismatch(p, f, off, "")
		}
		end, err := cborText(data, off, q, n)
		if err != nil {
			return 0, err
		}
		u := reflect.NewAt(p.typ, ptr).Interface().(encoding.TextUnmarshaler)
		if uerr := u.UnmarshalText(data[q:end]); uerr != nil {
			return 0, d.mismatch(p, f, off, uerr.Error())
		}
		return end, nil
	case typedMethod:
		return d.method(p, f, ptr, off, depth)
	case typedUnion:
		return d.union(p, f, ptr, off, depth)
	case typedIface:
		// As fxamacker: into the value an interface holds, if that is a non-nil pointer.
		iv := reflect.NewAt(p.typ, ptr).Elem()
		if iv.IsNil() || iv.Elem().Kind() != reflect.Pointer || iv.Elem().IsNil() {
			return 0, d.mismatch(p, f, off, "an interface holding no pointer to decode into")
		}
		e := iv.Elem()
		return d.decode(typedPlanOf(e.Type().Elem()), f, e.UnsafePointer(), off, depth)
	}
	// typedInvalid: no data-model value fits.
	return 0, d.mismatch(p, f, off, p.err.Detail)
}

// integer decodes an integer into a Go integer of plan p, within the range of its type.
func (d *typedDecoder) integer(p *typedPlan, f *typedField, ptr unsafe.Pointer, off int) (int, *Error) {
	var n int64
	var end int
	if ib := d.data[off]; ib < 0x18 {
		n, end = int64(ib), off+1
	} else {
		major, arg, q, err := cborHead(d.data, off)
		if err != nil {
			return 0, err
		}
		if major > 1 {
			return 0, d.mismatch(p, f, off, "")
		}
		if err := cborIntRange(major, arg, off, d.lim.safeInts); err != nil {
			return 0, err
		}
		n, end = int64(arg), q
		if major == 1 {
			n = -1 - n
		}
	}
	if p.kind == typedUint {
		if n < 0 || p.bits < 64 && n >= 1<<p.bits {
			return 0, d.mismatch(p, f, off, strconv.FormatInt(n, 10)+" is out of its range")
		}
	} else if p.bits < 64 && (n < -1<<(p.bits-1) || n >= 1<<(p.bits-1)) {
		return 0, d.mismatch(p, f, off, strconv.FormatInt(n, 10)+" is out of its range")
	}
	switch p.size {
	case 1:
		*(*int8)(ptr) = int8(n)
	case 2:
		*(*int16)(ptr) = int16(n)
	case 4:
		*(*int32)(ptr) = int32(n)
	default:
		*(*int64)(ptr) = n
	}
	return end, nil
}

// blobField decodes a blob into a Blob field: the generic decoder's blob (new or legacy form,
// rule 13), or ErrBlob at the item for anything else.
func (d *typedDecoder) blobField(ptr unsafe.Pointer, off, depth int) (int, *Error) {
	// The usual blob, read in place as UnmarshalCBOR's fast path reads it (value, decodeMap).
	if d.data[off] == cborMajorMap|4 && depth <= d.lim.MaxDepth && d.lim.MaxElements >= 4 &&
		d.lim.MaxKeyLen >= len("mimeType") && d.left >= 4 {
		if b, end, ok := d.blob(off + 1); ok {
			d.left -= 4
			*(*Blob)(ptr) = b
			return end, nil
		}
	}
	v, end, err := d.value(off, depth)
	if err != nil {
		return 0, err
	}
	b, ok := v.(Blob)
	if !ok {
		return 0, cborErr(ErrBlob, off, "expected a blob, "+describe(v))
	}
	*(*Blob)(ptr) = b
	return end, nil
}

// method decodes the item at off through the fxamacker Unmarshaler of a type outside this
// package, once the item is checked as UnmarshalCBOR checks it; the method's own error is
// located at the item.
func (d *typedDecoder) method(p *typedPlan, f *typedField, ptr unsafe.Pointer, off, depth int) (int, *Error) {
	if !p.cborUnmarshal {
		return 0, d.mismatch(p, f, off, "it has MarshalCBOR but no UnmarshalCBOR")
	}
	end, err := d.skip(off, depth)
	if err != nil {
		return 0, err
	}
	u := reflect.NewAt(p.typ, ptr).Interface().(cbor.Unmarshaler)
	if uerr := u.UnmarshalCBOR(d.data[off:end]); uerr != nil {
		if e, ok := uerr.(*Error); ok {
			located := *e
			located.path = nil
			located.Offset = off + max(e.Offset, 0)
			return 0, &located
		}
		return 0, d.mismatch(p, f, off, uerr.Error())
	}
	return end, nil
}
