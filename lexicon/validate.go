// Validation of values against compiled definitions. In this file: Mode and Options; the
// entry points (ValidateRecord, CheckRecord, ValidateValue, CheckValue) and the record's
// $type, collection and key; state, which gathers errors and builds their JSON Pointers on the
// way out (child); check, the switch over a definition's type; object; union and variant;
// typeName; settle, dataModel and mismatch, which hold Go values and the blob's shape to the
// data model's reading of them. The scalar rules (integer, length, string, graphemes, blob) are
// in validate_types.go, the endpoints in endpoint.go.

package lexicon

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/nsid"
)

// Mode is a set of tolerances for reading old records; the zero Mode is strict, which is what
// new records must pass.
type Mode uint32

const (
	// AllowLegacyBlob accepts a blob in the deprecated {"cid", "mimeType"} form (read by
	// datamodel as a Blob with Legacy set, DECISIONS rule 13). Its size is unknown, so a
	// schema's maxSize is not checked against it; accept still is.
	AllowLegacyBlob Mode = 1 << iota
	// AllowLenientDatetime accepts, in datetime-format strings, the looser forms that
	// datetime.ParseLenient reads and documents one by one (lower-case 't'/'z', a space for
	// 'T', a decimal comma, over 20 fraction digits, no time zone, offsets without colon or
	// minutes, "-00:00"). Calendar values must still be real.
	AllowLenientDatetime
	// AllowLooseURI accepts, in uri-format strings, any printable ASCII but space after the
	// scheme: characters RFC 3986 leaves out ('<', '>', '"', '{', '}', '|', '\\', '^', '`'), a
	// '%' not followed by two hex digits, a second '#'. It is for records that a looser checker
	// let through.
	AllowLooseURI
)

// Lenient is every tolerance: for reading records written before the rules were tightened.
const Lenient = AllowLegacyBlob | AllowLenientDatetime | AllowLooseURI

// Options say how to validate a record or value. The zero Options validate strictly.
type Options struct {
	// Mode is the set of tolerances for old records; the zero Mode is strict.
	Mode Mode
	// Collection, when set, is the collection the record is stored under: the record's $type
	// must be that NSID.
	Collection string
	// RKey, when set, is the record's key: it is checked against the record schema's key type
	// (tid, nsid, literal:…, any).
	RKey string
}

// ValidateRecord checks a record against the record schema its "$type" names, and returns the
// first problem as an *Error: ErrValue with the JSON Pointer of the bad value and the rule, or
// ErrNotFound when the catalog has no such record type. A "$type" that no record type can have,
// one with a "#fragment" or one that names a definition of another type, is ErrValue at
// "/$type", not ErrNotFound. Fields the schema does not name are allowed
// (https://atproto.com/specs/lexicon#authority-and-control). It does not allocate when the record
// is a valid decoded one.
//
// v is a decoded record (datamodel.UnmarshalJSON or UnmarshalCBOR), or any Go value the
// datamodel encoders take, such as a record struct: v is checked as the value
// datamodel.UnmarshalCBOR(datamodel.MarshalCBOR(v)), with the same verdict and paths, and a v
// that MarshalCBOR refuses is ErrValue with rule "data-model" at datamodel's path. So a map
// typed "blob" is a blob.
//
// The spec's "optimistic" validation (https://atproto.com/specs/lexicon#validation-options)
// is errors.Is(err, ErrNotFound) taken as a pass; "explicit" validation takes it as a
// failure.
func (c *Catalog) ValidateRecord(v any, o Options) error {
	st := state{cat: c, mode: o.Mode}
	c.record(&st, v, &o)
	st.settle(v)
	return st.first()
}

// CheckRecord is ValidateRecord that goes on after the first problem: the Report lists every
// error, and as warnings the fields the schema does not name and the union variants an open
// union does not list.
func (c *Catalog) CheckRecord(v any, o Options) Report {
	st := state{cat: c, mode: o.Mode, all: true}
	c.record(&st, v, &o)
	st.settle(v)
	return st.report()
}

// ValidateValue checks v against the definition ref ("nsid" for main, "nsid#name"), of any
// type that describes data: an object, a record, a string, an array, … As ValidateRecord,
// it stops at the first problem, and takes any Go value v as the value the data model reads
// it as (datamodel.UnmarshalCBOR(datamodel.MarshalCBOR(v))). o.Collection and o.RKey are not
// used.
func (c *Catalog) ValidateValue(ref string, v any, o Options) error {
	st := state{cat: c, mode: o.Mode}
	c.value(&st, ref, v)
	st.settle(v)
	return st.first()
}

// CheckValue is ValidateValue that lists every problem and the warnings.
func (c *Catalog) CheckValue(ref string, v any, o Options) Report {
	st := state{cat: c, mode: o.Mode, all: true}
	c.value(&st, ref, v)
	st.settle(v)
	return st.report()
}

func (c *Catalog) value(st *state, ref string, v any) {
	n := c.lookup(ref)
	if n == nil || n.kind == kToken || n.kind.primary() && n.kind != kRecord || n.kind == kPermission {
		st.notFound(ref, "a definition of data", "")
		return
	}
	st.check(n, v)
}

func (c *Catalog) record(st *state, v any, o *Options) {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		c.notRecordMap(st, v, o)
		return
	}
	t, ok := m["$type"].(string)
	if !ok {
		c.noRecordType(st, m, o)
		return
	}
	if o.Collection != "" && t != o.Collection {
		st.failAt("$type", -1, "$type", "%q is not the collection %q", clip(t), o.Collection)
		return
	}
	n := c.defs[t]
	switch {
	case n != nil && n.kind == kRecord: // the usual case, first: no more work on the $type
	case strings.Contains(t, "#"):
		// No record type is spelled so: a record is a main definition, named by its NSID alone
		// ("use of a #main suffix is invalid", https://atproto.com/specs/lexicon#lexicon-files).
		// Not ErrNotFound, which optimistic validation would let pass.
		st.failAt("$type", -1, "$type", "%q: a record's $type is the NSID of its record type, with no #fragment", clip(t))
		return
	case n != nil && n.kind != kRecord:
		st.failAt("$type", -1, "$type", "%q is a %s, not a record type", clip(t), n.kind)
		return
	case t == "blob" && c.recordAsDataModel(st, m, true, o):
		// The data model reads such a map as a blob, or refuses it, and a blob is no record.
		return
	case n == nil && nsidFormat.check(t) != nil:
		st.failAt("$type", -1, "$type", "%q is not an NSID, so names no record type", clip(t))
		return
	case n == nil && c.defs[normalizedNSID(t)] != nil:
		// The NSID of a type the catalog holds, its authority in other letter case: not the
		// same $type, and not an unknown one either, which optimistic validation would let pass.
		st.failAt("$type", -1, "$type", "%q is not %q: a $type is matched exactly", clip(t), normalizedNSID(t))
		return
	case n == nil:
		st.notFound(t, "a record type", "$type")
		return
	}
	if o.RKey != "" {
		if err := n.key.Check(o.RKey); err != nil {
			st.fail("key", "%v", err)
			if !st.all {
				return
			}
		}
	}
	st.object(n.record, m, true)
}

// notRecordMap is record for a v that is no map[string]any, or a nil one.
func (c *Catalog) notRecordMap(st *state, v any, o *Options) {
	if !c.recordAsDataModel(st, v, false, o) {
		st.fail("type", "a record is an object, not %s", typeName(v))
	}
}

// noRecordType is record for a map m whose "$type" is not a string, or absent.
func (c *Catalog) noRecordType(st *state, m map[string]any, o *Options) {
	// A "$type" of a Go string type is a string in the data model.
	if _, has := m["$type"]; !has || !c.recordAsDataModel(st, m, true, o) {
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

// state is one validation: the mode and what was found. It lives on the caller's stack; the
// error slices are only allocated when there is a problem.
type state struct {
	cat  *Catalog
	mode Mode
	all  bool // go on after the first error, and gather warnings
	// conv is set while the value checked is one the data model converted (dataModel): a
	// generic value all through, never converted again.
	conv bool
	// whole is set when the validator left part of the value to the data model (members the
	// schema does not name, the content of an unknown, a Go value, a Blob no decoder returns):
	// settle checks it all.
	whole bool
	errs  Errors
	warns Errors
}

// settle makes the verdict on v, the value given to an entry point, the verdict on the value
// the data model reads v as (datamodel.UnmarshalCBOR of datamodel.MarshalCBOR of v): a v that
// MarshalCBOR refuses has that one error, at the path datamodel gives, whatever else was found.
// The validator has seen all of a valid generic value but for the parts that set st.whole (see
// plain), so that only those values and the invalid ones are walked again.
func (st *state) settle(v any) {
	if len(st.errs) != 0 || st.whole {
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
// of a Go string type or "blob", it may be another value in the data model.
func (st *state) typedMap(m map[string]any) (any, bool) {
	if _, has := m["$type"]; !has {
		return nil, false
	}
	return st.dataModel(m, true)
}

// mismatch is the end of check for a value v that is not of the Go type n asks for (want, as
// "a string"): v is checked as the data model reads it if that is another value, else refused.
func (st *state) mismatch(n *node, v any, want string) bool {
	if g, conv := st.dataModel(v, false); conv {
		return st.recheck(n, g)
	}
	return st.fail("type", "expected %s, found %s", want, typeName(v))
}

func (st *state) first() error {
	if len(st.errs) == 0 {
		return nil
	}
	st.errs[0].finish("")
	return st.errs[0]
}

func (st *state) report() Report {
	for _, e := range st.errs {
		e.finish("")
	}
	for _, e := range st.warns {
		e.finish("")
	}
	return Report{Errors: st.errs, Warnings: st.warns}
}

// fail records a problem with the value being checked; it returns false, for "return
// st.fail(…)".
func (st *state) fail(rule, format string, args ...any) bool {
	st.errs = append(st.errs, &Error{Err: ErrValue, Rule: rule, Detail: fmt.Sprintf(format, args...)})
	return false
}

// failAt records a problem with the member key (or element idx, when key is "" and idx ≥ 0)
// of the value being checked.
func (st *state) failAt(key string, idx int, rule, format string, args ...any) bool {
	st.fail(rule, format, args...)
	st.errs[len(st.errs)-1].rev = []string{segment(key, idx)}
	return false
}

func (st *state) warnAt(key, rule, format string, args ...any) {
	st.warns = append(st.warns, &Error{Err: ErrValue, Rule: rule, Detail: fmt.Sprintf(format, args...),
		rev: []string{key}, warning: true})
}

// notFound records that the catalog has no definition ref of the kind what. rule is "$type" when
// ref was read from the value's "$type", and "" when the caller named it (an endpoint, a
// definition), so that the message does not blame a $type the value may not have.
func (st *state) notFound(ref, what, rule string) {
	st.errs = append(st.errs, &Error{Err: ErrNotFound, Rule: rule, Detail: fmt.Sprintf("%q is not %s in the catalog", clip(ref), what)})
}

func segment(key string, idx int) string {
	if idx >= 0 {
		return strconv.Itoa(idx)
	}
	return key
}

// child checks v, found at member key (or element idx) of the current value, and adds that
// segment to the path of whatever problem it reports.
func (st *state) child(n *node, v any, key string, idx int) bool {
	e0, w0 := len(st.errs), len(st.warns)
	ok := st.check(n, v)
	if len(st.errs) > e0 || len(st.warns) > w0 {
		seg := segment(key, idx)
		for _, e := range st.errs[e0:] {
			e.rev = append(e.rev, seg)
		}
		for _, e := range st.warns[w0:] {
			e.rev = append(e.rev, seg)
		}
	}
	return ok
}

// check validates v against n.
func (st *state) check(n *node, v any) bool {
	if n.kind == kRef {
		n = n.target // refs never point at refs: one step
	}
	switch n.kind {
	case kNull:
		if v != nil {
			return st.mismatch(n, v, "null")
		}
		return true
	case kBoolean:
		b, ok := v.(bool)
		if !ok {
			return st.mismatch(n, v, "a boolean")
		}
		if n.flags&hasConst != 0 && b != n.constBool {
			return st.fail("const", "must be %t", n.constBool)
		}
		return true
	case kInteger:
		switch i := v.(type) {
		case int64:
			return st.integer(n, i)
		case int:
			return st.integer(n, int64(i))
		}
		return st.mismatch(n, v, "an integer")
	case kString:
		s, ok := v.(string)
		if !ok {
			return st.mismatch(n, v, "a string")
		}
		return st.string(n, s)
	case kBytes:
		b, ok := v.(datamodel.Bytes)
		if !ok {
			return st.mismatch(n, v, "bytes")
		}
		return st.length(n, int64(len(b)), "bytes")
	case kCIDLink:
		l, ok := v.(datamodel.Link)
		if !ok || !l.Defined() {
			return st.mismatch(n, v, "a cid-link")
		}
		return true
	case kBlob:
		b, ok := v.(datamodel.Blob)
		if !ok {
			return st.mismatch(n, v, "a blob")
		}
		return st.blob(n, &b)
	case kArray:
		a, ok := v.([]any)
		if !ok || a == nil {
			return st.mismatch(n, v, "an array")
		}
		ok = st.length(n, int64(len(a)), "elements")
		if !ok && !st.all {
			return false
		}
		for i, e := range a {
			if !st.child(n.items, e, "", i) {
				if !st.all {
					return false
				}
				ok = false
			}
		}
		return ok
	case kObject:
		m, ok := v.(map[string]any)
		if !ok || m == nil {
			if m, ok = legacyBlobObject(v); !ok {
				return st.mismatch(n, v, "an object")
			}
		}
		return st.object(n, m, false)
	case kRecord:
		m, ok := v.(map[string]any)
		if !ok || m == nil {
			return st.mismatch(n, v, "a "+n.name+" record")
		}
		if t, _ := m["$type"].(string); t != n.name {
			if g, conv := st.typedMap(m); conv {
				return st.recheck(n, g)
			}
			return st.failAt("$type", -1, "$type", "a %s record must have $type %q", n.name, n.name)
		}
		return st.object(n.record, m, true)
	case kUnion:
		return st.union(n, v)
	case kUnknown:
		// Any object; blobs, links and bytes are other Go types, so they fail here, as the
		// spec asks (https://atproto.com/specs/lexicon#unknown), but for the legacy blob's shape.
		m, ok := v.(map[string]any)
		if !ok || m == nil {
			if _, ok := legacyBlobObject(v); !ok {
				return st.mismatch(n, v, "an object (unknown)")
			}
			return true
		}
		if !plain(m, plainDepth) {
			st.whole = true // what it holds is the data model's to check
		}
		if t, typed := m["$type"]; typed {
			if s, _ := t.(string); s == "" || s == "blob" {
				// A blob, or a map the data model refuses.
				if g, conv := st.dataModel(m, true); conv {
					return st.recheck(n, g)
				}
			}
		}
		return true
	}
	return st.fail("type", "a %s does not describe data", n.kind)
}

// legacyBlobObject returns the object that the decoders read as a legacy blob (DECISIONS rule
// 13), {"cid": string, "mimeType": string}, when v is one: where the schema says object or
// unknown, it is that object, since the legacy form "can only be parsed for known Lexicons"
// (https://atproto.com/specs/data-model#blob-type). The decoders took the cid string only in
// its canonical form, which String gives back.
func legacyBlobObject(v any) (map[string]any, bool) {
	b, ok := v.(datamodel.Blob)
	if !ok || !b.Legacy {
		return nil, false
	}
	return map[string]any{"cid": b.Ref.String(), "mimeType": b.MimeType}, true
}

// object checks the properties of an object (or params) n: required, nullable, and each value
// present against its schema. Members the schema does not name are allowed; they are warnings
// in a full check. typed says that m has a "$type" member (a record, a union variant), which is
// no property unless the schema names one.
func (st *state) object(n *node, m map[string]any, typed bool) bool {
	if st.all && !typed && st.blobObject(m) {
		return false
	}
	ok := true
	found := 0 // members of m that a property matched
	if n.flags&namesType == 0 {
		if typed {
			found = 1 // $type: a member that no property will match
		}
	} else if !typed {
		// A "$type" the schema names may still be "blob" (see unnamed): found < len(m) to the end.
		found = -1
	}
	for i := range n.props {
		// Once every member of m has matched a property and no required one is left, the
		// remaining lookups could only miss: a record usually sets few of its optional fields.
		if found == len(m) && i > n.lastReq {
			break
		}
		p := &n.props[i]
		v, present := m[p.name]
		if present {
			found++
		}
		var good bool
		switch {
		case !present:
			good = !p.required || st.failAt(p.name, -1, "required", "missing required field")
		case v == nil:
			good = p.nullable || st.failAt(p.name, -1, "nullable", "null is not allowed here")
		default:
			good = st.child(p.node, v, p.name, -1)
		}
		if !good && !st.nullMember(n, i, m) {
			if !st.all {
				st.blobObject(m)
				return false
			}
			ok = false
		}
	}
	if found < len(m) && st.unnamed(n, m) {
		return false
	}
	if st.all && len(m) > 0 {
		var unnamed []string
		for k := range m {
			if _, named := n.index[k]; !named && !strings.HasPrefix(k, "$") {
				unnamed = append(unnamed, k)
			}
		}
		slices.Sort(unnamed) // map order is random; reports are not
		for _, k := range unnamed {
			st.warnAt(k, "properties", "field not in the schema (ignored)")
		}
	}
	return ok
}

// unnamed is called when m, checked as an object of schema n, has members the schema does not
// name (or may have a "$type" that the schema names): the data model checks them (settle) unless
// they are plain, and a map typed "blob" is a blob, no object. It returns whether m is one, in a
// check that stops at the first error (a full check has called blobObject already).
func (st *state) unnamed(n *node, m map[string]any) bool {
	if !st.whole {
		for k, v := range m {
			if _, named := n.index[k]; !named && !plainMember(k, v, plainDepth) {
				st.whole = true
				break
			}
		}
	}
	return !st.all && st.blobObject(m)
}

// plainDepth is how many levels of nesting plain looks into.
const plainDepth = 4

// plain reports whether v, a value the validator does not look into (a member the schema does not
// name, the content of an unknown), is one that the data model has nothing to say about, taking
// for granted what the decoders guarantee of strings (valid UTF-8): nil, a boolean, an integer, a
// string, Bytes, a defined Link, a Blob a decoder returns, or an array or a map of them, at most
// depth levels deep, with no "$link" or "$bytes" key and a "$type" that is a string other than ""
// and "blob". Anything else (a Go value, such a key, deeper nesting) is the data model's to check
// on the whole value (settle), where the depth counts from the top.
func plain(v any, depth int) bool {
	switch x := v.(type) {
	case nil, bool, int64, int, string, datamodel.Bytes:
		return true
	case datamodel.Link:
		return x.Defined()
	case datamodel.Blob:
		return decodedBlob(&x)
	case []any:
		if depth == 0 {
			return false
		}
		for _, e := range x {
			if !plain(e, depth-1) {
				return false
			}
		}
		return true
	case map[string]any:
		if depth == 0 {
			return false
		}
		for k, e := range x {
			if !plainMember(k, e, depth-1) {
				return false
			}
		}
		return true
	}
	return false
}

// plainMember is plain for the member k: v of a map.
func plainMember(k string, v any, depth int) bool {
	if k != "" && k[0] == '$' {
		s, ok := v.(string)
		return k == "$type" && ok && s != "" && s != "blob"
	}
	return plain(v, depth)
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

// union finds the variant a value's $type names (https://atproto.com/specs/lexicon#union).
// An open union accepts a variant it does not list (a later revision of the schema may add
// it): when the catalog holds that type as an object or a record, the value is checked against
// it; when it does not, the value passes, with a warning in a full check. A closed union
// accepts only the variants it lists.
func (st *state) union(n *node, v any) bool {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return st.mismatch(n, v, "an object (a union variant)")
	}
	t, ok := m["$type"].(string)
	if !ok {
		if g, conv := st.typedMap(m); conv {
			// A "$type" of a Go string type: a string in the data model.
			return st.recheck(n, g)
		}
		return st.failAt("$type", -1, "$type", "a union variant must have $type")
	}
	for i, r := range n.refs {
		if r == t {
			return st.variant(n.targets[i], m)
		}
	}
	if t == "blob" {
		// The data model reads such a map as a blob (or refuses it): no variant.
		if g, conv := st.dataModel(m, true); conv {
			return st.recheck(n, g)
		}
	}
	if strings.HasSuffix(t, "#main") {
		// Listed or not: "use of a #main suffix is invalid" in $type
		// (https://atproto.com/specs/lexicon#lexicon-files).
		return st.failAt("$type", -1, "$type", "%q: a main definition is named without #main", clip(t))
	}
	if n.flags&closedUnion != 0 {
		return st.failAt("$type", -1, "closed", "%q is not one of the closed union's variants", clip(t))
	}
	if k := st.cat.defs[t]; k != nil && (k.kind == kObject || k.kind == kRecord) {
		return st.variant(k, m)
	}
	if st.all {
		st.warnAt("$type", "refs", "%q is not a variant the open union lists, nor a type the catalog holds (not checked)", clip(t))
	}
	return true
}

// variant checks a union member against its object or record definition; it has "$type".
func (st *state) variant(n *node, m map[string]any) bool {
	if n.kind == kRecord {
		n = n.record // its $type is n's name: the union matched on it
	}
	return st.object(n, m, true)
}

// typeName names the data-model type of a decoded value, for messages.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, int:
		return "an integer"
	case string:
		return "a string"
	case datamodel.Bytes:
		return "bytes"
	case datamodel.Link:
		return "a cid-link"
	case datamodel.Blob:
		return "a blob"
	case []any:
		if x == nil {
			return "null" // as the data model writes it
		}
		return "an array"
	case map[string]any:
		if x == nil {
			return "null"
		}
		return "an object"
	}
	return fmt.Sprintf("a Go %T (not a data-model value)", v)
}

// normalizedNSID returns s, a valid NSID, with its authority in lower case (nsid.Normalize).
func normalizedNSID(s string) string {
	n, err := nsid.Parse(s)
	if err != nil {
		return s
	}
	return n.Normalize().String()
}
