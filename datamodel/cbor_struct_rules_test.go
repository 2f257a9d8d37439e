package datamodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/atcore/atcore/cidutil"
)

// Go types that break a data-model rule by their tags or by a field left at its zero value.
type (
	structRuleType struct {
		Type string `cbor:"$type"`
		Text string `cbor:"text"`
	}
	structRuleIntType struct {
		Type int64 `cbor:"$type"`
	}
	structRuleLinkKey struct {
		Link string `cbor:"$link"`
	}
	structRuleBytesKey struct {
		Bytes Bytes `cbor:"$bytes"`
	}
	structRuleOuter struct {
		Type   string          `cbor:"$type"`
		Embed  *structRuleType `cbor:"embed,omitempty"`
		Extra  map[string]any  `cbor:"extra,omitempty"`
		Images []cborTestImage `cbor:"images,omitempty"`
		Ref    *Link           `cbor:"ref,omitempty"`
		Items  []any           `cbor:"items,omitempty"`
	}
	structRuleBlobTyped struct {
		Type     string `cbor:"$type"`
		Ref      Link   `cbor:"ref"`
		MimeType string `cbor:"mimeType"`
	}
	structRuleFloat struct {
		F float64 `cbor:"f"`
	}
	// structRuleEmbedded promotes the fields of an untagged embedded struct.
	structRuleEmbedded struct {
		structRuleEmbeddedBase
		Text string `json:"text"`
	}
	structRuleEmbeddedBase struct {
		Image Blob `json:"image"`
	}
)

// TestMarshalCBORStructRules: the struct encoder keeps every data-model rule (DECISIONS rules
// 9-14), with the error MarshalCBOR gives for the same tree: the same sentinel, the same Path, and
// Offset -1. RecordCID refuses the struct with the same error.
func TestMarshalCBORStructRules(t *testing.T) {
	raw := cborTestLink(t, cborTestBlobLinkString)
	goodBlob := Blob{Ref: raw, MimeType: "image/png", Size: 3}
	deep := any(int64(1))
	for range DefaultMaxDepth {
		deep = []any{deep}
	}
	rows := []struct {
		rule    string
		v       any // the struct
		generic any // the same tree as MarshalCBOR takes it
		want    error
	}{
		{"rule 11: $type left empty (the README's Post with Type unset)", structRuleType{Text: "hi"},
			map[string]any{"$type": "", "text": "hi"}, ErrType},
		{"rule 11: $type an integer", structRuleIntType{Type: 7},
			map[string]any{"$type": int64(7)}, ErrType},
		{"rule 11: $type left empty in a nested struct", &structRuleOuter{Type: "a.b.c", Embed: &structRuleType{Text: "x"}},
			map[string]any{"$type": "a.b.c", "embed": map[string]any{"$type": "", "text": "x"}}, ErrType},
		{"rule 11: $type empty in a map held by a field", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"x": map[string]any{"$type": ""}}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"x": map[string]any{"$type": ""}}}, ErrType},
		{"rule 10: a field tagged $link", structRuleLinkKey{Link: "bafy"},
			map[string]any{"$link": "bafy"}, ErrLink},
		{"rule 10: a field tagged $bytes", structRuleBytesKey{Bytes: Bytes{1}},
			map[string]any{"$bytes": Bytes{1}}, ErrBytes},
		{"rule 10: a nested map[string]any with a $link key", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"$link": raw.String()}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"$link": raw.String()}}, ErrLink},
		{"rule 10: a $bytes key in a map inside an array", structRuleOuter{Type: "a.b.c", Items: []any{int64(1), map[string]any{"$bytes": "AQ"}}},
			map[string]any{"$type": "a.b.c", "items": []any{int64(1), map[string]any{"$bytes": "AQ"}}}, ErrBytes},
		{"rule 13: a map typed blob with an empty mimeType", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"$type": "blob", "ref": raw, "mimeType": "", "size": int64(1)}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"$type": "blob", "ref": raw, "mimeType": "", "size": int64(1)}}, ErrBlob},
		{"rule 13: a map typed blob without size", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b"}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b"}}, ErrBlob},
		{"rule 13: a map typed blob with an extra key", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(1), "x": int64(0)}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(1), "x": int64(0)}}, ErrBlob},
		{"rule 13: a map typed blob with a negative size", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(-1)}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(-1)}}, ErrBlob},
		{"rule 13: a struct typed blob without the blob shape", structRuleBlobTyped{Type: "blob", Ref: raw, MimeType: "a/b"},
			map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b"}, ErrBlob},
		{"rule 13: a Blob field with an empty MimeType, at its path", structRuleOuter{Type: "a.b.c", Images: []cborTestImage{{Alt: "a", Image: goodBlob}, {Image: Blob{Ref: raw}}}},
			map[string]any{"$type": "a.b.c", "images": []any{
				map[string]any{"alt": "a", "image": goodBlob},
				map[string]any{"alt": "", "image": Blob{Ref: raw}}}}, ErrBlob},
		{"rule 13: a Blob field with an undefined Ref, at its path", structRuleOuter{Type: "a.b.c", Images: []cborTestImage{{Image: Blob{MimeType: "a/b"}}}},
			map[string]any{"$type": "a.b.c", "images": []any{map[string]any{"alt": "", "image": Blob{MimeType: "a/b"}}}}, ErrBlob},
		{"rule 13: a Blob field promoted from an embedded struct", structRuleEmbedded{Text: "t"},
			map[string]any{"image": Blob{}, "text": "t"}, ErrBlob},
		{"rule 12: an undefined Link field, at its path", cborTestLinks{Required: Link{}, Nullable: &raw},
			map[string]any{"required": Link{}, "nullable": raw}, ErrInvalidCID},
		{"rule 12: an undefined *Link field, at its path", structRuleOuter{Type: "a.b.c", Ref: &Link{}},
			map[string]any{"$type": "a.b.c", "ref": Link{}}, ErrInvalidCID},
		{"rule 9: a float field", structRuleFloat{F: 1.5}, map[string]any{"f": 1.5}, ErrFloat},
		{"rule 9: invalid UTF-8 in a nested map key", structRuleOuter{Type: "a.b.c", Extra: map[string]any{"\xff": int64(1)}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{"\xff": int64(1)}}, ErrInvalidUTF8},
		{"rule 14: a map key longer than MaxKeyLen, at its path", structRuleOuter{Type: "a.b.c", Extra: map[string]any{strings.Repeat("k", DefaultMaxKeyLen+1): int64(1)}},
			map[string]any{"$type": "a.b.c", "extra": map[string]any{strings.Repeat("k", DefaultMaxKeyLen+1): int64(1)}}, ErrKeyTooLong},
		{"rule 14: deeper than MaxDepth", structRuleOuter{Type: "a.b.c", Items: []any{deep}},
			map[string]any{"$type": "a.b.c", "items": []any{deep}}, ErrTooDeep},
	}
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			_, gerr := MarshalCBOR(r.generic)
			var ge *Error
			if !errors.As(gerr, &ge) || !errors.Is(gerr, r.want) {
				t.Fatalf("MarshalCBOR(generic) = %v, want %v (the row is wrong)", gerr, r.want)
			}
			out, err := MarshalCBORStruct(r.v)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("MarshalCBORStruct = %x, %v; want %v", out, err, r.want)
			}
			if e.Err != ge.Err || e.Path != ge.Path || e.Offset != -1 {
				t.Errorf("MarshalCBORStruct: %v (path %q, offset %d)\nMarshalCBOR:       %v (path %q)", e, e.Path, e.Offset, ge, ge.Path)
			}
			// The generic entry points take the struct itself (govalue.go), with the same error.
			_, cerr := RecordCID(r.v)
			_, merr := MarshalCBOR(r.v)
			for name, err := range map[string]error{"RecordCID": cerr, "MarshalCBOR": merr} {
				if !errors.As(err, &e) || e.Err != ge.Err || e.Path != ge.Path || e.Offset != -1 {
					t.Errorf("%s(struct) = %v; want MarshalCBOR(generic)'s %v (path %q)", name, err, ge, ge.Path)
				}
			}
		})
	}
}

// TestUnmarshalCBORStructBlobShape: the struct decoder refuses a map typed "blob" without the
// blob shape, as UnmarshalCBOR does (rule 13), with UnmarshalCBOR's error, even where the Go type
// would take it (a map[string]any, a struct with those fields).
func TestUnmarshalCBORStructBlobShape(t *testing.T) {
	raw := cborTestLink(t, cborTestBlobLinkString)
	for _, r := range []struct {
		rule string
		v    any
	}{
		{"rule 13: no size", map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b"}},
		{"rule 13: empty mimeType", map[string]any{"$type": "blob", "ref": raw, "mimeType": "", "size": int64(1)}},
		{"rule 13: ref a string", map[string]any{"$type": "blob", "ref": raw.String(), "mimeType": "a/b", "size": int64(1)}},
		{"rule 13: nested, an extra key", map[string]any{"x": []any{map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(1), "y": nil}}}},
	} {
		t.Run(r.rule, func(t *testing.T) {
			data, err := cborStructEnc.Marshal(r.v) // fxamacker alone writes the bad map
			if err != nil {
				t.Fatal(err)
			}
			_, want := UnmarshalCBOR(data)
			if !errors.Is(want, ErrBlob) || strings.Contains(r.rule, "no size") && !strings.Contains(want.Error(), `missing key "size"`) {
				t.Fatalf("UnmarshalCBOR(%x) = %v, want ErrBlob (the row is wrong)", data, want)
			}
			for _, target := range []any{new(any), new(map[string]any), new(structRuleBlobTyped)} {
				err := UnmarshalCBORStruct(data, target)
				if err == nil || err.Error() != want.Error() {
					t.Errorf("UnmarshalCBORStruct(%T) = %v; want UnmarshalCBOR's %v", target, err, want)
				}
			}
		})
	}
	// The blob shape itself passes, into a map, a Blob or a struct.
	good := map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(1)}
	data, err := MarshalCBOR(good)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	var b Blob
	if err := UnmarshalCBORStruct(data, &m); err != nil {
		t.Errorf("blob into a map: %v", err)
	}
	if err := UnmarshalCBORStruct(data, &b); err != nil || b.MimeType != "a/b" {
		t.Errorf("blob into a Blob: %+v, %v", b, err)
	}
}

// structPropRecord is the Go type of the struct property: fields of every data-model kind, any
// fields that take the random trees of encTreeGen, and a recursive field.
type structPropRecord struct {
	Type  string             `cbor:"$type"`
	Text  string             `cbor:"text,omitempty"`
	N     int64              `cbor:"n"`
	Any   any                `cbor:"any,omitempty"`
	List  []any              `cbor:"list,omitempty"`
	Map   map[string]any     `cbor:"map,omitempty"`
	Link  *Link              `cbor:"link,omitempty"`
	Blob  *Blob              `cbor:"blob,omitempty"`
	Data  Bytes              `cbor:"data,omitempty"`
	Tags  []string           `cbor:"tags,omitempty"`
	Child *structPropRecord  `cbor:"child,omitempty"`
	Kids  []structPropRecord `cbor:"kids,omitempty"`
}

// structProp builds a random structPropRecord from g, at nesting depth depth.
func structProp(g *encTreeGen, depth int) *structPropRecord {
	r := &structPropRecord{}
	pick := func() bool { return g.next()%3 == 0 }
	r.Type = []string{"app.example.record", "", "blob", "$type"}[g.next()%4]
	if pick() {
		r.Text = encTreeKeys[int(g.next())%len(encTreeKeys)]
	}
	r.N = int64(int8(g.next()))
	if pick() {
		r.Any = g.value(depth + 1)
	}
	if pick() {
		if a, ok := g.value(depth + 1).([]any); ok {
			r.List = a
		}
	}
	if pick() {
		r.Map = g.plainMap(depth + 1)
	}
	if pick() {
		l := []Link{g.ref, {}, Link(g.v0)}[g.next()%3]
		r.Link = &l
	}
	if pick() {
		b := []Blob{{Ref: g.ref, MimeType: "a/b", Size: 1}, {Ref: g.ref, MimeType: "a/b", Legacy: true}, {Ref: g.ref}, {MimeType: "a/b", Size: -1}}[g.next()%4]
		r.Blob = &b
	}
	if pick() {
		r.Data = Bytes{g.next()}
	}
	if pick() {
		r.Tags = []string{"x", encTreeKeys[int(g.next())%len(encTreeKeys)]}
	}
	if depth < 4 && pick() {
		r.Child = structProp(g, depth+1)
	}
	if depth < 4 && pick() {
		r.Kids = []structPropRecord{*structProp(g, depth+1)}
	}
	return r
}

// structCheckProperty: whatever an encoder writes, every decoder reads back. For v, a random
// struct or tree, MarshalCBORStruct either refuses it with an *Error without an offset, or writes
// bytes that UnmarshalCBOR, UnmarshalCBORStruct (into v's type and into any) and, through
// CBORToJSON, UnmarshalJSON all read, and that MarshalCBOR writes again byte for byte from
// UnmarshalCBOR's value. A tree MarshalCBOR refuses for a data-model rule (10, 11, 13) the
// struct encoder refuses too.
//
// The generic entry points take the struct itself (govalue.go): MarshalCBOR writes
// MarshalCBORStruct's bytes or refuses it too; Validate, MarshalCBOR and
// MarshalJSON agree on it (encCheckProperty); RecordCID and ValidateRecord agree, and RecordCID
// hashes MarshalCBOR's bytes; Blobs and Links find what they find in the tree the bytes decode to.
func structCheckProperty(t *testing.T, v any) {
	t.Helper()
	out, err := MarshalCBORStruct(v)
	// The generic walker alone: MarshalCBOR itself writes a struct with the typed encoder when
	// it can, so comparing MarshalCBORStruct with it would prove less.
	gout, gerr := cborGeneric(nil, v, nil)
	if gerr != nil {
		gout, gerr = nil, finished(gerr)
	}
	_, isStruct := v.(*structPropRecord)
	if isStruct && ((gerr == nil) != (err == nil) || !bytes.Equal(gout, out)) {
		t.Fatalf("%#v:\ngeneric MarshalCBOR %x, %v\nMarshalCBORStruct   %x, %v", v, gout, gerr, out, err)
	}
	// The same for JSON: MarshalJSONStruct against the generic walker (MarshalJSONIndent with an
	// indent, then compacted: the typed fast path writes compact JSON only).
	jout, jerr := MarshalJSONStruct(v)
	gjout, gjerr := MarshalJSONIndent(v, "", " ")
	if gjerr == nil {
		var c bytes.Buffer
		if err := json.Compact(&c, gjout); err != nil {
			t.Fatal(err)
		}
		gjout = c.Bytes()
	}
	if mj, mjerr := MarshalJSON(v); (mjerr == nil) != (gjerr == nil) || mjerr == nil && !bytes.Equal(mj, gjout) ||
		mjerr != nil && mjerr.Error() != gjerr.Error() {
		t.Fatalf("%#v:\nMarshalJSON         %s, %v\ngeneric MarshalJSON %s, %v", v, mj, mjerr, gjout, gjerr)
	}
	if isStruct && ((gjerr == nil) != (jerr == nil) || !bytes.Equal(gjout, jout)) {
		t.Fatalf("%#v:\nMarshalJSON       %s, %v\nMarshalJSONStruct %s, %v", v, gjout, gjerr, jout, jerr)
	}
	// MarshalCBOR, typed first or not, gives the generic walker's bytes and error.
	if mout, merr := MarshalCBOR(v); (merr == nil) != (gerr == nil) || merr == nil && !bytes.Equal(mout, gout) ||
		merr != nil && merr.Error() != gerr.Error() {
		t.Fatalf("%#v:\nMarshalCBOR         %x, %v\ngeneric MarshalCBOR %x, %v", v, mout, merr, gout, gerr)
	}
	// When both refuse, the first error met may differ: MarshalCBORStruct meets the error of a
	// Link's or Blob's own MarshalCBOR method before the map rules (TestMarshalCBORStructRules
	// checks single errors, with MarshalCBOR's sentinel and path).
	if ge, ok := gerr.(*Error); gerr != nil && (!ok || ge.Offset != -1) {
		t.Fatalf("%#v: MarshalCBOR: %v (%T), not an *Error with Offset -1", v, gerr, gerr)
	}
	encCheckProperty(t, v)
	typedWalkProperty(t, v)
	// Validate and ValidateRecord, typed first or not, give the generic walk's verdict and error.
	verr, gverr := Validate(v), validateGeneric(v, nil)
	if (verr == nil) != (gverr == nil) || verr != nil && verr.Error() != gverr.Error() {
		t.Fatalf("%#v:\nValidate         %v\ngeneric Validate %v", v, verr, gverr)
	}
	grerr := error(errNotRecord(v))
	if m, ok := recordMap(v, DefaultMaxDepth); ok {
		grerr = validateGeneric(m, nil)
		if b, isBlob := mapIsBlob(m); grerr == nil && isBlob {
			grerr = errNotRecord(b) // a blob's shape: not a record (TestBlobShapedIsNoRecord)
		}
	}
	if rerr := ValidateRecord(v); (rerr == nil) != (grerr == nil) || rerr != nil && rerr.Error() != grerr.Error() {
		t.Fatalf("%#v:\nValidateRecord         %v\ngeneric ValidateRecord %v", v, rerr, grerr)
	}
	c, cerr := RecordCID(v)
	// Both refuse or neither; not a record, with the same error (other first errors may differ, as
	// the CBOR encoder walks keys length-first and Validate bytewise).
	if verr := ValidateRecord(v); (cerr == nil) != (verr == nil) || errors.Is(verr, ErrNotRecord) && cerr.Error() != verr.Error() {
		t.Fatalf("%#v: RecordCID: %v; ValidateRecord: %v", v, cerr, verr)
	}
	if cerr == nil && (gerr != nil || !c.Equals(cidutil.SumCBOR(gout))) {
		t.Fatalf("%#v: RecordCID = %v; MarshalCBOR: %x, %v", v, c, gout, gerr)
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Offset != -1 {
			t.Fatalf("%#v: MarshalCBORStruct: %v (%T), not an *Error with Offset -1", v, err, err)
		}
		return
	}
	back, err := UnmarshalCBOR(out)
	if err != nil {
		t.Fatalf("%#v: MarshalCBORStruct wrote %x, which UnmarshalCBOR refuses: %v", v, out, err)
	}
	// (Legacy blobs left out: a plain map of the legacy shape is no blob to Blobs, but decodes as one.)
	if isStruct && (!reflect.DeepEqual(nonLegacy(Blobs(v)), nonLegacy(Blobs(back))) || !reflect.DeepEqual(Links(v), Links(back))) {
		t.Fatalf("%#v: Blobs, Links = %v, %v; of the tree read back: %v, %v", v, Blobs(v), Links(v), Blobs(back), Links(back))
	}
	if again, err := MarshalCBOR(back); err != nil || !bytes.Equal(again, out) {
		t.Fatalf("%#v: MarshalCBORStruct wrote %x; UnmarshalCBOR then MarshalCBOR: %x, %v", v, out, again, err)
	}
	var anyV any
	if err := UnmarshalCBORStruct(out, &anyV); err != nil {
		t.Fatalf("%#v: MarshalCBORStruct wrote %x, which UnmarshalCBORStruct (any) refuses: %v", v, out, err)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct {
		if err := UnmarshalCBORStruct(out, reflect.New(rv.Elem().Type()).Interface()); err != nil {
			t.Fatalf("%#v: MarshalCBORStruct wrote %x, which UnmarshalCBORStruct (%T) refuses: %v", v, out, v, err)
		}
	}
	js, err := CBORToJSON(out)
	if err != nil {
		t.Fatalf("%#v: CBORToJSON(%x): %v", v, out, err)
	}
	if _, err := UnmarshalJSON(js); err != nil {
		t.Fatalf("%#v: MarshalCBORStruct wrote %x, whose JSON %s UnmarshalJSON refuses: %v", v, out, js, err)
	}
}

func nonLegacy(blobs []Blob) (out []Blob) {
	for _, b := range blobs {
		if !b.Legacy {
			out = append(out, b)
		}
	}
	return out
}

// TestMarshalCBORStructProperty runs structCheckProperty over random structs and random trees.
func TestMarshalCBORStructProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, 96)
	accepted := map[bool]int{}
	for i := range 20000 {
		for j := range buf {
			buf[j] = byte(rng.Uint32())
		}
		g := newEncTreeGen(t, buf)
		var v any
		if i%2 == 0 {
			v = structProp(g, 1)
		} else {
			v = g.value(1)
		}
		structCheckProperty(t, v)
		if _, err := MarshalCBORStruct(v); err == nil {
			accepted[i%2 == 0]++
		}
	}
	t.Logf("accepted: %d of 10000 structs, %d of 10000 trees", accepted[true], accepted[false])
	// Both sides of the property must have been exercised, for structs and for trees.
	for _, n := range accepted {
		if n < 500 || n > 9500 {
			t.Errorf("accepted %v: the generators no longer cover both sides", accepted)
		}
	}
}

// FuzzMarshalCBORStructProperty is TestMarshalCBORStructProperty driven by the fuzzer: the first
// byte picks a struct or a tree.
func FuzzMarshalCBORStructProperty(f *testing.F) {
	for _, s := range []string{"", "\x00\x00", "\x01\x0d\x03\x02\x00", "\x00\x01\x03\x11\x00\x05", "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		g := newEncTreeGen(t, data[1:])
		if data[0]&1 == 0 {
			structCheckProperty(t, structProp(g, 1))
		} else {
			structCheckProperty(t, g.value(1))
		}
	})
}
