package lexicon

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/atcore/atcore/datamodel"
)

// ParseParams reads the query string of a call to the XRPC endpoint (a query, procedure or
// subscription: "app.bsky.feed.getTimeline") into typed values, as its params schema says
// (https://atproto.com/specs/lexicon#params): a boolean is "true" or "false", an integer is
// decimal, an array is the parameter repeated. Each value is then checked against its schema,
// and a parameter that is absent but has a default gets the default. Parameters the schema
// does not name are ignored. The problems are returned together (Errors, or the one *Error),
// each with the JSON Pointer "/name" (or "/name/i" for an array element).
//
// The map holds bool, int64, string or []any of those: what ValidateValue and the datamodel
// encoders take.
func (c *Catalog) ParseParams(endpoint string, q url.Values) (map[string]any, error) {
	st := state{cat: c, all: true}
	n := c.endpoint(&st, endpoint, false)
	if n == nil {
		return nil, st.report().Err()
	}
	out := map[string]any{}
	if n.params == nil {
		return out, nil
	}
	for i := range n.params.props {
		p := &n.params.props[i]
		vals := q[p.name]
		if len(vals) == 0 {
			if p.required {
				st.failAt(p.name, -1, "required", "missing required parameter")
			} else if p.node.flags&hasDefault != 0 {
				out[p.name] = p.node.def
			}
			continue
		}
		var v any
		if p.node.kind == kArray {
			a := make([]any, 0, len(vals))
			for j, s := range vals {
				e, ok := st.param(p.node.items, s, p.name, j)
				if !ok {
					break
				}
				a = append(a, e)
			}
			if len(a) < len(vals) {
				continue
			}
			v = a
		} else {
			if len(vals) > 1 {
				st.failAt(p.name, -1, "type", "given %d times; a parameter of type %s is given once", len(vals), p.node.kind)
				continue
			}
			var ok bool
			if v, ok = st.param(p.node, vals[0], p.name, -1); !ok {
				continue
			}
		}
		if st.child(p.node, v, p.name, -1) {
			out[p.name] = v
		}
	}
	if err := st.report().Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// param converts one query-string value to the type of n (boolean, integer or string).
func (st *state) param(n *node, s, name string, idx int) (any, bool) {
	switch n.kind {
	case kBoolean:
		switch s {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		st.fail("type", "%q: a boolean parameter is true or false", clip(s))
	case kInteger:
		if i, err := strconv.ParseInt(s, 10, 64); err == nil && s[0] != '+' {
			return i, true
		}
		st.fail("type", "%q: not a decimal integer within 64 bits", clip(s))
	case kString:
		// A query string is bytes (percent escapes of anything); a Lexicon string is Unicode
		// (https://atproto.com/specs/lexicon#string), and the data model refuses other bytes.
		if utf8.ValidString(s) {
			return s, true
		}
		st.fail("type", "%q is not valid UTF-8", clip(s))
	default:
		st.fail("type", "a %s cannot be a parameter", n.kind)
	}
	e := st.errs[len(st.errs)-1]
	if idx >= 0 {
		e.rev = append(e.rev, strconv.Itoa(idx))
	}
	e.rev = append(e.rev, name)
	return nil, false
}

// ValidateInput checks the decoded JSON body of a call to the procedure endpoint against its
// input schema (https://atproto.com/specs/lexicon#query-and-procedure-http-api), stopping at
// the first problem. A procedure whose input has no schema takes any body; one that declares
// no input takes none, and any value is then refused.
func (c *Catalog) ValidateInput(endpoint string, v any, o Options) error {
	return c.body(endpoint, v, o, true)
}

// ValidateOutput checks the decoded JSON body of a response from the query or procedure
// endpoint against its output schema, as ValidateInput does.
func (c *Catalog) ValidateOutput(endpoint string, v any, o Options) error {
	return c.body(endpoint, v, o, false)
}

func (c *Catalog) body(endpoint string, v any, o Options, input bool) error {
	st := state{cat: c, mode: o.Mode}
	n := c.endpoint(&st, endpoint, input)
	if n == nil {
		return st.first()
	}
	b, what := n.output, "output"
	if input {
		b, what = n.input, "input"
	}
	switch {
	case b == nil:
		st.fail(what, "%s declares no %s", endpoint, what)
	case b.schema != nil:
		st.check(b.schema, v)
	}
	st.settle(v)
	return st.first()
}

// ValidateMessage checks a message of the subscription endpoint, whose type the event stream's
// frame header gives ("#commit"; https://atproto.com/specs/event-stream), against that variant
// of the endpoint's message union: at the top level of a message, $type may be left out (the
// spec says it should be), and one that is there must name that variant. A type the union does
// not list is refused when the union is closed; when it is open, the payload need only be an
// object ("Message payloads must always be objects") of values the data model takes.
func (c *Catalog) ValidateMessage(endpoint, typ string, v any, o Options) error {
	st := state{cat: c, mode: o.Mode}
	c.message(&st, endpoint, typ, v)
	st.settle(v)
	return st.first()
}

func (c *Catalog) message(st *state, endpoint, typ string, v any) {
	n := c.lookup(endpoint)
	if n == nil || n.kind != kSubscription {
		st.notFound(endpoint, "a subscription", "")
		return
	}
	full := typ
	if len(typ) > 0 && typ[0] == '#' {
		full = n.name + typ // n.name, not endpoint, which may end in #main
	}
	u := n.message
	i := slices.Index(u.refs, full)
	if i < 0 && u.flags&closedUnion != 0 {
		st.fail("closed", "%q is not one of the messages of %s", clip(typ), endpoint)
		return
	}
	m, ok := v.(map[string]any)
	mt, typed := m["$type"]
	s, _ := mt.(string)
	if !ok || m == nil || typed && s != full {
		// Read as the data model reads it: a Go value, null, a "$type" of a Go string type, a
		// map typed "blob" (a blob).
		if g, conv := st.dataModel(v, typed); conv {
			st.conv = true
			c.message(st, endpoint, typ, g)
			st.conv = false
			return
		}
	}
	if !ok || m == nil {
		// "Message payloads must always be objects" (https://atproto.com/specs/event-stream),
		// whatever their type, listed or not. The legacy blob's shape is that object, as where a
		// schema says object.
		if m, ok = legacyBlobObject(v); !ok {
			st.fail("type", "expected an object, found %s", typeName(v))
			return
		}
	}
	if typed && s != full {
		// Payloads "should omit the $type field, as this information is already indicated in
		// the header" (https://atproto.com/specs/event-stream); one that names another type
		// contradicts the header, whether the union lists that type or not.
		st.failAt("$type", -1, "$type", "%q is not the frame's type %q", clip(fmt.Sprint(mt)), full)
		return
	}
	if i < 0 {
		// A type the open union does not list: an object, not checked against a schema, but
		// still a data-model value (settle checks what is not plain), as the content of an
		// unlisted variant in a record's open union is.
		if !st.plain(m, min(plainDepth, datamodel.DefaultMaxDepth-st.depth)) {
			st.whole = true
		}
		return
	}
	t := u.targets[i]
	if t.kind == kRecord {
		t = t.record
	}
	st.object(t, m, typed)
}

// endpoint finds a query, procedure or subscription (a procedure when input is asked for).
func (c *Catalog) endpoint(st *state, name string, input bool) *node {
	n := c.lookup(name)
	if n != nil && (n.kind == kQuery || n.kind == kProcedure || n.kind == kSubscription) {
		if !input || n.kind == kProcedure {
			return n
		}
	}
	what := "an XRPC endpoint"
	if input {
		what = "a procedure"
	}
	st.notFound(name, what, "")
	return nil
}
