// Package lexicon loads Lexicon schemas and validates records and other values against them
// (https://atproto.com/specs/lexicon), as a PDS, an app view or a feed generator does before it
// stores or indexes a record:
//
//	cat, err := lexicon.LoadFS(schemas, "lexicons") // e.g. an embed.FS; or LoadDir(dir)
//	...
//	rec, err := datamodel.UnmarshalJSON(body)        // or UnmarshalCBOR
//	...
//	err = cat.ValidateRecord(rec, lexicon.Options{Collection: collection, RKey: key})
//	// invalid value at "/text": maxGraphemes: more than 300 graphemes
//
// # Schemas
//
// ParseSchema parses and checks one document: every type of the spec (null, boolean,
// integer, string, bytes, cid-link, blob, array, object, params, permission, token, ref,
// union, unknown, record, query, procedure, subscription, permission-set) with its
// constraints, and where each type may appear. A Catalog is built from documents (NewCatalog,
// LoadFS, LoadDir) and resolves every reference ("#local", "nsid#name", "nsid" for main) when
// it is built: a reference to nothing, to a token, or a union variant that is not an object or
// a record, is a load error naming the file, the JSON Pointer in it and the rule. Fields the
// spec does not define are ignored, so that schemas from a later revision of the language
// load.
//
// Each definition is compiled once into a plan (references resolved to pointers), so that
// validation walks the value and the plan without looking anything up in the schema, and does
// not allocate when the value is valid.
//
// # Validation
//
// ValidateRecord checks a record decoded by the datamodel package (either codec gives the same
// values), or a Go value such as a record struct (below), against the record schema its "$type"
// names and returns the first problem; CheckRecord lists every problem, and as warnings the
// fields the schema does not name and the variants of an open union it does not list (the spec:
// unexpected fields are ignored, "at worst" a warning). ValidateValue and CheckValue do the
// same against any data definition. An *Error carries the JSON Pointer of the bad value, the
// rule broken ("required", "nullable", "type", "const", "enum", "minimum", "maximum",
// "minLength", "maxLength", "minGraphemes", "maxGraphemes", "format", "accept", "maxSize",
// "blob" (a legacy blob outside AllowLegacyBlob), "closed", "$type", "key", "data-model") and
// matches ErrValue (or ErrNotFound for a type the catalog does not hold) with errors.Is.
//
// A value is checked as the data model reads it: any Go value v is validated as the generic
// value datamodel.UnmarshalCBOR(datamodel.MarshalCBOR(v)), with the same verdict and the same
// paths. The validators take the generic values the decoders return, and also what the datamodel
// encoders take: a record struct (decoded through a datamodel.Registry, or written by a code
// generator), a []string, an int32, a map[string]string, a pointer (nil is null), a []byte. A v
// that MarshalCBOR refuses (a float, a cycle, a map with keys that are not strings, a "$link"
// key) is refused with the rule "data-model" at the path datamodel gives, before any other
// problem. A map whose "$type" is "blob" is a blob (or refused), as its bytes decode to a Blob:
// a blob where the schema says blob, and no object where it says object, unknown or a union.
// A Go value is converted only where the validator meets one, so that a decoded value costs a few
// more tests on the way, a look at the members the schema does not name and at the content of an
// unknown, which the validator does not otherwise look into, and datamodel.Validate of the whole
// value (no allocation) when those hold more than plain values (a "$type" "blob", a "$link" key,
// a Go value, deep nesting, more values or longer keys than datamodel's limits allow). What the
// decoders guarantee of strings is not checked again: a string, or a map key, is taken to be
// valid UTF-8.
//
// String lengths are UTF-8 bytes; graphemes are extended grapheme clusters (Unicode UAX #29,
// github.com/rivo/uniseg). uniseg v0.4.7, the version this module requires, implements Unicode 15.0, before
// rule GB9c of 15.1 joined an Indic conjunct ("क्ष": consonant, virama, consonant) into one
// cluster: such a conjunct counts as two graphemes or more here, as in indigo, which uses the
// same library, so that Hindi text near maxGraphemes can be refused that a Unicode 15.1
// segmenter takes. knownValues are advice and are not enforced. Formats are checked by
// the module's syntax packages (nsid, did, handle, atident, aturi, datetime, lang, rkey, tid,
// cidutil) and here for uri: every format of the spec is checked.
//
// # Modes
//
// Validation is strict by default. Mode names each tolerance for reading old records:
// AllowLegacyBlob accepts blobs in the deprecated {cid, mimeType} form, AllowLenientDatetime
// the looser datetimes of old records, AllowLooseURI links with characters RFC 3986 leaves out.
// Lenient is all of them.
//
// # Choices where the spec is silent or loose
//
//   - Fields of a schema document that the spec does not define are ignored (a later revision
//     of the language may add some); the spec's own fields are checked for type and range, and
//     an unknown type or string format is refused.
//   - An open union accepts a variant it does not list; when the catalog holds that type (an
//     object or a record), the value is checked against it, as indigo does. A variant's $type
//     that the catalog holds as another kind (a token, a string), or that has not the form of
//     a type (an NSID, and #name), is refused: no schema, of this revision or a later one, can
//     make it a variant.
//   - A $type that names a main definition with "#main" is refused: the spec says a $type
//     must name it by the bare NSID.
//   - In a permission set, an rpc permission may have lxm ["*"] with inheritAud (the official
//     catalog vector does, though the spec's prose forbids a wildcard lxm); aud and lxm cannot
//     both be wildcards.
//   - Blob accept patterns match MIME types without regard to case, parameters
//     (";charset=…") dropped.
//   - An object of exactly {"cid": CID string, "mimeType": string}, which the datamodel
//     decoders read as a legacy blob, is that object where the schema says object or unknown:
//     the legacy form "can only be parsed for known Lexicons".
//
// # Endpoints
//
// ParseParams reads the query string of a call to an XRPC query, procedure or subscription
// into typed values (booleans, integers, strings, arrays of them) and checks them against the
// endpoint's params; ValidateInput and ValidateOutput check decoded JSON bodies against its
// input and output schemas; ValidateMessage checks an event-stream message against the variant
// its frame header names.
package lexicon
