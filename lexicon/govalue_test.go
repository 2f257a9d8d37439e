package lexicon

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/atcore/atcore/datamodel"
)

// Go values at the validators: any Go value v is validated as the generic value
// datamodel.UnmarshalCBOR(datamodel.MarshalCBOR(v)), and a v that MarshalCBOR refuses is an
// error at the path datamodel gives (rule "data-model").

const goSchema = `{"lexicon": 1, "id": "com.example.go", "defs": {
  "main": {"type": "record", "key": "any", "record": {"type": "object",
    "required": ["text"], "nullable": ["maybe"],
    "properties": {
      "text": {"type": "string", "maxLength": 10},
      "n": {"type": "integer", "maximum": 9},
      "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxLength": 2},
      "maybe": {"type": "array", "items": {"type": "string"}},
      "meta": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string", "maxLength": 2}}},
      "obj": {"type": "ref", "ref": "#obj"},
      "pic": {"type": "blob", "accept": ["image/*"], "maxSize": 100},
      "link": {"type": "cid-link"},
      "data": {"type": "bytes", "maxLength": 4},
      "free": {"type": "unknown"},
      "embed": {"type": "union", "refs": ["#obj"]}
    }}},
  "obj": {"type": "object", "properties": {"x": {"type": "integer", "maximum": 9}}},
  "strings": {"type": "array", "items": {"type": "string"}, "maxLength": 2}
}}`

func goCatalog(t testing.TB) *Catalog {
	t.Helper()
	return catalogOf(t, "go.json", goSchema)
}

// goObj is com.example.go#obj, also as a union variant.
type goObj struct {
	Type string `cbor:"$type,omitempty"`
	X    int32  `cbor:"x,omitempty"`
}

// goRec is a record struct as a Lexicon code generator writes one (cbor tags).
type goRec struct {
	Type  string            `cbor:"$type"`
	Text  string            `cbor:"text"`
	N     int32             `cbor:"n,omitempty"`
	Tags  []string          `cbor:"tags,omitempty"`
	Maybe []string          `cbor:"maybe"`
	Meta  map[string]string `cbor:"meta,omitempty"`
	Obj   *goObj            `cbor:"obj,omitempty"`
	Pic   *datamodel.Blob   `cbor:"pic,omitempty"`
	Link  *datamodel.Link   `cbor:"link,omitempty"`
	Data  datamodel.Bytes   `cbor:"data,omitempty"`
	Embed any               `cbor:"embed,omitempty"`
	Extra any               `cbor:"extra,omitempty"`
}

// goJSONRec is keyed by json tags, which the data model reads when there is no cbor tag.
type goJSONRec struct {
	Type string          `json:"$type"`
	Text string          `json:"text"`
	N    int64           `json:"n,omitempty"`
	Pic  datamodel.Blob  `json:"pic"`
	Link datamodel.Link  `json:"link"`
	Data datamodel.Bytes `json:"data"`
}

// goFloatRec has a float, which the data model has not.
type goFloatRec struct {
	Type string  `cbor:"$type"`
	Text string  `cbor:"text"`
	N    float64 `cbor:"n"`
}

// goCycle refers to itself.
type goCycle struct {
	Type string   `cbor:"$type"`
	Text string   `cbor:"text"`
	Next *goCycle `cbor:"next"`
}

type goNSID string

const testCID = "bafkreigtwooi3an26ijkcijsjd2cqipipifydkfqaaalt2pg7ksbx34q7u"

func testLink(t testing.TB) datamodel.Link {
	t.Helper()
	return mustJSON(t, `{"$link": "`+testCID+`"}`).(datamodel.Link)
}

// blobMap is a generic map of the blob's shape, as a program may build one.
func blobMap(t testing.TB, mime string, size int64) map[string]any {
	return map[string]any{"$type": "blob", "ref": testLink(t), "mimeType": mime, "size": size}
}

// goValueCases are records given as Go values other than the generic ones, or generic ones that
// the data model reads otherwise; rule "" is valid.
func goValueCases(t testing.TB) []struct {
	name       string
	v          any
	path, rule string
} {
	link := testLink(t)
	b := datamodel.Blob{Ref: link, MimeType: "image/png", Size: 5}
	rec := func(kv ...any) map[string]any {
		m := map[string]any{"$type": "com.example.go", "text": "hi"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	cyc := &goCycle{Type: "com.example.go", Text: "hi"}
	cyc.Next = cyc
	loop := []any{nil}
	loop[0] = loop
	nest := func(levels int) any {
		var v any = "x"
		for range levels {
			v = map[string]any{"a": []any{v}}
		}
		return v
	}
	return []struct {
		name       string
		v          any
		path, rule string
	}{
		{"struct record", goRec{Type: "com.example.go", Text: "hi", N: 3, Tags: []string{"a", "b"}, Maybe: []string{"x"},
			Meta: map[string]string{"a": "x"}, Obj: &goObj{X: 1}, Pic: &b, Link: &link, Data: datamodel.Bytes("abc"),
			Embed: goObj{Type: "com.example.go#obj", X: 2}}, "", ""},
		{"pointer to a struct record", &goRec{Type: "com.example.go", Text: "hi"}, "", ""},
		{"struct record, json tags, Blob, Link and Bytes fields", goJSONRec{Type: "com.example.go", Text: "hi", Pic: b, Link: link, Data: datamodel.Bytes("ab")}, "", ""},
		{"struct record, bad string", goRec{Type: "com.example.go", Text: "far too long a text"}, "/text", "maxLength"},
		{"struct record, int32 over maximum", goRec{Type: "com.example.go", Text: "hi", N: 10}, "/n", "maximum"},
		{"struct record, []string too long", goRec{Type: "com.example.go", Text: "hi", Tags: []string{"a", "b", "c"}}, "/tags", "maxLength"},
		{"struct record, []string element", goRec{Type: "com.example.go", Text: "hi", Tags: []string{"abcd"}}, "/tags/0", "maxLength"},
		{"struct record, map[string]string member", goRec{Type: "com.example.go", Text: "hi", Meta: map[string]string{"b": "xyz"}}, "/meta/b", "maxLength"},
		{"struct record, nested struct", goRec{Type: "com.example.go", Text: "hi", Obj: &goObj{X: 10}}, "/obj/x", "maximum"},
		{"struct record, Blob field", goRec{Type: "com.example.go", Text: "hi", Pic: &datamodel.Blob{Ref: link, MimeType: "text/plain", Size: 5}}, "/pic", "accept"},
		{"struct record, Bytes field", goJSONRec{Type: "com.example.go", Text: "hi", Pic: b, Link: link, Data: datamodel.Bytes("abcde")}, "/data", "maxLength"},
		{"struct record, union variant struct", goRec{Type: "com.example.go", Text: "hi", Embed: &goObj{Type: "com.example.go#obj", X: 10}}, "/embed/x", "maximum"},
		{"struct record, nil slice is null", goRec{Type: "com.example.go", Text: "hi"}, "", ""},
		{"struct record, float", goFloatRec{Type: "com.example.go", Text: "hi", N: 1.5}, "/n", "data-model"},
		{"struct record, float in a field the schema does not name", goRec{Type: "com.example.go", Text: "hi", Extra: 2.5}, "/extra", "data-model"},
		{"struct record, float and a bad string: the data model first", goFloatRec{Type: "com.example.go", Text: "far too long a text", N: 1.5}, "/n", "data-model"},
		{"struct record, cycle", cyc, "", "data-model"}, // path: where datamodel stops
		{"map record, []string", rec("tags", []string{"a", "b"}), "", ""},
		{"map record, []string too long", rec("tags", []string{"a", "b", "c"}), "/tags", "maxLength"},
		{"map record, int32", rec("n", int32(9)), "", ""},
		{"map record, int32 over maximum", rec("n", int32(10)), "/n", "maximum"},
		{"map record, uint8", rec("n", uint8(200)), "/n", "maximum"},
		{"map record, map[string]string", rec("meta", map[string]string{"a": "x", "b": "yz"}), "", ""},
		{"map record, map[string]string bad", rec("meta", map[string]string{"b": "xyz"}), "/meta/b", "maxLength"},
		{"map record, struct member", rec("obj", goObj{X: 3}), "", ""},
		{"map record, *string", rec("text", new(string)), "", ""},
		{"map record, nil *string", rec("text", (*string)(nil)), "/text", "nullable"},
		{"map record, nil []string where nullable", rec("maybe", []string(nil)), "", ""},
		{"map record, nil []any where nullable", rec("maybe", []any(nil)), "", ""},
		{"map record, nil []any where not nullable", rec("tags", []any(nil)), "/tags", "nullable"},
		{"map record, nil map[string]any in an array", rec("tags", []any{map[string]any(nil)}), "/tags/0", "type"},
		{"map record, named string $type", map[string]any{"$type": goNSID("com.example.go"), "text": "hi"}, "", ""},
		{"map record, named string $type, bad", map[string]any{"$type": goNSID("com.example.go"), "text": "far too long a text"}, "/text", "maxLength"},
		{"map record, float in an array", rec("tags", []any{"a", 1.5}), "/tags/1", "data-model"},
		{"map record, float in a member the schema does not name", rec("other", 1.5), "/other", "data-model"},
		{"map record, float inside an unknown", rec("free", map[string]any{"x": 1.5}), "/free/x", "data-model"},
		{"map record, non-string map keys", rec("meta", map[int]string{1: "x"}), "/meta", "data-model"},
		{"map record, a cycle the schema does not name", rec("other", loop), "", "data-model"},
		{"map record, typed objects inside an unknown", rec("free", map[string]any{"$type": "com.example.x", "a": []any{map[string]any{"$type": "com.example.y"}, blobMap(t, "image/png", 5)}}), "", ""},
		{"map record, Go values inside an unknown", rec("free", map[string]any{"a": []string{"x"}, "b": int32(1), "c": &b}), "", ""},
		{"map record, empty $type inside an unknown", rec("free", map[string]any{"a": map[string]any{"$type": ""}}), "/free/a/$type", "data-model"},
		{"map record, $link key in a member the schema does not name", rec("other", map[string]any{"$link": testCID}), "/other/$link", "data-model"},
		{"map record, $bytes key inside an unknown", rec("free", map[string]any{"$bytes": "AA"}), "/free/$bytes", "data-model"},
		{"map record, deep member the schema does not name", rec("other", nest(7)), "", ""},
		{"map record, too deep a member the schema does not name", rec("other", nest(20)), "", "data-model"},
		{"map record, too long a key in a member the schema does not name", rec(strings.Repeat("k", datamodel.DefaultMaxKeyLen+1), int64(1)), "", "data-model"},
		{"map record, too long a key inside a member the schema does not name", rec("other", map[string]any{strings.Repeat("k", datamodel.DefaultMaxKeyLen+1): int64(1)}), "", "data-model"},
		{"map record, too many elements in a member the schema does not name", rec("other", make([]any, datamodel.DefaultMaxElements+1)), "/other", "data-model"},
		{"map record, too many elements in an array the schema names", rec("maybe", slices.Repeat([]any{"x"}, datamodel.DefaultMaxElements+1)), "/maybe", "data-model"},
		{"map record, float in an open union's variant of a type the catalog does not hold", rec("embed", map[string]any{"$type": "com.example.zzz", "x": 1.5}), "/embed/x", "data-model"},
		{"map record, $link key in an open union's variant of a type the catalog does not hold", rec("embed", map[string]any{"$type": "com.example.zzz", "x": map[string]any{"$link": testCID}}), "/embed/x/$link", "data-model"},
		{"map record, Go values in an open union's variant of a type the catalog does not hold", rec("embed", map[string]any{"$type": "com.example.zzz", "x": []string{"a"}, "y": &goObj{X: 1}}), "", ""},
		{"map record, Link undefined inside an unknown", rec("free", map[string]any{"l": datamodel.Link{}}), "/free/l", "data-model"},
		{"map record, []byte", rec("data", []byte("abc")), "", ""},
		{"map record, []byte too long", rec("data", []byte("abcde")), "/data", "maxLength"},
		{"map record, *Blob", rec("pic", &b), "", ""},
		{"map record, Blob with a negative size", rec("pic", datamodel.Blob{Ref: link, MimeType: "image/png", Size: -1}), "/pic/size", "data-model"},
		// A map typed "blob" is a blob in the data model (its bytes decode to a Blob).
		{"blob-shaped map where the schema says blob", rec("pic", blobMap(t, "image/png", 5)), "", ""},
		{"blob-shaped map where the schema says blob, maxSize", rec("pic", blobMap(t, "image/png", 500)), "/pic", "maxSize"},
		{"blob-shaped map where the schema says blob, accept", rec("pic", blobMap(t, "text/plain", 5)), "/pic", "accept"},
		{"blob-shaped map[string]any with Go values", rec("pic", map[string]any{"$type": goNSID("blob"), "ref": link, "mimeType": "image/png", "size": int32(5)}), "", ""},
		{"blob-shaped map where the schema says unknown", rec("free", blobMap(t, "image/png", 5)), "/free", "type"},
		{"blob-shaped map where the schema says object", rec("obj", blobMap(t, "image/png", 5)), "/obj", "type"},
		{"blob-shaped map where the schema says object, in an array", rec("tags", []any{blobMap(t, "image/png", 5)}), "/tags/0", "type"},
		{"blob-shaped map in an open union", rec("embed", blobMap(t, "image/png", 5)), "/embed", "type"},
		{"blob-shaped map that is no blob (extra key), where the schema says object", rec("obj", map[string]any{"$type": "blob", "ref": link, "mimeType": "image/png", "size": int64(5), "x": int64(1)}), "/obj/x", "data-model"},
		{"blob-shaped map as the record", blobMap(t, "image/png", 5), "", "type"},
		{"legacy blob-shaped map as the record", map[string]any{"cid": testCID, "mimeType": "image/png"}, "", "type"},
		{"legacy blob-shaped map in an open union", rec("embed", map[string]any{"cid": testCID, "mimeType": "image/png"}), "/embed", "type"},
		{"legacy blob-shaped map where the schema says blob", rec("pic", map[string]any{"cid": testCID, "mimeType": "image/png"}), "/pic", "blob"},
	}
}

// dataModelPath returns the path of datamodel's error for v, or ok false when MarshalCBOR takes v.
func dataModelPath(v any) (string, bool) {
	_, err := datamodel.MarshalCBOR(v)
	var de *datamodel.Error
	if errors.As(err, &de) {
		return de.Path, true
	}
	return "", false
}

func TestGoValues(t *testing.T) {
	c := goCatalog(t)
	for _, r := range goValueCases(t) {
		err := c.ValidateRecord(r.v, Options{})
		if r.rule == "" {
			if err != nil {
				t.Errorf("%s: %v", r.name, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrValue) {
			t.Errorf("%s: %v, want an *Error matching ErrValue", r.name, err)
			continue
		}
		path := r.path
		if p, refused := dataModelPath(r.v); refused {
			if r.rule != "data-model" {
				t.Errorf("%s: the data model refuses the value, the case says %q", r.name, r.rule)
			}
			if path == "" {
				path = p
			} else if p != path {
				t.Errorf("%s: datamodel says %q, the case %q", r.name, p, path)
			}
		}
		if e.Path != path || e.Rule != r.rule {
			t.Errorf("%s: %v; want at %q rule %q", r.name, err, path, r.rule)
		}
	}
}

// TestGoValueVerdicts holds every validator to the rule: the verdict on v, the path and rule
// of its first error, and the full check's errors and warnings, are those on
// UnmarshalCBOR(MarshalCBOR(v)); a v that MarshalCBOR refuses is a "data-model" error at
// datamodel's path.
func TestGoValueVerdicts(t *testing.T) {
	c := goCatalog(t)
	var values []any
	for _, r := range goValueCases(t) {
		values = append(values, r.v)
		if m, ok := r.v.(map[string]any); ok {
			// The same members in an object the schema does not describe, and in an unknown.
			values = append(values, map[string]any{"$type": "com.example.go", "text": "hi", "free": m})
		}
	}
	for i, v := range values {
		data, merr := datamodel.MarshalCBOR(v)
		if merr != nil {
			p, _ := dataModelPath(v)
			want := fmt.Sprintf("%v %q %q", ErrValue, p, "data-model")
			if got := describeErr(c.ValidateRecord(v, Options{})); got != want {
				t.Errorf("%d (%T): ValidateRecord: %s; MarshalCBOR refuses it (%v), want %s", i, v, got, merr, want)
			}
			if got := describeReport(c.CheckRecord(v, Options{})); got != want+"; " {
				t.Errorf("%d (%T): CheckRecord: %s; want %s", i, v, got, want)
			}
			if got := describeErr(c.ValidateValue("com.example.go", v, Options{})); got != want {
				t.Errorf("%d (%T): ValidateValue: %s; want %s", i, v, got, want)
			}
			continue
		}
		g, err := datamodel.UnmarshalCBOR(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{}, {Mode: Lenient}} {
			if got, want := describeErr(c.ValidateRecord(v, o)), describeErr(c.ValidateRecord(g, o)); got != want {
				t.Errorf("%d (%T): ValidateRecord: %s; its data-model value: %s", i, v, got, want)
			}
			if got, want := describeReport(c.CheckRecord(v, o)), describeReport(c.CheckRecord(g, o)); got != want {
				t.Errorf("%d (%T): CheckRecord: %s; its data-model value: %s", i, v, got, want)
			}
			for _, ref := range []string{"com.example.go", "com.example.go#obj", "com.example.go#strings"} {
				if got, want := describeErr(c.ValidateValue(ref, v, o)), describeErr(c.ValidateValue(ref, g, o)); got != want {
					t.Errorf("%d (%T): ValidateValue %s: %s; its data-model value: %s", i, v, ref, got, want)
				}
			}
		}
	}
}

func TestGoValueDefinitions(t *testing.T) {
	c := goCatalog(t)
	for _, r := range []struct {
		ref        string
		v          any
		path, rule string
	}{
		{"com.example.go#strings", []string{"a", "b"}, "", ""},
		{"com.example.go#strings", [2]string{"a", "b"}, "", ""},
		{"com.example.go#strings", []string{"a", "b", "c"}, "", "maxLength"},
		{"com.example.go#strings", []int32{1}, "/0", "type"},
		{"com.example.go#strings", []float64{1}, "/0", "data-model"},
		{"com.example.go#obj", map[string]int32{"x": 3}, "", ""},
		{"com.example.go#obj", map[string]int32{"x": 30}, "/x", "maximum"},
		{"com.example.go#obj", &goObj{X: 30}, "/x", "maximum"},
		{"com.example.go#obj", (*goObj)(nil), "", "type"},
	} {
		err := c.ValidateValue(r.ref, r.v, Options{})
		if r.rule == "" {
			if err != nil {
				t.Errorf("%s %#v: %v", r.ref, r.v, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrValue) || e.Path != r.path || e.Rule != r.rule {
			t.Errorf("%s %#v: %v; want ErrValue at %q rule %q", r.ref, r.v, err, r.path, r.rule)
		}
	}
}

// A blob-shaped map where an object is expected is one error in a full check, with no warning
// about the blob's members, which the object's schema does not name.
func TestCheckBlobShapedObject(t *testing.T) {
	c := goCatalog(t)
	rec := map[string]any{"$type": "com.example.go", "text": "hi", "obj": blobMap(t, "image/png", 5)}
	r := c.CheckRecord(rec, Options{})
	if len(r.Errors) != 1 || len(r.Warnings) != 0 || r.Errors[0].Path != "/obj" || r.Errors[0].Rule != "type" {
		t.Errorf("got %v (warnings %v); want one type error at /obj", r.Errors, r.Warnings)
	}
}

func TestGoValueEndpoints(t *testing.T) {
	s, err := ParseSchema("ep.json", []byte(`{"lexicon": 1, "id": "com.example.ep", "defs": {
  "main": {"type": "procedure", "input": {"encoding": "application/json", "schema": {"type": "ref", "ref": "com.example.go#obj"}},
    "output": {"encoding": "application/json", "schema": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}, "maxLength": 1}}}}}
}}`))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := ParseSchema("sub.json", []byte(`{"lexicon": 1, "id": "com.example.sub", "defs": {
  "main": {"type": "subscription", "message": {"schema": {"type": "union", "refs": ["com.example.go#obj"]}}}
}}`))
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseSchema("go.json", []byte(goSchema))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(s, sub, g)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error, path, rule string) {
		t.Helper()
		if rule == "" {
			if err != nil {
				t.Errorf("%s: %v", what, err)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Path != path || e.Rule != rule {
			t.Errorf("%s: %v; want at %q rule %q", what, err, path, rule)
		}
	}
	check("input struct", c.ValidateInput("com.example.ep", goObj{X: 1}, Options{}), "", "")
	check("input struct, bad", c.ValidateInput("com.example.ep", goObj{X: 10}, Options{}), "/x", "maximum")
	check("input blob-shaped", c.ValidateInput("com.example.ep", blobMap(t, "image/png", 5), Options{}), "", "type")
	check("output []string", c.ValidateOutput("com.example.ep", map[string]any{"tags": []string{"a", "b"}}, Options{}), "/tags", "maxLength")
	check("output float", c.ValidateOutput("com.example.ep", map[string]any{"tags": []float32{1}}, Options{}), "/tags/0", "data-model")
	check("message struct", c.ValidateMessage("com.example.sub", "com.example.go#obj", goObj{X: 1}, Options{}), "", "")
	check("message struct, bad", c.ValidateMessage("com.example.sub", "com.example.go#obj", &goObj{X: 10}, Options{}), "/x", "maximum")
	legacy := map[string]any{"cid": testCID, "mimeType": "image/png"}
	check("message legacy blob-shaped", c.ValidateMessage("com.example.sub", "com.example.go#obj", legacy, Options{}), "", "")
	check("message legacy Blob", c.ValidateMessage("com.example.sub", "com.example.go#obj", mustJSON(t, `{"cid": "`+testCID+`", "mimeType": "image/png"}`), Options{}), "", "")
	check("message blob-shaped", c.ValidateMessage("com.example.sub", "com.example.go#obj", blobMap(t, "image/png", 5), Options{}), "", "type")
}

// A decoded record with members the schema does not name and an unknown is checked by the data
// model too, still without allocating when valid.
func TestUnnamedMembersAllocs(t *testing.T) {
	c := goCatalog(t)
	rec := mustJSON(t, `{"$type": "com.example.go", "text": "hi", "other": [1, "x", {"y": true}], "free": {"a": {"b": [1, 2]}}}`)
	if err := c.ValidateRecord(rec, Options{}); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = c.ValidateRecord(rec, Options{}) }); allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

// A map typed "blob" given as a record stored under a collection is a blob, no record, whatever
// the collection: the verdict on its data-model value, not a $type that is not the collection.
func TestCollectionOfABlobShapedMap(t *testing.T) {
	c := goCatalog(t)
	o := Options{Collection: "com.example.go"}
	v := blobMap(t, "image/png", 5)
	var e *Error
	if err := c.ValidateRecord(v, o); !errors.As(err, &e) || e.Path != "" || e.Rule != "type" {
		t.Errorf("ValidateRecord: %v; want a type error at \"\"", err)
	}
	if r := c.CheckRecord(v, o); len(r.Errors) != 1 || r.Errors[0].Path != "" || r.Errors[0].Rule != "type" {
		t.Errorf("CheckRecord: %v; want one type error at \"\"", r.Errors)
	}
}

// Values nested through a schema that refers to itself are held to the data model's depth
// limit (datamodel.DefaultMaxDepth), at the path datamodel gives, wherever the deepest level
// is: in the named properties, a member the schema does not name or an unknown; a cycle of
// maps is refused, not followed for ever.
func TestGoValueDepth(t *testing.T) {
	s, err := ParseSchema("node.json", []byte(`{"lexicon": 1, "id": "com.example.node", "defs": {
  "main": {"type": "record", "key": "any", "record": {"type": "object", "properties": {"next": {"type": "ref", "ref": "#node"}}}},
  "node": {"type": "object", "properties": {"next": {"type": "ref", "ref": "#node"}, "free": {"type": "unknown"},
    "list": {"type": "array", "items": {"type": "ref", "ref": "#node"}}, "pic": {"type": "blob"}, "n": {"type": "integer"}}}
}}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(s)
	if err != nil {
		t.Fatal(err)
	}
	b := datamodel.Blob{Ref: testLink(t), MimeType: "image/png", Size: 5}
	leaves := []func() map[string]any{
		func() map[string]any { return map[string]any{} },
		func() map[string]any { return map[string]any{"n": int64(1)} },
		func() map[string]any { return map[string]any{"pic": b} },
		func() map[string]any { return map[string]any{"list": []any{map[string]any{}}} },
		func() map[string]any { return map[string]any{"free": map[string]any{"a": map[string]any{"b": "x"}}} },
		func() map[string]any { return map[string]any{"other": map[string]any{"a": []any{"x"}}} },
		func() map[string]any { return map[string]any{"other": []any{b}} },
	}
	for levels := 26; levels <= 33; levels++ {
		for j, leaf := range leaves {
			m := leaf()
			for range levels {
				m = map[string]any{"next": m}
			}
			m["$type"] = "com.example.node"
			want := "valid"
			if p, refused := dataModelPath(m); refused {
				want = fmt.Sprintf("%q %q", p, "data-model")
			}
			got := "valid"
			var e *Error
			if err := c.ValidateRecord(m, Options{}); errors.As(err, &e) {
				got = fmt.Sprintf("%q %q", e.Path, e.Rule)
			}
			if got != want {
				t.Errorf("%d levels, leaf %d: %s; want %s", levels, j, got, want)
			}
		}
	}
	loop := map[string]any{}
	loop["next"] = loop
	rec := map[string]any{"$type": "com.example.node", "next": loop}
	if err := c.ValidateRecord(rec, Options{}); !errors.Is(err, ErrValue) {
		t.Errorf("a cycle: %v", err)
	}
	if r := c.CheckRecord(rec, Options{}); len(r.Errors) != 1 || r.Errors[0].Rule != "data-model" {
		t.Errorf("a cycle, full check: %v", r.Errors)
	}
}

// A record of more values than the data model's limit (datamodel.DefaultMaxValues), each array
// within the limit on elements, is refused as MarshalCBOR refuses it, wherever the values are.
func TestGoValueValuesLimit(t *testing.T) {
	c := goCatalog(t)
	many := slices.Repeat([]any{"x"}, datamodel.DefaultMaxElements)
	more := make([]any, datamodel.DefaultMaxValues-datamodel.DefaultMaxElements)
	for _, v := range []map[string]any{
		{"$type": "com.example.go", "text": "hi", "maybe": many, "other": more},
		{"$type": "com.example.go", "text": "hi", "maybe": many, "free": map[string]any{"a": more}},
		{"$type": "com.example.go", "text": "hi", "other": many, "more": []any{more}},
	} {
		p, refused := dataModelPath(v)
		if !refused {
			t.Fatal("MarshalCBOR takes it")
		}
		var e *Error
		if err := c.ValidateRecord(v, Options{}); !errors.As(err, &e) || e.Path != p || e.Rule != "data-model" {
			t.Errorf("%v; want a data-model error at %q", err, p)
		}
	}
}
