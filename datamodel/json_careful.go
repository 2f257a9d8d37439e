package datamodel

import (
	"errors"
	"slices"
	"strconv"
)

// The careful object path: objectCareful collects an object's members on a stack and
// finishObject checks them together, applying the data-model rules (rules.go) with the offset of
// the member at fault. It decides every object the quick path (json_quick.go) hands over, and
// every object of a decode that met errJSONCareful.

// objectCareful reads { "key": value, … } and turns it into a map, a Link, Bytes or a Blob,
// collecting the members on a stack and checking them together in finishObject.
func (d *jsonDecoder) objectCareful() (any, error) {
	start := d.pos
	d.depth++
	// A $link or $bytes object is a leaf of the data model (a CBOR tag or byte string, not a map),
	// so it may sit one level below MaxDepth; finish checks the depth of everything else.
	if d.depth > d.limits.MaxDepth+1 {
		return nil, d.fail(ErrTooDeep, start, overLimit(-1, "", d.limits.MaxDepth))
	}
	d.room()
	d.pos++ // {
	d.skipSpace()
	base := len(d.members)
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
	} else {
		for n := 0; ; n++ {
			if n >= d.limits.MaxElements {
				d.popMembers(base)
				return nil, d.failTooManyElements()
			}
			m, err := d.member()
			if err != nil {
				d.popMembers(base)
				if err == errJSONOverDeep {
					err = d.fail(ErrTooDeep, start, overLimit(-1, "", d.limits.MaxDepth))
				}
				return nil, err
			}
			d.members = append(d.members, m)
			more, serr := d.next('}', "',' or '}'")
			if serr != nil {
				d.popMembers(base)
				return nil, serr
			}
			if !more {
				break
			}
		}
	}
	v, err := d.finishObject(start, d.members[base:])
	if err == nil {
		switch v.(type) {
		case Link, Bytes:
		default:
			err = d.take(len(d.members)-base, start)
		}
	}
	d.popMembers(base)
	d.depth--
	if err != nil {
		return nil, err
	}
	return v, nil
}

// errJSONOverDeep is member's report that the object being read, one level below MaxDepth, has
// a container value: objectCareful refuses the object (ErrTooDeep at its start).
var errJSONOverDeep = errors.New("datamodel: internal: an object beyond MaxDepth")

// member reads "key": value; the whitespace before it has been skipped.
func (d *jsonDecoder) member() (jsonMember, error) {
	m := jsonMember{keyOff: d.pos}
	key, err := d.memberKey()
	if err != nil {
		return jsonMember{}, err
	}
	m.key, m.valOff = key, d.pos
	if d.depth > d.limits.MaxDepth && d.pos < len(d.data) && (d.data[d.pos] == '{' || d.data[d.pos] == '[') {
		// The object is one level below MaxDepth, where only a $link or $bytes leaf may sit,
		// and a leaf's member is a string: this one is a map (or a blob), beyond the limit
		// itself, and is refused where it starts, as UnmarshalCBOR refuses its map, not at
		// the member's value one level further down.
		return jsonMember{}, errJSONOverDeep
	}
	if m.val, err = d.memberValue(key); err != nil {
		return jsonMember{}, err
	}
	return m, nil
}

// keyLongWay is memberKey for every key it does not read itself: one that is not 1 to 15 plain
// bytes, or is longer than MaxKeyLen, or ends too near the end of the input for memberKey's word
// loads. Out of line, as colon is: most keys never come here.
//
//go:noinline
func (d *jsonDecoder) keyLongWay() (string, error) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", d.failByte("a string key")
	}
	keyOff := d.pos
	kb, err := d.string()
	if err != nil {
		return "", err
	}
	// The key of a $link or $bytes object is not a map key: the object is a leaf (a CBOR tag or
	// byte string), and elsewhere the key is refused by rule 10 anyway.
	if len(kb) > d.limits.MaxKeyLen && string(kb) != "$link" && string(kb) != "$bytes" {
		return "", d.fail(ErrKeyTooLong, keyOff, overLimit(len(kb), "bytes", d.limits.MaxKeyLen))
	}
	return d.colon(d.key(kb))
}

// colon reads the colon after key, which memberKey or keyLongWay has just read, with the
// whitespace around it.
//
//go:noinline
func (d *jsonDecoder) colon(key string) (string, error) {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return "", atKey(d.failByte("':'"), key)
	}
	d.pos++
	d.skipSpace()
	return key, nil
}

// memberValue reads the value of the member named key; errors carry the key in their path.
func (d *jsonDecoder) memberValue(key string) (any, error) {
	if key == "$type" && d.pos < len(d.data) && d.data[d.pos] == '"' {
		// A $type string is an NSID that many records repeat: take it from the type cache.
		vb, err := d.string()
		if err != nil {
			return nil, atKey(err, key)
		}
		return d.typeValue(vb), nil
	}
	v, err := d.value()
	if err != nil {
		return nil, atKey(err, key)
	}
	return v, nil
}

// jsonQuadraticDupLimit is the member count up to which duplicate keys are found by comparing
// every pair, which beats hashing for the small objects records are made of.
const jsonQuadraticDupLimit = 8

// finishObject checks the members of the object that starts at offset start and builds its value.
func (d *jsonDecoder) finishObject(start int, ms []jsonMember) (any, error) {
	if len(ms) <= jsonQuadraticDupLimit {
		for i := 1; i < len(ms); i++ {
			for j := 0; j < i; j++ {
				if ms[i].key == ms[j].key {
					return nil, d.dupKey(ms[i])
				}
			}
		}
	}
	// The reserved keys that give an object a meaning of its own (DECISIONS rules 10, 11, 13).
	var typ, cidKey, mimeType *jsonMember
	for i := range ms {
		m := &ms[i]
		switch m.key {
		case "$link":
			return d.link(start, ms, m)
		case "$bytes":
			return d.bytes(start, ms, m)
		case "$type":
			typ = m
		case "cid":
			cidKey = m
		case "mimeType":
			mimeType = m
		}
	}
	if d.depth > d.limits.MaxDepth {
		return nil, d.fail(ErrTooDeep, start, overLimit(-1, "", d.limits.MaxDepth))
	}
	if typ != nil {
		if err := checkType(typ.val); err != nil {
			err.Offset = typ.valOff
			return nil, err
		}
		if typ.val == "blob" {
			return d.blob(start, ms)
		}
	}
	if len(ms) == 2 && cidKey != nil && mimeType != nil {
		if b, ok := legacyBlob(cidKey.val, mimeType.val); ok {
			return d.slabs.boxBlob(b), nil
		}
	}
	out := make(map[string]any, len(ms))
	for _, m := range ms {
		if len(ms) > jsonQuadraticDupLimit {
			if _, dup := out[m.key]; dup {
				return nil, d.dupKey(m)
			}
		}
		out[m.key] = m.val
	}
	return out, nil
}

func (d *jsonDecoder) dupKey(m jsonMember) error {
	return atKey(d.fail(ErrDuplicateKey, m.keyOff, strconv.Quote(m.key)), m.key)
}

// leafString returns the value of the member m of a {"$link": …} or {"$bytes": …} object (ms), with
// the checks rule 10 makes of both: that member alone, holding a string; sentinel is ErrLink or
// ErrBytes.
func (d *jsonDecoder) leafString(start int, ms []jsonMember, m *jsonMember, sentinel error) (string, error) {
	if len(ms) != 1 {
		return "", d.fail(sentinel, start, "a "+m.key+" object has no other keys")
	}
	s, ok := m.val.(string)
	if !ok {
		return "", atKey(d.fail(sentinel, m.valOff, m.key+" must be a string, "+describe(m.val)), m.key)
	}
	return s, nil
}

// link turns {"$link": "<CID>"} into a Link (DECISIONS rules 10, 12).
func (d *jsonDecoder) link(start int, ms []jsonMember, m *jsonMember) (any, error) {
	s, err := d.leafString(start, ms, m, ErrLink)
	if err != nil {
		return nil, err
	}
	c, err := d.parseCID(s)
	if err != nil {
		return nil, atKey(d.fail(ErrInvalidCID, m.valOff, err.Error()), "$link")
	}
	if n := len(c.KeyString()); n > d.limits.MaxCIDLen {
		return nil, atKey(d.fail(ErrInvalidCID, m.valOff, cidTooLong(n, d.limits.MaxCIDLen)), "$link")
	}
	return d.slabs.boxLink(Link(c)), nil
}

// bytes turns {"$bytes": "<base64>"} into Bytes (DECISIONS rule 10: padding optional on read).
func (d *jsonDecoder) bytes(start int, ms []jsonMember, m *jsonMember) (any, error) {
	s, err := d.leafString(start, ms, m, ErrBytes)
	if err != nil {
		return nil, err
	}
	b, err := jsonDecodeBase64(s)
	if err != nil {
		return nil, atKey(d.fail(ErrBytes, m.valOff, err.Error()), "$bytes")
	}
	return b, nil
}

// blob checks the members of an object typed "blob" (rule 13; see blobMember) and builds the
// Blob, reporting an error at the member at fault.
func (d *jsonDecoder) blob(start int, ms []jsonMember) (any, error) {
	var b Blob
	var seen [len(blobKeys)]bool
	for i := range ms {
		m := &ms[i]
		if err := blobMember(&b, m.key, m.val, d.limits.MaxCIDLen); err != nil {
			err.Offset = m.valOff
			if slices.Index(blobKeys[:], m.key) < 0 {
				err.Offset = m.keyOff // an unexpected key
			}
			return nil, err
		}
		if k := slices.Index(blobKeys[:], m.key); k >= 0 {
			seen[k] = true
		}
	}
	for k, ok := range seen {
		if !ok {
			err := errBlobMissing(blobKeys[k])
			err.Offset = start
			return nil, err
		}
	}
	return d.slabs.boxBlob(b), nil
}
