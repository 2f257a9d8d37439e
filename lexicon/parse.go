// Parsing of a Lexicon document. In this file: ParseSchema and the parser's first-error
// state; where a type may appear (allowed); document (lexicon, id, defs, main); definition
// names and references; the field readers that check each JSON type; JSON Pointer escaping.
// Definitions by type are in parse_types.go.

package lexicon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/atcore/atcore/internal/defname"
)

// ParseSchema parses and checks one Lexicon document (https://atproto.com/specs/lexicon). file
// names the document in errors. A refused document gives an *Error matching ErrSchema with the
// file, the JSON Pointer inside it and the rule broken; references to other definitions are
// checked later, when the Schema is added to a Catalog.
//
// Fields the spec does not define are ignored, so that a schema written for a later revision
// of the language still loads; the spec's own fields are checked for type and range. The JSON
// is read strictly: a syntax error is located by line and column, and a key that appears twice
// in one object is refused, where encoding/json would keep the last.
func ParseSchema(file string, data []byte) (*Schema, error) {
	p := parser{file: file}
	s := p.document(data)
	if p.err != nil {
		return nil, p.err
	}
	return s, nil
}

// parser holds the first error found in one document; every step returns early once it is
// set.
type parser struct {
	file string
	id   string
	err  *Error
}

func (p *parser) fail(ptr, rule, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Err: ErrSchema, File: p.file, Path: ptr, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
}

// where a definition appears decides which types it may have.
type where uint8

const (
	atDef         where = iota // a named definition under defs
	atField                    // an object property or array items
	atParam                    // a params property
	atParamItems               // the items of an array params property
	atRecord                   // the "record" of a record definition
	atBody                     // the schema of an input or output
	atMessage                  // the schema of a subscription message
	atPermissions              // an element of a permission set's permissions
	atEndpoint                 // the parameters of a query, procedure or subscription
)

var whereNames = [...]string{
	atDef: "a named definition", atField: "a field", atParam: "a parameter",
	atParamItems: "a parameter's items", atRecord: "a record's record", atBody: "a body schema",
	atMessage: "a subscription message", atPermissions: "a permission set's permissions",
	atEndpoint: "an endpoint's parameters",
}

// allowed reports whether a definition of kind k may appear at w
// (https://atproto.com/specs/lexicon: params, permission, ref, union and unknown are not named
// definitions; tokens only are; primary types only as main; params only hold booleans,
// integers, strings and arrays of them; bodies are object, ref or union; messages are unions).
func allowed(k kind, w where) bool {
	switch w {
	case atDef:
		return k != kRef && k != kUnion && k != kUnknown && k != kParams && k != kPermission
	case atField:
		return k <= kObject || k == kRef || k == kUnion || k == kUnknown
	case atParam:
		return k == kBoolean || k == kInteger || k == kString || k == kArray
	case atParamItems:
		return k == kBoolean || k == kInteger || k == kString
	case atRecord:
		return k == kObject
	case atBody:
		return k == kObject || k == kRef || k == kUnion
	case atMessage:
		return k == kUnion
	case atPermissions:
		return k == kPermission
	case atEndpoint:
		return k == kParams
	}
	return false
}

func (p *parser) document(data []byte) *Schema {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		p.fail("", "json", "%s", jsonError(data, err))
		return nil
	}
	// Only white space may follow (dec.More is false before a '}' or ']', which ends no
	// value at the top).
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		p.fail("", "json", "data after the document, at %s", lineCol(data, int64(len(data)-len(rest))))
		return nil
	}
	if ptr, dup := duplicateKey(data); dup {
		// defs is "a set of definitions, each with a distinct name (key)", and a JSON object
		// whose key repeats has no one meaning (RFC 8259 §4): encoding/json keeps the last.
		p.fail(ptr, "json", "the key appears twice in one object")
		return nil
	}
	m, ok := top.(map[string]any)
	if !ok {
		p.fail("", "json", "a Lexicon document is a JSON object")
		return nil
	}
	if v, ok := p.integer(m, "", "lexicon", true); ok && v != 1 {
		p.fail("/lexicon", "lexicon", "version %d; this is version 1 of the language", v)
	}
	id, _ := p.str(m, "", "id", true)
	if p.err == nil && nsidFormat.check(id) != nil {
		p.fail("/id", "id", "%q is not an NSID", clip(id))
	}
	p.id = id
	desc, _ := p.str(m, "", "description", false)
	defs, ok := p.object(m, "", "defs", true)
	if p.err != nil {
		return nil
	}
	if ok && len(defs) == 0 {
		p.fail("/defs", "defs", "a Lexicon with zero definitions is invalid")
		return nil
	}
	s := &Schema{ID: id, Description: desc, File: p.file, defs: make(map[string]*node, len(defs))}
	for _, name := range sortedKeys(defs) {
		ptr := "/defs/" + escapeToken(name)
		if !defname.Valid(name) {
			p.fail(ptr, "defs", "%q is not a definition name", clip(name))
			return nil
		}
		if dm, ok := defs[name].(map[string]any); ok && name != "main" {
			if k, ok := kindByName(fmt.Sprint(dm["type"])); ok && k.primary() {
				p.fail(ptr+"/type", "main", "a %s must be the main definition", k)
				return nil
			}
		}
		n := p.def(defs[name], ptr, atDef)
		if p.err != nil {
			return nil
		}
		n.name = id + "#" + name
		if name == "main" {
			n.name = id
		}
		s.defs[name] = n
	}
	return s
}

// fullRef turns a reference as written ("#name", "nsid", "nsid#name") into the name a $type
// uses: "nsid#name", or "nsid" for main.
func (p *parser) fullRef(ref, ptr string) string {
	nsid, frag, hasFrag := strings.Cut(ref, "#")
	if nsid == "" {
		if !hasFrag {
			p.fail(ptr, "ref", "empty reference")
			return ""
		}
		nsid = p.id
	} else if nsidFormat.check(nsid) != nil {
		p.fail(ptr, "ref", "%q: %q is not an NSID", clip(ref), clip(nsid))
		return ""
	}
	if !hasFrag || frag == "main" {
		return nsid
	}
	if !defname.Valid(frag) {
		p.fail(ptr, "ref", "%q: %q is not a definition name", clip(ref), clip(frag))
		return ""
	}
	return nsid + "#" + frag
}

// Field readers: each reads m[key] at ptr, reports a wrong type, and says whether it was there.

func (p *parser) str(m map[string]any, ptr, key string, required bool) (string, bool) {
	v, ok := p.field(m, ptr, key, required)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		p.fail(ptr+"/"+escapeToken(key), key, "must be a string, not %s", jsonKind(v))
	}
	return s, ok
}

func (p *parser) boolean(m map[string]any, ptr, key string) (bool, bool) {
	v, ok := p.field(m, ptr, key, false)
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		p.fail(ptr+"/"+escapeToken(key), key, "must be a boolean, not %s", jsonKind(v))
	}
	return b, ok
}

func (p *parser) integer(m map[string]any, ptr, key string, required bool) (int64, bool) {
	v, ok := p.field(m, ptr, key, required)
	if !ok {
		return 0, false
	}
	return p.asInt(v, ptr+"/"+escapeToken(key), key)
}

func (p *parser) asInt(v any, ptr, rule string) (int64, bool) {
	num, ok := v.(json.Number)
	if ok {
		if i, err := strconv.ParseInt(string(num), 10, 64); err == nil {
			return i, true
		}
		p.fail(ptr, rule, "%s is not an integer within 64 bits", num)
		return 0, false
	}
	p.fail(ptr, rule, "must be an integer, not %s", jsonKind(v))
	return 0, false
}

// length reads a non-negative integer bound.
func (p *parser) length(m map[string]any, ptr, key string) (int64, bool) {
	v, ok := p.integer(m, ptr, key, false)
	if ok && v < 0 {
		p.fail(ptr+"/"+escapeToken(key), key, "must not be negative")
		return 0, false
	}
	return v, ok
}

func (p *parser) object(m map[string]any, ptr, key string, required bool) (map[string]any, bool) {
	v, ok := p.field(m, ptr, key, required)
	if !ok {
		return nil, false
	}
	o, ok := v.(map[string]any)
	if !ok {
		p.fail(ptr+"/"+escapeToken(key), key, "must be an object, not %s", jsonKind(v))
	}
	return o, ok
}

func (p *parser) array(m map[string]any, ptr, key string, required bool) ([]any, bool) {
	v, ok := p.field(m, ptr, key, required)
	if !ok {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		p.fail(ptr+"/"+escapeToken(key), key, "must be an array, not %s", jsonKind(v))
	}
	return a, ok
}

// strings reads an array of strings; unique asks that no string appear twice.
func (p *parser) strings(m map[string]any, ptr, key string, required, unique bool) ([]string, bool) {
	a, ok := p.array(m, ptr, key, required)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(a))
	var seen map[string]bool // a set: a document may list many thousands
	if unique {
		seen = make(map[string]bool, len(a))
	}
	for i, v := range a {
		s, ok := v.(string)
		if !ok {
			p.fail(ptr+"/"+escapeToken(key)+"/"+strconv.Itoa(i), key, "must hold strings, not %s", jsonKind(v))
			return nil, false
		}
		if unique {
			if seen[s] {
				p.fail(ptr+"/"+escapeToken(key)+"/"+strconv.Itoa(i), key, "%q appears twice", clip(s))
				return nil, false
			}
			seen[s] = true
		}
		out = append(out, s)
	}
	return out, true
}

func (p *parser) field(m map[string]any, ptr, key string, required bool) (any, bool) {
	if p.err != nil {
		return nil, false
	}
	v, ok := m[key]
	if !ok && required {
		p.fail(ptr, key, "missing required field %q", key)
	}
	return v, ok
}

// jsonKind names the JSON type of a decoded schema value, for messages.
func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return "an integer"
		}
		if f, err := strconv.ParseFloat(string(v), 64); err == nil && !math.IsInf(f, 0) {
			return "a number with a fraction or exponent"
		}
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// escapeToken escapes one JSON Pointer reference token (RFC 6901 §3).
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}
