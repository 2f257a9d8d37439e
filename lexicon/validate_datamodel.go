package lexicon

// Values the validator does not take as they are, held to the data model's reading of them
// (datamodel.UnmarshalCBOR of datamodel.MarshalCBOR): Go values other than the generic types, a
// nil []any or map[string]any (null), a map typed "blob" (a blob); and settle, which makes a value
// the data model refuses that one error. The validator's hot path (validate.go) calls in here
// only where a value is not of the type it asks for, or an object holds members its schema does
// not name.

import (
	"errors"
	"strings"

	"github.com/atcore/atcore/datamodel"
)

// notRecordMap is record for a v that is no map[string]any, or a nil one.
func (c *Catalog) notRecordMap(st *state, v any, o *Options) {
	if !c.recordAsDataModel(st, v, false, o) {
		st.fail("type", "a record is an object, not %s", typeName(v))
	}
}

// noRecordType is record for a map m whose "$type" is not a string, or absent.
func (c *Catalog) noRecordType(st *state, m map[string]any, o *Options) {
	// A "$type" of a Go string type is a string in the data model; a map with none may be a
	// legacy blob ({cid, mimeType}).
	if _, has := m["$type"]; !c.recordAsDataModel(st, m, has, o) {
		st.failAt("$type", -1, "$type", "a record must have $type (https://atproto.com/specs/lexicon#when-to-use-type)")
	}
}

// recordAsDataModel checks as a record the value the data model reads v as, and reports
// whether it did: see dataModel.
func (c *Catalog) recordAsDataModel(st *state, v any, typed bool, o *Options) bool {
	g, conv := st.dataModel(v, typed)
	if conv {
		st.conv = true
		c.record(st, g, o)
		st.conv = false
	}
	return conv
}

// settle makes the verdict on v, the value given to an entry point, the verdict on the value
// the data model reads v as (datamodel.UnmarshalCBOR of datamodel.MarshalCBOR of v): a v that
// MarshalCBOR refuses has that one error, at the path datamodel gives, whatever else was found.
// The validator has seen all of a valid generic value but for the parts that set st.whole (see
// plain), so that only those values and the invalid ones are walked again.
func (st *state) settle(v any) {
	if len(st.errs) != 0 || st.whole || st.values >= datamodel.DefaultMaxValues {
		st.settleSlow(v)
	}
}

func (st *state) settleSlow(v any) {
	err := datamodel.Validate(v)
	if err == nil {
		return
	}
	if _, merr := datamodel.MarshalCBOR(v); merr != nil {
		err = merr // the reference; Validate agrees with it
	}
	var de *datamodel.Error
	if !errors.As(err, &de) {
		return
	}
	e := &Error{Err: ErrValue, Rule: "data-model", Detail: de.Err.Error()}
	if de.Detail != "" {
		e.Detail += " (" + de.Detail + ")"
	}
	if de.Path != "" {
		segs := strings.Split(de.Path[1:], "/")
		for i := len(segs) - 1; i >= 0; i-- {
			e.rev = append(e.rev, pointerUnescaper.Replace(segs[i]))
		}
	}
	st.errs, st.warns = Errors{e}, nil
}

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// dataModel returns the generic value that the data model reads v as, when the validator does
// not take v as it is: a Go value other than the generic types (a struct, a []string, an
// int32, a map[string]string, a pointer, …), a nil []any or map[string]any (null), and a
// map[string]any that may read back as a blob (four or two entries, or any when typed is set: a
// map whose "$type" is "blob" or not a string). ok is false for other values, for a value the
// data model refuses (its error is settle's to report) and while checking a converted value.
func (st *state) dataModel(v any, typed bool) (g any, ok bool) {
	if st.conv {
		return nil, false
	}
	switch x := v.(type) {
	case nil, bool, int64, int, string, datamodel.Bytes, datamodel.Link, datamodel.Blob:
		return nil, false
	case []any:
		return nil, x == nil
	case map[string]any:
		if x == nil {
			return nil, true
		}
		if !typed && len(x) != 4 && len(x) != 2 {
			return nil, false
		}
	}
	st.whole = true // settle checks the whole value, where this one is, against the limits
	b, err := datamodel.MarshalCBOR(v)
	if err != nil {
		return nil, false
	}
	if g, err = datamodel.UnmarshalCBOR(b); err != nil {
		return nil, false
	}
	return g, true
}

// recheck checks g, a value dataModel returned, against n.
func (st *state) recheck(n *node, g any) bool {
	st.conv = true
	ok := st.check(n, g)
	st.conv = false
	return ok
}

// typedMap is dataModel for a map m whose "$type" is not the string expected: when it has one,
// of a Go string type or "blob", it may be another value in the data model; when it has none,
// a legacy blob ({cid, mimeType}).
func (st *state) typedMap(m map[string]any) (any, bool) {
	_, has := m["$type"]
	return st.dataModel(m, has)
}

// mismatch is the end of check for a value v that is not of the Go type n asks for (want, as
// "a string"): v is checked as the data model reads it if that is another value, else refused.
func (st *state) mismatch(n *node, v any, want string) bool {
	if g, conv := st.dataModel(v, false); conv {
		return st.recheck(n, g)
	}
	return st.fail("type", "expected %s, found %s", want, typeName(v))
}

// unnamed is called when m, checked as an object of schema n, has members the schema does not
// name (or may have a "$type" that the schema names): the data model checks them (settle) unless
// they are plain, and a map typed "blob" is a blob, no object. It returns whether m is one, in a
// check that stops at the first error (a full check has called blobObject already).
func (st *state) unnamed(n *node, m map[string]any) bool {
	if !st.whole {
		for k, v := range m {
			if _, named := n.index[k]; !named && !st.plainMember(k, v, min(plainDepth, datamodel.DefaultMaxDepth-1-st.depth)) {
				st.whole = true
				break
			}
		}
	}
	return !st.all && st.blobObject(m)
}

// plainDepth is how many levels of nesting plain looks into.
const plainDepth = 4

// deep is check for a value v below datamodel.DefaultMaxDepth containers, as deep as the data
// model nests: an array, a map or a Blob there is beyond its limit (settle reports it, and a
// cycle of maps or arrays ends here); a scalar, or a Go value (settle checks those), is checked.
func (st *state) deep(n *node, v any) bool {
	switch x := v.(type) {
	case []any:
		if x == nil {
			break
		}
		st.whole = true
		return st.fail("data-model", "nested deeper than the data model allows")
	case map[string]any:
		if x == nil {
			break
		}
		st.whole = true
		return st.fail("data-model", "nested deeper than the data model allows")
	case datamodel.Blob:
		st.whole = true
		return st.fail("data-model", "nested deeper than the data model allows")
	}
	return st.check(n, v)
}

// plain reports whether v, a value the validator does not look into (a member the schema does not
// name, the content of an unknown), is one that the data model has nothing to say about, taking
// for granted what the decoders guarantee of strings (valid UTF-8): nil, a boolean, an integer, a
// string, Bytes, a defined Link, a Blob a decoder returns, or an array or a map of them, at most
// depth levels deep, within the data model's limits on elements and key length, with no "$link"
// or "$bytes" key and a "$type" that is a string other than "" and "blob". Anything else (a Go
// value, such a key, deeper nesting) is the data model's to check on the whole value (settle),
// where the depth counts from the top. It counts the values it sees in st.values.
func (st *state) plain(v any, depth int) bool {
	switch x := v.(type) {
	case nil, bool, int64, int, string, datamodel.Bytes:
		return true
	case datamodel.Link:
		return x.Defined()
	case datamodel.Blob:
		st.values += 4
		return depth > 0 && decodedBlob(&x) // a Blob is a level of nesting
	case []any:
		if depth <= 0 || len(x) > datamodel.DefaultMaxElements {
			return false
		}
		st.values += len(x)
		for _, e := range x {
			if !st.plain(e, depth-1) {
				return false
			}
		}
		return true
	case map[string]any:
		if depth <= 0 || len(x) > datamodel.DefaultMaxElements {
			return false
		}
		st.values += len(x)
		for k, e := range x {
			if !st.plainMember(k, e, depth-1) {
				return false
			}
		}
		return true
	}
	return false
}

// plainMember is plain for the member k: v of a map; a key longer than the data model allows is
// not.
func (st *state) plainMember(k string, v any, depth int) bool {
	if len(k) > datamodel.DefaultMaxKeyLen {
		return false
	}
	if k != "" && k[0] == '$' {
		s, ok := v.(string)
		return k == "$type" && ok && s != "" && s != "blob"
	}
	return st.plain(v, depth)
}

// nullMember is called when property i of n was refused in m. When its value is null in the
// data model but not nil (a nil slice, map or pointer), check refused it with one error, which
// nullMember takes back: null is the object's to allow, and nullMember returns whether the
// property allows it. It returns false otherwise. (Taking n, i and m, which object keeps anyway,
// keeps the property and its value out of object's stack frame.)
func (st *state) nullMember(n *node, i int, m map[string]any) bool {
	p := &n.props[i]
	if !st.null(m[p.name]) {
		return false
	}
	st.errs = st.errs[:len(st.errs)-1]
	return p.nullable || st.failAt(p.name, -1, "nullable", "null is not allowed here")
}

// null reports whether v, which check refused, is null in the data model: a nil []any or
// map[string]any, or a Go value written as null (a nil pointer, slice or map).
func (st *state) null(v any) bool {
	if v == nil || st.conv {
		return false
	}
	switch x := v.(type) {
	case []any:
		return x == nil
	case map[string]any:
		return x == nil
	}
	g, ok := st.dataModel(v, false)
	return ok && g == nil
}

// blobObject reports whether m, checked as an object, is a blob in the data model (a map typed
// "blob"; the "$type" of a record or a union variant names its type, never "blob"): it then records
// the error check reports for a blob where an object is expected, in place of any other, found in
// m. A full check calls it before it checks m, a check that stops at the first error once it has
// that error or once it has found a member the schema does not name: there is no error before m's
// then.
func (st *state) blobObject(m map[string]any) bool {
	if st.conv {
		return false
	}
	t, has := m["$type"]
	if !has {
		return false
	}
	if s, _ := t.(string); s != "" && s != "blob" {
		return false
	}
	g, conv := st.dataModel(m, true)
	if _, blob := g.(datamodel.Blob); !conv || !blob {
		return false
	}
	if !st.all {
		st.errs = st.errs[:0]
	}
	st.fail("type", "expected an object, found a blob")
	return true
}
