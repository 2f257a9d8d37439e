package datamodel

// The registry of record and union-member types: NSID to Go type (issue 15). A firehose consumer
// or an app view routes records by "$type" and decodes each into the Go struct of its Lexicon;
// union fields (union.go) choose their member's Go type the same way.
//
// There is no package-level default registry, on purpose: which Lexicons a program reads is the
// program's choice, not its imports' (a global registry filled from init functions, as gob's and
// protobuf's are, makes two packages that register one NSID conflict at start-up, whoever is at
// fault, and makes tests share state); a program may hold more than one (a relay that keeps every
// record generic, beside an app view that decodes bsky's); and a registry passed explicitly says
// at the call site which types a decode can produce. A program that wants one registry for all
// declares a package variable of its own.

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/atcore/atcore/internal/defname"
	"github.com/atcore/atcore/internal/echo"
	"github.com/atcore/atcore/nsid"
)

// ErrRegister is the sentinel of the errors Register returns: a Go type that cannot stand for a
// record type, or an NSID or Go type registered twice.
var ErrRegister = errors.New("invalid registration")

// Registry maps the "$type" of records and union members (an NSID, or "nsid#name" for a member
// of a definition other than main) to Go struct types. The zero
// value is an empty registry, ready to use. Registration is usually done once at start-up, but
// every method is safe for concurrent use: lookups read an immutable snapshot with one atomic
// load and take no lock (Register copies the tables; registrations are few), so decoding
// goroutines never wait on each other. A Registry must not be copied after first use.
type Registry struct {
	mu     sync.Mutex // serializes Register
	tables atomic.Pointer[registryTables]
}

// registryTables is one snapshot of a Registry: never modified once published.
type registryTables struct {
	byNSID map[string]*registryEntry
	byType map[reflect.Type]*registryEntry
}

// registryEntry is one registered type.
type registryEntry struct {
	nsid string
	typ  reflect.Type // a struct type
	plan *typedPlan
}

// Register registers Go struct type T for the NSID id in r: a record (or union member) whose
// "$type" is id, byte for byte, decodes into a new T. T must be a struct type (not a pointer)
// with a field whose key (see UnmarshalCBORStruct) is "$type", of a string kind, so that the
// type is written back when the struct is encoded, and without fxamacker's toarray option (which
// makes it an array, where a record is a map); id must be a valid NSID
// (https://atproto.com/specs/nsid), or, for a union member of a definition other than main, the
// NSID, '#' and the definition's name, as its "$type" spells it ("app.bsky.richtext.facet#mention";
// never "#main", https://atproto.com/specs/lexicon#lexicon-files). Registering an NSID or a Go
// type twice is an error: a type has one NSID, so that an encoder can check a struct's "$type"
// against it. The error is the nsid package's for an invalid NSID, else an *Error wrapping
// ErrRegister (Offset -1).
func Register[T any](r *Registry, id string) error {
	return r.register(reflect.TypeFor[T](), id)
}

// MustRegister is Register that panics on error, for registrations at start-up with NSIDs and
// types written in the program.
func MustRegister[T any](r *Registry, id string) {
	if err := Register[T](r, id); err != nil {
		panic(err)
	}
}

func (r *Registry) register(t reflect.Type, id string) error {
	base, name, hasName := strings.Cut(id, "#")
	if _, err := nsid.Parse(base); err != nil {
		return err
	}
	if hasName && (name == "main" || !defname.Valid(name)) {
		return valueError(ErrRegister, id+": a $type names a definition other than main by NSID#name, "+
			"the name of letters and digits, not starting with a digit; main by the NSID alone")
	}
	if t.Kind() != reflect.Struct {
		return valueError(ErrRegister, "Go type "+t.String()+" for "+id+" is not a struct")
	}
	p := typedPlanOf(t)
	if p.err != nil {
		return valueError(ErrRegister, "Go type "+t.String()+" for "+id+": "+p.err.Detail)
	}
	if p.toArray {
		// Records and union members are maps (rule 11: their "$type" is a key): a struct that
		// is written as an array could never be read back from one.
		return valueError(ErrRegister, "Go type "+t.String()+" for "+id+
			" has fxamacker's toarray option: it is written as an array, and a record or union member is a map")
	}
	if typeFieldOf(p) == nil {
		return valueError(ErrRegister, "Go type "+t.String()+" for "+id+" has no field of a string kind with the key $type")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.tables.Load()
	if old == nil {
		old = &registryTables{}
	}
	if e := old.byNSID[id]; e != nil {
		return valueError(ErrRegister, id+" is already registered, for Go type "+e.typ.String())
	}
	if e := old.byType[t]; e != nil {
		return valueError(ErrRegister, "Go type "+t.String()+" is already registered, for "+e.nsid)
	}
	next := &registryTables{
		byNSID: make(map[string]*registryEntry, len(old.byNSID)+1),
		byType: make(map[reflect.Type]*registryEntry, len(old.byType)+1),
	}
	for k, e := range old.byNSID {
		next.byNSID[k] = e
	}
	for k, e := range old.byType {
		next.byType[k] = e
	}
	e := &registryEntry{nsid: id, typ: t, plan: p}
	next.byNSID[id], next.byType[t] = e, e
	r.tables.Store(next)
	return nil
}

// lookup returns the entry registered for the NSID t, or nil (also for a nil r).
func (r *Registry) lookup(t []byte) *registryEntry {
	if r == nil {
		return nil
	}
	tables := r.tables.Load()
	if tables == nil {
		return nil
	}
	return tables.byNSID[string(t)] // converted without a copy
}

// Lookup returns the Go type registered for the $type id (see Register), or nil and false.
func (r *Registry) Lookup(id string) (reflect.Type, bool) {
	if e := r.lookup([]byte(id)); e != nil {
		return e.typ, true
	}
	return nil, false
}

// Union returns a Union that holds v, a pointer to a struct of a type registered in r whose
// "$type" field holds the NSID it is registered for; the Union is checked against that NSID
// again when encoded. Any other v is an error (ErrGoType, or ErrType for the "$type" field).
func (r *Registry) Union(v any) (Union, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return Union{}, valueError(ErrGoType, "a union member is a non-nil pointer to a registered struct, not "+describeGoType(v))
	}
	var e *registryEntry
	if r != nil { // a nil Registry holds nothing, as lookup reads it
		if tables := r.tables.Load(); tables != nil {
			e = tables.byType[rv.Type().Elem()]
		}
	}
	if e == nil {
		return Union{}, valueError(ErrGoType, "Go type "+rv.Type().Elem().String()+" is not registered")
	}
	u := Union{v: v, nsid: e.nsid}
	if _, err := u.member(); err != nil {
		return Union{}, err
	}
	return u, nil
}

// WithRegistry makes UnmarshalCBORStruct and UnmarshalJSONStruct decode Union and ClosedUnion
// fields into the Go types registered in r. Without it, every Union member decodes to the
// generic form and a ClosedUnion refuses every member. Registry.DecodeCBOR and DecodeJSON use
// their own registry unless this option names another.
func WithRegistry(r *Registry) Option {
	return func(c *config) { c.registry = r }
}

// RegisteredOnly makes Registry.DecodeCBOR and DecodeJSON refuse a record whose "$type" is not registered
// (ErrGoType, offset 0), as a closed union does, where by default it returns the generic form.
// The other entry points ignore it.
func RegisteredOnly() Option {
	return func(c *config) { c.registeredOnly = true }
}

// DecodeCBOR decodes the DAG-CBOR record in data by its "$type": into a new value of the Go type
// registered for it, returned as a pointer (*T), or, when the type is not registered, into the
// generic form UnmarshalCBOR returns (a map[string]any; a Blob for a lone blob, whose $type,
// "blob", is no NSID): new record types are not an error unless RegisteredOnly is given. Union fields inside decode through r (see WithRegistry).
//
// The "$type" is read first without decoding anything (RecordTypeCBOR), then the record is
// decoded once, by UnmarshalCBORStruct's decoder or UnmarshalCBOR's, with every check and limit
// of opts; the errors are theirs, located as theirs are (byte offset, JSON Pointer). A record
// without "$type" is an error (ErrType, as RecordTypeCBOR reports it), as is a value that is not
// a map (ErrNotRecord); an input that UnmarshalCBOR refuses gets UnmarshalCBOR's error, whatever
// r holds.
//
// (It is not named UnmarshalCBOR: fxamacker's cbor.Unmarshaler has that name, with another
// signature.)
func (r *Registry) DecodeCBOR(data []byte, opts ...Option) (any, error) {
	t, perr := recordTypeCBOR(data)
	var e *registryEntry
	if perr == nil {
		e = r.lookup(t)
	}
	if e == nil {
		v, err := UnmarshalCBOR(data, opts...)
		if err != nil {
			return nil, err
		}
		if perr != nil {
			return nil, finished(perr)
		}
		if len(opts) > 0 && newConfig(opts).registeredOnly {
			return nil, &Error{Err: ErrGoType, Offset: 0, Detail: "record type " + echo.Quote(string(t)) + " is not registered"}
		}
		return v, nil
	}
	nv := reflect.New(e.typ)
	if err := typedUnmarshalIn(r, data, e.plan, nv.UnsafePointer(), opts); err != nil {
		return nil, err
	}
	return nv.Interface(), nil
}

// DecodeJSON is DecodeCBOR for an atproto JSON record: its "$type" read first without building
// anything (RecordTypeJSON), then the record decoded once, by UnmarshalJSONStruct's decoder into
// the registered Go type, or by UnmarshalJSON into the generic form. Errors are theirs, and an
// input UnmarshalJSON refuses gets UnmarshalJSON's error.
//
// (It is not named UnmarshalJSON: encoding/json's Unmarshaler has that name, with another
// signature.)
func (r *Registry) DecodeJSON(data []byte, opts ...Option) (any, error) {
	t, perr := RecordTypeJSON(data)
	var e *registryEntry
	if perr == nil {
		e = r.lookup(t)
	}
	if e == nil {
		v, err := UnmarshalJSON(data, opts...)
		if err != nil {
			return nil, err
		}
		if perr != nil {
			return nil, perr
		}
		if len(opts) > 0 && newConfig(opts).registeredOnly {
			return nil, &Error{Err: ErrGoType, Offset: 0, Detail: "record type " + echo.Quote(string(t)) + " is not registered"}
		}
		return v, nil
	}
	c := config{limits: DefaultLimits()}
	if len(opts) > 0 {
		c = newConfig(opts)
	}
	if c.registry == nil {
		c.registry = r
	}
	nv := reflect.New(e.typ)
	if err := typedJSONUnmarshal(data, e.plan, nv.UnsafePointer(), c); err != nil {
		return nil, err
	}
	return nv.Interface(), nil
}
