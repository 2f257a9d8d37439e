package datamodel

import "strconv"

// Reading a record's "$type" without decoding it, to route records (a firehose, a repository
// export) before deciding which, if any, to decode (issue 15).
//
// Both calls return a sub-slice of their input rather than a string: a string would cost an
// allocation per record (a copy), or alias bytes the caller may reuse for the next record (an
// unsafe view of a firehose buffer changes under the string). A []byte costs nothing and
// says what it is; Go converts it for free where it is compared: switch string(t), m[string(t)],
// string(t) == "app.bsky.feed.post".

// RecordTypeCBOR returns the "$type" of the DAG-CBOR record in data, reading only the record's
// map head and the entries before "$type", without allocating. The result is a sub-slice of data
// (valid as long as data is not modified): string(t) copies it.
//
// DAG-CBOR sorts map keys length-first, then bytewise (DECISIONS rule 9), so "$type" comes after
// every key of four bytes or fewer and after the five-byte keys that sort before it (none that
// starts with a letter or digit, since '$' is 0x24); RecordTypeCBOR skips the entries before it,
// reading each skipped string from its head alone, and stops at the first key that sorts after
// "$type". A skipped value is walked item by item with a counter, not recursion: constant stack,
// time linear in the bytes skipped, whatever the nesting.
//
// What it checks: data starts with a map head; every item head it reads (the keys and values
// before "$type", nested ones included) is in its shortest form and of definite length, with a
// count or length that fits in the bytes present; those keys are text strings; simple values are
// false, true or null (no floats); the only tag is 42; the value of "$type" is a non-empty text
// string of valid UTF-8. What it does not check: anything after the "$type" value (trailing
// bytes included), the order of the keys, the UTF-8 of skipped strings, the range of skipped
// integers, the CIDs of skipped links, nesting depth and the other limits. A record whose type
// it reads may still fail UnmarshalCBOR; whenever UnmarshalCBOR accepts data, RecordTypeCBOR
// returns exactly the "$type" of the decoded map (or "blob" for a top-level Blob), and an error
// when the decoded value has no "$type" or is not a map.
//
// The error is an *Error with the byte offset of the item at fault:
//
//   - ErrNotRecord: data is a well-formed item other than a map (offset 0).
//   - ErrType: the map has no "$type" key (Detail "no $type key", offset 0), or its value is not
//     a non-empty text string (offset of the value); Path is "/$type".
//   - ErrInvalidUTF8: the "$type" string is not valid UTF-8.
//   - ErrTruncated, ErrNonMinimal, ErrIndefinite, ErrSyntax, ErrKeyNotString, ErrFloat,
//     ErrSimpleValue, ErrTag: what the scanner reports for the same head, at the path of the
//     entry being skipped.
func RecordTypeCBOR(data []byte) ([]byte, error) {
	t, err := recordTypeCBOR(data)
	if err != nil {
		return nil, finished(err)
	}
	return t, nil
}

func recordTypeCBOR(data []byte) ([]byte, *Error) { return recordTypeNoting(data, nil) }

// recordTypeNoting is recordTypeCBOR, whose skips of the entries before "$type" note in notes,
// when it is not nil, where the "$type" of each map they pass lies (see cborTypeNotes).
func recordTypeNoting(data []byte, notes *cborTypeNotes) ([]byte, *Error) {
	major, n, p, err := cborHead(data, 0)
	if err != nil {
		return nil, err
	}
	if major != 5 {
		if major == 7 {
			if err := cborSimple(n, 0); err != nil {
				return nil, err
			}
		}
		return nil, cborErr(ErrNotRecord, 0, describeHead(data[0]))
	}
	if n > uint64(len(data)-p)/2 {
		return nil, cborErr(ErrTruncated, 0, "map of "+strconv.FormatUint(n, 10)+" entries")
	}
	for range int(n) {
		kmajor, klen, ks, err := cborHead(data, p)
		if err != nil {
			return nil, err
		}
		if kmajor != 3 {
			return nil, cborErr(ErrKeyNotString, p, cborMajorNames[kmajor])
		}
		if klen > uint64(len(data)-ks) {
			return nil, cborErr(ErrTruncated, p, "text string of "+count(klen, "bytes"))
		}
		ke := ks + int(klen)
		if int(klen) >= len("$type") {
			// The comparisons convert without copying: a long key costs no allocation.
			if int(klen) == len("$type") && string(data[ks:ke]) == "$type" {
				t, err := peekTypeCBOR(data, ke)
				if err != nil {
					return nil, err.atKey("$type")
				}
				return t, nil
			}
			if int(klen) > len("$type") || string(data[ks:ke]) > "$type" {
				return nil, errNoRecordType(0) // every later key sorts after "$type" too
			}
		}
		if p, err = peekSkipCBOR(data, ke, notes); err != nil {
			return nil, err.atKey(string(data[ks:ke]))
		}
	}
	return nil, errNoRecordType(0)
}

// cborTypeNotes is where a typed decode's looks for its union members' "$type" (typedDecoder.union)
// note the "$type" of the maps they skip over: at maps the offset of each such map's head, in the
// whole input, to the offset of its "$type" value, so that no member's look skips the same bytes
// again. base is the offset in the whole input of the data being looked at, maxDepth the depth
// below which nothing is noted (the decode refuses deeper values), and open the skip's stack of
// the containers it is in.
type cborTypeNotes struct {
	at       map[int]int
	base     int
	maxDepth int
	open     []cborOpen
	deep     bool // the skip went deeper than maxDepth: it notes nothing more
}

// cborOpen is a container a noting skip is in: the items of it still to come (a map's keys and
// values counted apart), and its head's offset if it is a map, -1 otherwise.
type cborOpen struct {
	left, mapAt int
}

// errNoRecordType is the error for a record map, at off, with no "$type" key.
func errNoRecordType(off int) *Error {
	err := valueError(ErrType, "no $type key").atKey("$type")
	err.Offset = off
	return err
}

// peekTypeCBOR reads the value of "$type" at off: a non-empty text string of valid UTF-8.
func peekTypeCBOR(data []byte, off int) ([]byte, *Error) {
	major, n, p, err := cborHead(data, off)
	if err != nil {
		return nil, err
	}
	if major != 3 || n == 0 {
		return nil, &Error{Err: ErrType, Offset: off, Detail: typeWant + describeHead(data[off])}
	}
	end, err := cborText(data, off, p, n)
	if err != nil {
		return nil, err
	}
	return data[p:end:end], nil
}

// peekSkipCBOR returns the offset just past the item at off, reading heads only. pending counts the
// items still to skip, nested ones included, so that no nesting recurses; each must take at least
// a byte (a map entry two), which a count is checked against before it is added: pending never
// exceeds the bytes left, and a forged count costs nothing. With notes (not nil), it also notes
// there where the "$type" value of each map it skips lies.
func peekSkipCBOR(data []byte, off int, notes *cborTypeNotes) (int, *Error) {
	if notes != nil {
		notes.open, notes.deep = notes.open[:0], false
	}
	for pending := 1; pending > 0; pending-- {
		if off >= len(data) {
			return 0, cborErr(ErrTruncated, off, "")
		}
		// Most heads hold their argument in the initial byte; cborHead reads the others.
		major, arg, p := data[off]>>5, uint64(data[off]&0x1f), off+1
		if arg >= 24 {
			var err *Error
			if major, arg, p, err = cborHead(data, off); err != nil {
				return 0, err
			}
		}
		// The bytes left for this item's contents, after one for each other pending item.
		room := uint64(max(0, len(data)-p-(pending-1)))
		switch major {
		case 2, 3:
			if arg > room {
				return 0, cborErr(ErrTruncated, off, cborMajorNames[major]+" of "+count(arg, "bytes"))
			}
			p += int(arg)
		case 4, 5:
			if arg > room || major == 5 && arg > room/2 {
				return 0, cborErr(ErrTruncated, off, cborMajorNames[major]+" of "+count(arg, "elements"))
			}
			pending += int(arg)
			if major == 5 {
				pending += int(arg)
			}
		case 6:
			if arg != cborTagCID {
				return 0, cborErr(ErrTag, off, "tag "+strconv.FormatUint(arg, 10))
			}
			pending++
		case 7:
			if err := cborSimple(arg, off); err != nil {
				return 0, err
			}
		}
		if notes != nil {
			notes.item(data, off, p, major, arg)
		}
		off = p
	}
	return off, nil
}

// item accounts for the item whose head is at off (its contents, for a string, end at end) in
// the skip's stack of open containers, and notes the value's offset when the item is the key
// "$type" of a map. Only a map's first "$type" is noted: a duplicate key is the decode's to refuse.
func (n *cborTypeNotes) item(data []byte, off, end int, major byte, arg uint64) {
	if n.deep {
		return
	}
	if k := len(n.open) - 1; k >= 0 {
		top := &n.open[k]
		if top.mapAt >= 0 && top.left%2 == 0 && major == 3 && string(data[end-int(arg):end]) == "$type" {
			at := n.base + top.mapAt
			if _, ok := n.at[at]; !ok {
				if n.at == nil {
					n.at = make(map[int]int)
				}
				n.at[at] = n.base + end
			}
		}
		top.left--
	}
	if (major == 4 || major == 5 || major == 6) && arg > 0 {
		if len(n.open) >= n.maxDepth {
			n.deep = true // the decode refuses this value: no note is needed below it
			return
		}
		o := cborOpen{left: int(arg), mapAt: -1}
		if major == 5 {
			o.left, o.mapAt = 2*int(arg), off
		} else if major == 6 {
			o.left = 1 // the tagged item
		}
		n.open = append(n.open, o)
	}
	for k := len(n.open) - 1; k >= 0 && n.open[k].left == 0; k-- {
		n.open = n.open[:k]
	}
}

// RecordTypeJSON returns the "$type" of the atproto JSON record in data, scanning the top-level
// object's members up to "$type" without building any value, and without allocating unless the
// "$type" string holds escapes. The result is a sub-slice of data (valid as long as data is not
// modified), or, for an escaped string, a new slice of its unescaped bytes.
//
// JSON objects are unordered, so "$type" may be any member: the members before it are skipped,
// each value delimited and not read (strings to their closing quote, brackets counted, with no
// recursion whatever the nesting). Keys are compared after unescaping ("\u0024type" is
// "$type"). The first "$type" member wins: scanning stops there, so a later duplicate, which
// UnmarshalJSON rejects (ErrDuplicateKey), is not seen.
//
// What it checks: the first value is an object; the keys before "$type" are well-formed strings
// followed by ':'; strings (keys and skipped values) are well-formed, with valid escapes and
// UTF-8; skipped members are separated by ','; the "$type" value is a non-empty string. What it
// does not check: anything after the "$type" value, the grammar inside skipped values beyond
// their strings and brackets (numbers and literals are delimited, not parsed), duplicate keys,
// the limits. A record whose type it reads may still fail UnmarshalJSON; whenever UnmarshalJSON
// accepts data, RecordTypeJSON returns exactly the "$type" of the decoded object (or "blob" for
// a top-level Blob), and an error when the decoded value has no "$type" or is not an object.
//
// The error is an *Error with the byte offset at fault: ErrNotRecord when the first value is
// not an object; ErrType when the object has no "$type" (Detail "no $type key", at the
// object's '{') or its value is not a non-empty string (at the value), with Path "/$type";
// otherwise what UnmarshalJSON reports for the same bytes (ErrSyntax, ErrTruncated,
// ErrInvalidUTF8).
func RecordTypeJSON(data []byte) ([]byte, error) {
	d := getJSONDecoder()
	d.data, d.pos = data, 0
	t, err := d.peekRecordType()
	d.data = nil
	if cap(d.buf) > jsonMaxPooledScratch {
		d.buf = nil
	}
	putJSONDecoder(d)
	if err != nil {
		return nil, finished(err)
	}
	return t, nil
}

func (d *jsonDecoder) peekRecordType() ([]byte, *Error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, d.failEnd("a value")
	}
	if c := d.data[d.pos]; c != '{' {
		if what := peekJSONKind(c); what != "" {
			return nil, d.fail(ErrNotRecord, d.pos, "found "+what)
		}
		return nil, d.failByte("a value")
	}
	obj := d.pos
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		return nil, errNoRecordType(obj)
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.failByte("a string key")
		}
		key, err := d.peekString()
		if err != nil {
			return nil, err
		}
		isType := string(key) == "$type"
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.failByte("':'")
		}
		d.pos++
		d.skipSpace()
		if isType {
			return d.peekTypeValue()
		}
		if err := d.peekSkipValue(); err != nil {
			return nil, err.atKey(string(key))
		}
		d.skipSpace()
		switch {
		case d.pos >= len(d.data):
			return nil, d.failEnd("',' or '}'")
		case d.data[d.pos] == ',':
			d.pos++
		case d.data[d.pos] == '}':
			return nil, errNoRecordType(obj)
		default:
			return nil, d.failByte("',' or '}'")
		}
	}
}

// peekString reads the string at d.pos, as string does, with errors as *Error.
func (d *jsonDecoder) peekString() ([]byte, *Error) {
	s, err := d.string()
	if err != nil {
		return nil, err.(*Error)
	}
	return s, nil
}

// peekTypeValue reads the value of "$type" at d.pos: a non-empty string. An escaped one is copied
// out of d.buf, which the next decode reuses.
func (d *jsonDecoder) peekTypeValue() ([]byte, *Error) {
	off := d.pos
	if d.pos >= len(d.data) {
		return nil, d.failEnd("a value").atKey("$type")
	}
	if c := d.data[d.pos]; c != '"' {
		if what := peekJSONKind(c); what != "" {
			return nil, d.fail(ErrType, off, typeWant+"found "+what).atKey("$type")
		}
		return nil, d.failByte("a value").atKey("$type")
	}
	t, err := d.peekString()
	if err != nil {
		return nil, err.atKey("$type")
	}
	if len(t) == 0 {
		return nil, d.fail(ErrType, off, typeWant+"found an empty string").atKey("$type")
	}
	if &t[0] != &d.data[off+1] { // unescaped into d.buf
		t = append([]byte(nil), t...)
	}
	return t[:len(t):len(t)], nil
}

// peekJSONKind names the JSON value that starts with c, as describe names a decoded one, or ""
// if no value starts with c.
func peekJSONKind(c byte) string {
	switch {
	case c == '"':
		return "a string"
	case c == '[':
		return "an array"
	case c == '{':
		return "an object"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return ""
}

// peekSkipValue moves d.pos past the value at d.pos, without building it: strings are read to their
// closing quote (escapes and UTF-8 checked), brackets counted (not matched: inside a value that
// UnmarshalJSON accepts they match), literals compared and numbers delimited. depth counts the
// open brackets, so that no nesting recurses. With d.noteTypes (a typed decode's union members,
// see typedJSONDecoder.union), it also notes in d.typeAt where the "$type" value of each object
// it skips lies.
func (d *jsonDecoder) peekSkipValue() *Error {
	depth := 0
	// With d.noteTypes: the '{' offset of each open object (-1 for an array), in d.typeOpen, and
	// whether the next string is an object's key.
	note, keyNext := d.noteTypes, false
	d.typeOpen = d.typeOpen[:0]
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.failEnd("a value")
		}
		switch c := d.data[d.pos]; {
		case c == '"':
			s, err := d.peekString()
			if err != nil {
				return err
			}
			if keyNext && string(s) == "$type" {
				d.noteType(d.typeOpen[len(d.typeOpen)-1])
			}
			keyNext = false
		case c == '{' || c == '[':
			depth++
			// Deeper than the limit, the decode will refuse the value: nothing to note there.
			if note && depth > d.limits.MaxDepth {
				note, keyNext = false, false
			}
			if note {
				obj := -1
				if c == '{' {
					obj = d.pos
				}
				d.typeOpen = append(d.typeOpen, obj)
				keyNext = obj >= 0
			}
			d.pos++
			continue
		case c == '}' || c == ']':
			if depth == 0 {
				return d.failByte("a value")
			}
			depth--
			if note {
				d.typeOpen = d.typeOpen[:depth]
			}
			keyNext = false
			d.pos++
		case c == ',' || c == ':':
			if depth == 0 {
				return d.failByte("a value")
			}
			keyNext = note && c == ',' && d.typeOpen[depth-1] >= 0
			d.pos++
			continue
		case c == 't' || c == 'f' || c == 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			if err := d.matchLiteral(lit); err != nil {
				return err // as UnmarshalJSON reports it
			}
		case c == '-' || c >= '0' && c <= '9':
			d.pos++
			for d.pos < len(d.data) && peekNumberByte(d.data[d.pos]) {
				d.pos++
			}
		default:
			return d.failByte("a value")
		}
		if depth == 0 {
			return nil
		}
	}
}

// noteType notes in d.typeAt that the "$type" member whose key peekSkipValue has just read
// belongs to the object at obj: the offset of its value, after the ':' (if the key is followed
// by one; a malformed member is left for the decode to report). A later "$type" of the same
// object, a duplicate that the decode refuses, does not replace the first.
func (d *jsonDecoder) noteType(obj int) {
	if _, ok := d.typeAt[obj]; ok {
		return
	}
	if d.typeAt == nil {
		d.typeAt = make(map[int]int)
	}
	p := d.pos
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ':' {
		d.pos++
		d.skipSpace()
		d.typeAt[obj] = d.pos
	}
	d.pos = p
}

// peekNumberByte reports whether c may continue a JSON number.
func peekNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
