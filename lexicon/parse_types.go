// Parsing of one definition by type. In this file: def, the dispatch on "type" with the place
// rules (allowed, in parse.go) and the simple types inline; integerDef, stringDef, lengths,
// blobDef and validAccept; objectDef (object and params); endpointDef and body (query,
// procedure, subscription); permissionSetDef and permissionDef.

package lexicon

import (
	"strconv"
	"strings"

	"github.com/atcore/atcore/rkey"
)

// def parses one schema definition at ptr, allowed at w.
func (p *parser) def(v any, ptr string, w where) *node {
	if p.err != nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.fail(ptr, "type", "a schema definition is an object, not %s", jsonKind(v))
		return nil
	}
	t, _ := p.str(m, ptr, "type", true)
	p.str(m, ptr, "description", false)
	if p.err != nil {
		return nil
	}
	k, ok := kindByName(t)
	if !ok {
		p.fail(ptr+"/type", "type", "unknown type %q", clip(t))
		return nil
	}
	if !allowed(k, w) {
		p.fail(ptr+"/type", "type", "type %q cannot be %s", clip(t), whereNames[w])
		return nil
	}
	n := &node{kind: k}
	switch k {
	case kBoolean:
		if b, ok := p.boolean(m, ptr, "const"); ok {
			n.flags |= hasConst
			n.constBool = b
		}
		if b, ok := p.boolean(m, ptr, "default"); ok {
			n.flags |= hasDefault
			n.def = b
			p.notBoth(n, ptr)
		}
	case kInteger:
		p.integerDef(n, m, ptr)
	case kString:
		p.stringDef(n, m, ptr)
	case kBytes:
		p.lengths(n, m, ptr, "minLength", "maxLength", hasMinLen, hasMaxLen, &n.minLen, &n.maxLen)
	case kBlob:
		p.blobDef(n, m, ptr)
	case kArray:
		p.lengths(n, m, ptr, "minLength", "maxLength", hasMinLen, hasMaxLen, &n.minLen, &n.maxLen)
		items, ok := p.field(m, ptr, "items", true)
		if ok {
			iw := atField
			if w == atParam {
				iw = atParamItems
			}
			n.items = p.def(items, ptr+"/items", iw)
		}
	case kObject, kParams:
		p.objectDef(n, m, ptr)
	case kRef:
		ref, ok := p.str(m, ptr, "ref", true)
		if ok {
			n.ref = p.fullRef(ref, ptr+"/ref")
		}
		n.file, n.ptr = p.file, ptr+"/ref"
	case kUnion:
		refs, ok := p.strings(m, ptr, "refs", true, false)
		closed, _ := p.boolean(m, ptr, "closed")
		if closed {
			n.flags |= closedUnion
			if ok && len(refs) == 0 {
				p.fail(ptr+"/refs", "refs", "an empty closed union is invalid")
			}
		}
		seen := make(map[string]bool, len(refs)) // a set: a union may list many thousands
		for i, r := range refs {
			full := p.fullRef(r, ptr+"/refs/"+strconv.Itoa(i))
			if seen[full] {
				p.fail(ptr+"/refs/"+strconv.Itoa(i), "refs", "%q is listed twice", clip(r))
			}
			seen[full] = true
			n.refs = append(n.refs, full)
		}
		n.file, n.ptr = p.file, ptr+"/refs"
	case kRecord:
		key, ok := p.str(m, ptr, "key", true)
		if ok {
			kt, err := rkey.ParseKeyType(key)
			if err != nil {
				p.fail(ptr+"/key", "key", "%v", err)
			}
			n.key = kt
		}
		if r, ok := p.field(m, ptr, "record", true); ok {
			n.record = p.def(r, ptr+"/record", atRecord)
		}
	case kQuery, kProcedure, kSubscription:
		p.endpointDef(n, m, ptr)
	case kPermissionSet:
		p.permissionSetDef(m, ptr)
	case kPermission:
		p.permissionDef(m, ptr)
	}
	if p.err != nil {
		return nil
	}
	return n
}

func kindByName(t string) (kind, bool) {
	for k, name := range kindNames {
		if name == t {
			return kind(k), true
		}
	}
	return 0, false
}

func (p *parser) integerDef(n *node, m map[string]any, ptr string) {
	if v, ok := p.integer(m, ptr, "minimum", false); ok {
		n.flags |= hasMin
		n.minimum = v
	}
	if v, ok := p.integer(m, ptr, "maximum", false); ok {
		n.flags |= hasMax
		n.maximum = v
		if n.flags&hasMin != 0 && n.minimum > v {
			p.fail(ptr+"/maximum", "maximum", "%d is below minimum %d", v, n.minimum)
		}
	}
	if a, ok := p.array(m, ptr, "enum", false); ok {
		for i, v := range a {
			e, ok := p.asInt(v, ptr+"/enum/"+strconv.Itoa(i), "enum")
			if !ok {
				return
			}
			n.enumInt = append(n.enumInt, e)
		}
		if n.enumInt == nil {
			n.enumInt = []int64{} // an empty enum allows nothing
		}
	}
	if v, ok := p.integer(m, ptr, "const", false); ok {
		n.flags |= hasConst
		n.constInt = v
	}
	if v, ok := p.integer(m, ptr, "default", false); ok {
		n.flags |= hasDefault
		n.def = v
		p.notBoth(n, ptr)
	}
	// A const or default the definition itself refuses is a contradiction in the schema.
	for _, key := range []string{"const", "default"} {
		if v, ok := m[key]; ok && p.err == nil {
			i, _ := p.asInt(v, ptr+"/"+key, key)
			st := state{}
			if !st.integer(n, i) {
				p.fail(ptr+"/"+key, key, "%d does not satisfy the definition: %s", i, st.errs[0].Detail)
			}
		}
	}
}

// notBoth refuses a definition with both const and default: they are mutually exclusive
// (https://atproto.com/specs/lexicon#string; a constant has no other value to default to).
func (p *parser) notBoth(n *node, ptr string) {
	if n.flags&hasConst != 0 && n.flags&hasDefault != 0 {
		p.fail(ptr+"/default", "default", "const and default are mutually exclusive")
	}
}

func (p *parser) stringDef(n *node, m map[string]any, ptr string) {
	if f, ok := p.str(m, ptr, "format", false); ok {
		n.format = formatByName(f)
		if n.format == nil {
			p.fail(ptr+"/format", "format", "unknown string format %q", clip(f))
			return
		}
	}
	p.lengths(n, m, ptr, "minLength", "maxLength", hasMinLen, hasMaxLen, &n.minLen, &n.maxLen)
	p.lengths(n, m, ptr, "minGraphemes", "maxGraphemes", hasMinGraphemes, hasMaxGraphemes, &n.minGr, &n.maxGr)
	n.known, _ = p.strings(m, ptr, "knownValues", false, false)
	if e, ok := p.strings(m, ptr, "enum", false, false); ok {
		n.enumStr = e
		if n.enumStr == nil {
			n.enumStr = []string{}
		}
	}
	if c, ok := p.str(m, ptr, "const", false); ok {
		n.flags |= hasConst
		n.constStr = c
	}
	if v, ok := p.str(m, ptr, "default", false); ok {
		n.flags |= hasDefault
		n.def = v
		p.notBoth(n, ptr)
	}
	for _, key := range []string{"const", "default"} {
		if v, ok := m[key].(string); ok && p.err == nil {
			st := state{}
			if !st.string(n, v) {
				p.fail(ptr+"/"+key, key, "%q does not satisfy the definition: %s", clip(v), st.errs[0].Detail)
			}
		}
	}
}

// lengths reads a pair of non-negative bounds and checks min ≤ max.
func (p *parser) lengths(n *node, m map[string]any, ptr, minKey, maxKey string, minFlag, maxFlag uint16, lo, hi *int64) {
	if v, ok := p.length(m, ptr, minKey); ok {
		n.flags |= minFlag
		*lo = v
	}
	if v, ok := p.length(m, ptr, maxKey); ok {
		n.flags |= maxFlag
		*hi = v
		if n.flags&minFlag != 0 && *lo > v {
			p.fail(ptr+"/"+maxKey, maxKey, "%d is below %s %d", v, minKey, *lo)
		}
	}
}

func (p *parser) blobDef(n *node, m map[string]any, ptr string) {
	if v, ok := p.length(m, ptr, "maxSize"); ok {
		n.flags |= hasMaxSize
		n.maxSize = v
	}
	accept, ok := p.strings(m, ptr, "accept", false, false)
	if !ok {
		return
	}
	for i, a := range accept {
		if !validAccept(a) {
			p.fail(ptr+"/accept/"+strconv.Itoa(i), "accept", "%q is not a MIME type or a type/* pattern", clip(a))
			return
		}
	}
	n.accept = accept
	if n.accept == nil {
		n.accept = []string{}
	}
}

// validAccept: "type/subtype", "type/*" or "*/*"; not "*" alone nor partial globs
// (https://atproto.com/specs/lexicon#blob).
func validAccept(a string) bool {
	typ, sub, ok := strings.Cut(a, "/")
	if !ok || typ == "" || sub == "" || strings.Contains(sub, "/") {
		return false
	}
	if typ == "*" {
		return sub == "*"
	}
	if strings.Contains(typ, "*") {
		return false
	}
	return sub == "*" || !strings.Contains(sub, "*")
}

func (p *parser) objectDef(n *node, m map[string]any, ptr string) {
	props, _ := p.object(m, ptr, "properties", true)
	required, _ := p.strings(m, ptr, "required", false, false)
	var nullable []string
	if n.kind == kObject {
		nullable, _ = p.strings(m, ptr, "nullable", false, false)
	}
	if p.err != nil {
		return
	}
	w := atField
	if n.kind == kParams {
		w = atParam
	}
	n.index = make(map[string]int, len(props))
	for _, name := range sortedKeys(props) {
		child := p.def(props[name], ptr+"/properties/"+escapeToken(name), w)
		if p.err != nil {
			return
		}
		n.index[name] = len(n.props)
		n.props = append(n.props, prop{name: name, node: child})
		if name == "$type" {
			n.flags |= namesType
		}
	}
	n.lastReq = -1
	for i, name := range required {
		j, ok := n.index[name]
		if !ok {
			p.fail(ptr+"/required/"+strconv.Itoa(i), "required", "%q is not a property", clip(name))
			return
		}
		n.props[j].required = true
		n.lastReq = max(n.lastReq, j)
	}
	for i, name := range nullable {
		j, ok := n.index[name]
		if !ok {
			p.fail(ptr+"/nullable/"+strconv.Itoa(i), "nullable", "%q is not a property", clip(name))
			return
		}
		n.props[j].nullable = true
	}
}

func (p *parser) endpointDef(n *node, m map[string]any, ptr string) {
	if v, ok := p.field(m, ptr, "parameters", false); ok {
		n.params = p.def(v, ptr+"/parameters", atEndpoint)
	}
	if n.kind == kSubscription {
		if _, ok := m["input"]; ok {
			p.fail(ptr+"/input", "input", "only a procedure has an input")
		}
		msg, ok := p.object(m, ptr, "message", true)
		if ok {
			p.str(msg, ptr+"/message", "description", false)
			if s, ok := p.field(msg, ptr+"/message", "schema", true); ok {
				n.message = p.def(s, ptr+"/message/schema", atMessage)
			}
		}
	} else {
		n.output = p.body(m, ptr, "output")
		if n.kind == kProcedure {
			n.input = p.body(m, ptr, "input")
		} else if _, ok := m["input"]; ok {
			p.fail(ptr+"/input", "input", "only a procedure has an input")
		}
	}
	errs, _ := p.array(m, ptr, "errors", false)
	for i, e := range errs {
		ep := ptr + "/errors/" + strconv.Itoa(i)
		em, ok := e.(map[string]any)
		if !ok {
			p.fail(ep, "errors", "an error is an object, not %s", jsonKind(e))
			return
		}
		name, ok := p.str(em, ep, "name", true)
		if ok && (name == "" || strings.ContainsAny(name, " \t\r\n")) {
			p.fail(ep+"/name", "name", "%q: an error name is short, with no whitespace", clip(name))
		}
		p.str(em, ep, "description", false)
	}
}

func (p *parser) body(m map[string]any, ptr, key string) *body {
	bm, ok := p.object(m, ptr, key, false)
	if !ok {
		return nil
	}
	ptr += "/" + key
	b := &body{}
	b.encoding, _ = p.str(bm, ptr, "encoding", true)
	p.str(bm, ptr, "description", false)
	if s, ok := p.field(bm, ptr, "schema", false); ok {
		b.schema = p.def(s, ptr+"/schema", atBody)
	}
	return b
}

func (p *parser) permissionSetDef(m map[string]any, ptr string) {
	p.str(m, ptr, "title", false)
	p.str(m, ptr, "detail", false)
	for _, key := range []string{"title:lang", "detail:lang"} {
		lm, _ := p.object(m, ptr, key, false)
		for _, lang := range sortedKeys(lm) {
			lp := ptr + "/" + escapeToken(key) + "/" + escapeToken(lang)
			if err := languageFormat.check(lang); err != nil {
				p.fail(lp, key, "%q is not a language tag", clip(lang))
			}
			if _, ok := lm[lang].(string); !ok {
				p.fail(lp, key, "must map to strings, not %s", jsonKind(lm[lang]))
			}
		}
	}
	perms, _ := p.array(m, ptr, "permissions", true)
	for i, v := range perms {
		p.def(v, ptr+"/permissions/"+strconv.Itoa(i), atPermissions)
	}
}

// permissionDef checks the resources a permission set may grant in a Lexicon
// (https://atproto.com/specs/lexicon#permission): repo and rpc. Other resources (blob, account,
// identity, and any added later) are to be ignored, so they are not checked.
func (p *parser) permissionDef(m map[string]any, ptr string) {
	res, _ := p.str(m, ptr, "resource", true)
	switch res {
	case "repo":
		cols, ok := p.strings(m, ptr, "collection", true, true)
		if ok && len(cols) == 0 {
			p.fail(ptr+"/collection", "collection", "must name at least one collection")
		}
		for i, c := range cols {
			if nsidFormat.check(c) != nil {
				p.fail(ptr+"/collection/"+strconv.Itoa(i), "collection", "%q is not an NSID (no wildcard in a Lexicon)", clip(c))
			}
		}
		acts, _ := p.strings(m, ptr, "action", false, true)
		for i, a := range acts {
			if a != "create" && a != "update" && a != "delete" {
				p.fail(ptr+"/action/"+strconv.Itoa(i), "action", "%q is not create, update or delete", clip(a))
			}
		}
	case "rpc":
		// The spec's text forbids a wildcard lxm in a Lexicon, but the official catalog vector
		// (permission-set.json) has lxm ["*"] with inheritAud, and the rule it states is that
		// aud and lxm cannot both be wildcards: that is the rule followed.
		lxm, ok := p.strings(m, ptr, "lxm", true, false)
		if ok && len(lxm) == 0 {
			p.fail(ptr+"/lxm", "lxm", "must name at least one endpoint")
		}
		wildLXM := false
		for i, l := range lxm {
			if l == "*" {
				wildLXM = true
			} else if nsidFormat.check(l) != nil {
				p.fail(ptr+"/lxm/"+strconv.Itoa(i), "lxm", "%q is not an NSID or \"*\"", clip(l))
			}
		}
		inherit, _ := p.boolean(m, ptr, "inheritAud")
		aud, hasAud := p.str(m, ptr, "aud", false)
		switch {
		case hasAud && aud != "*":
			p.fail(ptr+"/aud", "aud", "%q: a permission set's aud is \"*\" or absent with inheritAud", clip(aud))
		case hasAud && wildLXM:
			p.fail(ptr+"/aud", "aud", "aud and lxm cannot both be wildcards")
		case !hasAud && !inherit:
			p.fail(ptr, "aud", "aud is required unless inheritAud is true")
		}
	}
}
