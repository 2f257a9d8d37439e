// Validation of values against compiled definitions. In this file: Mode and Options; the
// entry points (ValidateRecord, CheckRecord, ValidateValue, CheckValue) and the record's
// $type, collection and key; state, which gathers errors and builds their JSON Pointers on the
// way out (child); check, the switch over a definition's type; object; union and variant;
// typeName. Go values and the blob's shape, held to the data model's reading of them (settle,
// dataModel, mismatch), are in validate_datamodel.go; the scalar rules (integer, length,
// string, graphemes, blob) in validate_types.go; the endpoints in endpoint.go.

package lexicon

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atcore/atcore/datamodel"
	"github.com/atcore/atcore/internal/defname"
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
	// must be that NSID (CheckRecord then goes on against the schema the $type names).
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
// typed "blob" is a blob. One thing is taken for granted rather than checked, as the decoders
// guarantee it: that strings and map keys are valid UTF-8 (see the package doc).
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
		if t == "blob" && c.recordAsDataModel(st, m, true, o) {
			return // a blob, or a map the data model refuses (as below): not a record stored wrongly
		}
		st.failAt("$type", -1, "$type", "%q is not the collection %q", clip(t), o.Collection)
		if !st.all {
			return
		}
		// A full check goes on, against the schema the record names: its other problems are
		// its own, wherever it is stored.
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
	// depth is the number of containers above the value being checked (0 for the value given).
	depth int
	// values counts the elements of the arrays and maps seen, and 4 for a Blob: settle checks a
	// value with as many as the data model's limit on values.
	values int
	errs   Errors
	warns  Errors
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
	var ok bool
	if st.depth++; st.depth < datamodel.DefaultMaxDepth {
		ok = st.check(n, v)
	} else {
		ok = st.deep(n, v)
	}
	st.depth--
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
		st.values += 4
		return st.blob(n, &b)
	case kArray:
		a, ok := v.([]any)
		if !ok || a == nil {
			return st.mismatch(n, v, "an array")
		}
		if len(a) > datamodel.DefaultMaxElements {
			st.whole = true // beyond the data model's limit (settle)
		}
		st.values += len(a)
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
		if !st.plain(m, min(plainDepth, datamodel.DefaultMaxDepth-st.depth)) {
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
	st.values += len(m)
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

// union finds the variant a value's $type names (https://atproto.com/specs/lexicon#union).
// An open union accepts a variant it does not list (a later revision of the schema may add
// it): when the catalog holds that type as an object or a record, the value is checked against
// it; when it holds it as another kind, or the $type has not the form of one (an NSID, and
// #name), the value is refused; when it does not hold it, the value passes if the data model
// takes it, with a warning in a full check. A closed union accepts only the variants it lists.
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
	switch k := st.cat.defs[t]; {
	case k != nil && (k.kind == kObject || k.kind == kRecord):
		return st.variant(k, m)
	case k != nil:
		// "The schema definitions pointed to by a union must have type object or record"
		// (https://atproto.com/specs/lexicon#union).
		return st.failAt("$type", -1, "$type", "%q is a %s, which no union variant can be", clip(t), k.kind)
	case !validTypeRef(t):
		// A $type names a Lexicon type (https://atproto.com/specs/lexicon#lexicon-files): a later
		// revision of the schema may add a variant, never one that no schema can define.
		return st.failAt("$type", -1, "$type", "%q names no Lexicon type (an NSID, with #name for a definition other than main)", clip(t))
	}
	if !st.plain(m, min(plainDepth, datamodel.DefaultMaxDepth-st.depth)) {
		st.whole = true // what it holds, not checked here, is the data model's to check
	}
	if st.all {
		st.warnAt("$type", "refs", "%q is not a variant the open union lists, nor a type the catalog holds (not checked)", clip(t))
	}
	return true
}

// validTypeRef reports whether t has the form of a $type: an NSID, or an NSID and "#" and a
// definition's name.
func validTypeRef(t string) bool {
	id, name, hasName := strings.Cut(t, "#")
	return nsidFormat.check(id) == nil && (!hasName || defname.Valid(name))
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
