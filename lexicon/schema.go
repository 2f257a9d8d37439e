package lexicon

import (
	"sort"

	"github.com/atcore/atcore/rkey"
)

// kind is a Lexicon type (https://atproto.com/specs/lexicon#overview-of-types).
type kind uint8

const (
	kNull kind = iota
	kBoolean
	kInteger
	kString
	kBytes
	kCIDLink
	kBlob
	kArray
	kObject
	kParams
	kPermission
	kToken
	kRef
	kUnion
	kUnknown
	kRecord
	kQuery
	kProcedure
	kSubscription
	kPermissionSet
)

// kindNames are the spelling of each type in a schema's "type" field.
var kindNames = [...]string{
	kNull: "null", kBoolean: "boolean", kInteger: "integer", kString: "string", kBytes: "bytes",
	kCIDLink: "cid-link", kBlob: "blob", kArray: "array", kObject: "object", kParams: "params",
	kPermission: "permission", kToken: "token", kRef: "ref", kUnion: "union", kUnknown: "unknown",
	kRecord: "record", kQuery: "query", kProcedure: "procedure", kSubscription: "subscription",
	kPermissionSet: "permission-set",
}

func (k kind) String() string { return kindNames[k] }

func (k kind) primary() bool { return k >= kRecord }

// Flags of a node: which optional constraints it has.
const (
	hasMin uint16 = 1 << iota
	hasMax
	hasMinLen
	hasMaxLen
	hasMinGraphemes
	hasMaxGraphemes
	hasConst
	hasDefault
	hasMaxSize
	closedUnion
	namesType // an object or params with a property named "$type"
)

// node is one compiled schema definition: the validator's plan. The catalog builds every node
// once, with references resolved to pointers, so that validating a value is a walk over nodes
// and the value, without map lookups in the schema or allocation on success.
type node struct {
	kind  kind
	flags uint16

	format  *format // string format, nil when none
	minimum int64   // integer bounds
	maximum int64
	minLen  int64 // string (UTF-8 bytes), bytes and array lengths
	maxLen  int64
	minGr   int64
	maxGr   int64
	maxSize int64

	constInt  int64
	constBool bool
	constStr  string
	enumInt   []int64
	enumStr   []string
	known     []string // knownValues: advisory, kept for callers, never enforced
	def       any      // default: bool, int64 or string, when hasDefault
	accept    []string // blob MIME patterns

	items   *node  // array
	props   []prop // object, params: in name order
	index   map[string]int
	lastReq int // index in props of the last required property; -1 if none

	ref     string // ref: the full name it points to ("nsid#name", or "nsid" for main)
	target  *node
	refs    []string // union: full names of the variants, as $type spells them
	targets []*node

	key    rkey.KeyType // record
	record *node        // record: the object

	params  *node // query, procedure, subscription
	input   *body
	output  *body
	message *node // subscription: a union

	name string // the full name of a top-level definition; "" for inline ones
	file string // where a ref/union was written, for resolution errors
	ptr  string
}

// A prop is one property of an object or params.
type prop struct {
	name     string
	node     *node
	required bool
	nullable bool
}

// A body is a query's or procedure's input or output.
type body struct {
	encoding string
	schema   *node // nil: the body is not described
}

// Schema is one parsed Lexicon document: an NSID and its definitions
// (https://atproto.com/specs/lexicon#lexicon-files). A Schema is used by adding it to a
// Catalog, which resolves its references.
type Schema struct {
	ID          string // the document's NSID
	Description string
	File        string // the name the document was read from, for errors

	defs map[string]*node
}

// Defs returns the names of the document's definitions, sorted.
func (s *Schema) Defs() []string {
	out := make([]string, 0, len(s.defs))
	for n := range s.defs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Type returns the Lexicon type of the definition name ("record", "object", "query", …), or ""
// when there is none.
func (s *Schema) Type(name string) string {
	if n, ok := s.defs[name]; ok {
		return n.kind.String()
	}
	return ""
}
