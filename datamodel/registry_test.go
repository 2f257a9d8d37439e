package datamodel

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/nsid"
)

// Go types for the registry's tests: app.bsky.feed.post with its embed as a union of images (the
// type of cborTestPost's embed), an external link and a quoted record.
type (
	regPost struct {
		Type      string            `cbor:"$type"`
		Text      string            `cbor:"text"`
		Facets    []cborTestFacet   `cbor:"facets,omitempty"`
		Reply     *cborTestReplyRef `cbor:"reply,omitempty"`
		Embed     Union             `cbor:"embed,omitzero"`
		Langs     []string          `cbor:"langs,omitempty"`
		Labels    any               `cbor:"labels,omitempty"`
		CreatedAt string            `cbor:"createdAt"`
	}
	regExternal struct {
		Type     string `cbor:"$type"`
		External struct {
			URI         string `cbor:"uri"`
			Title       string `cbor:"title"`
			Description string `cbor:"description"`
		} `cbor:"external"`
	}
	regRecordEmbed struct {
		Type   string            `cbor:"$type"`
		Record cborTestStrongRef `cbor:"record"`
	}
	regClosedPost struct {
		Type  string      `cbor:"$type"`
		Embed ClosedUnion `cbor:"embed,omitzero"`
	}
	regLike struct {
		Type      string            `cbor:"$type"`
		Subject   cborTestStrongRef `cbor:"subject"`
		CreatedAt string            `cbor:"createdAt"`
	}
)

// regTestRegistry registers the post, its three embeds and the closed post.
func regTestRegistry(t testing.TB) *Registry {
	t.Helper()
	r := new(Registry)
	for _, err := range []error{
		Register[regPost](r, "app.bsky.feed.post"),
		Register[cborTestEmbedImage](r, "app.bsky.embed.images"),
		Register[regExternal](r, "app.bsky.embed.external"),
		Register[regRecordEmbed](r, "app.bsky.embed.record"),
		Register[regClosedPost](r, "app.example.closedPost"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// regTestRecord encodes the generic value v, a record written as JSON, as DAG-CBOR.
func regTestRecord(t testing.TB, js string) []byte {
	t.Helper()
	v, err := UnmarshalJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	out, err := MarshalCBOR(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const regStrong = `{"uri":"at://did:plc:jqtnsb2me7mj5xsze4gavqkl/app.bsky.feed.post/3laerg4w3ob23","cid":"bafyreicicneu2e36cyy3xiyb2wwkw3t3w6vhjtqrqxkfmvs66uoxg5txwi"}`

func TestRegistryPostEmbeds(t *testing.T) {
	r := regTestRegistry(t)
	post := cborTestRecord(t, "post")
	images := func(v any) string { return v.(*cborTestEmbedImage).Images[0].Alt }
	tests := []struct {
		name  string
		data  []byte
		want  reflect.Type
		check func(any) string
		value string
	}{
		{"images (testdata/records/post)", post, reflect.TypeFor[*cborTestEmbedImage](), images,
			"Fishing boats moored in a small harbour at sunrise, the water reflecting orange and pink clouds."},
		{"external", regTestRecord(t, `{"$type":"app.bsky.feed.post","text":"a link","createdAt":"2024-11-08T09:41:27.512Z",
			"embed":{"$type":"app.bsky.embed.external","external":{"uri":"https://example.com","title":"Example","description":""}}}`),
			reflect.TypeFor[*regExternal](), func(v any) string { return v.(*regExternal).External.Title }, "Example"},
		{"record", regTestRecord(t, `{"$type":"app.bsky.feed.post","text":"a quote","createdAt":"2024-11-08T09:41:27.512Z",
			"embed":{"$type":"app.bsky.embed.record","record":`+regStrong+`}}`),
			reflect.TypeFor[*regRecordEmbed](), func(v any) string { return v.(*regRecordEmbed).Record.CID },
			"bafyreicicneu2e36cyy3xiyb2wwkw3t3w6vhjtqrqxkfmvs66uoxg5txwi"},
		{"an open union keeps an unknown type generic", regTestRecord(t, `{"$type":"app.bsky.feed.post","text":"a poll","createdAt":"2024-11-08T09:41:27.512Z",
			"embed":{"$type":"app.example.embed.poll","options":["yes","no"],"closes":{"$link":"bafyreicicneu2e36cyy3xiyb2wwkw3t3w6vhjtqrqxkfmvs66uoxg5txwi"}}}`),
			reflect.TypeFor[map[string]any](), func(v any) string { return v.(map[string]any)["options"].([]any)[1].(string) }, "no"},
		{"an empty array stays [] (decoded to an empty slice, not nil, which is written as null)",
			regTestRecord(t, `{"$type":"app.bsky.feed.post","text":"","createdAt":"","embed":{"$type":"app.bsky.embed.images","images":[]}}`),
			reflect.TypeFor[*cborTestEmbedImage](), func(v any) string { return fmt.Sprint(v.(*cborTestEmbedImage).Images != nil) }, "true"},
		{"no embed", regTestRecord(t, `{"$type":"app.bsky.feed.post","text":"plain","createdAt":"2024-11-08T09:41:27.512Z"}`),
			nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.DecodeCBOR(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := v.(*regPost)
			if !ok {
				t.Fatalf("DecodeCBOR returned %T, want *regPost", v)
			}
			if got := reflect.TypeOf(p.Embed.Value()); got != tt.want {
				t.Fatalf("embed holds %v, want %v", got, tt.want)
			}
			if tt.check != nil {
				if got := tt.check(p.Embed.Value()); got != tt.value {
					t.Errorf("embed: got %q, want %q", got, tt.value)
				}
				if p.Embed.Type() == "" {
					t.Error("Type() is empty")
				}
			}
			// The whole record survives: the same bytes, so the same CID.
			out, err := MarshalCBORStruct(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, tt.data) {
				t.Fatalf("re-encoded record differs:\n got %x\nwant %x", out, tt.data)
			}
			if cidutil.SumCBOR(out) != cidutil.SumCBOR(tt.data) {
				t.Error("CID changed")
			}
			// The generic decode agrees with the typed one, value for value.
			g1, _ := UnmarshalCBOR(tt.data)
			g2, _ := UnmarshalCBOR(out)
			if !reflect.DeepEqual(g1, g2) {
				t.Error("generic values differ")
			}
		})
	}
}

// TestRegistryFragmentMember checks that a union member of a definition other than main, whose
// $type is "nsid#name" (a facet's features, a post's self-labels: most members in the
// Lexicons), registers and decodes into its struct, in an open and in a closed union.
func TestRegistryFragmentMember(t *testing.T) {
	type mention struct {
		Type string `cbor:"$type"`
		DID  string `cbor:"did"`
	}
	type facet struct {
		Index    cborTestByteSlice `cbor:"index"`
		Features []Union           `cbor:"features"`
	}
	type closedFacet struct {
		Index    cborTestByteSlice `cbor:"index"`
		Features []ClosedUnion     `cbor:"features"`
	}
	type post struct {
		Type   string  `cbor:"$type"`
		Facets []facet `cbor:"facets"`
	}
	type closedPost struct {
		Type   string        `cbor:"$type"`
		Facets []closedFacet `cbor:"facets"`
	}
	r := new(Registry)
	for _, err := range []error{
		Register[post](r, "app.bsky.feed.post"),
		Register[closedPost](r, "app.example.closedPost"),
		Register[mention](r, "app.bsky.richtext.facet#mention"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	const facets = `"facets":[{"index":{"byteStart":0,"byteEnd":4},"features":[{"$type":"app.bsky.richtext.facet#mention","did":"did:plc:qg3dpwh42ldnuy2z42ldce5b"}]}]`
	for _, typ := range []string{"app.bsky.feed.post", "app.example.closedPost"} {
		data := regTestRecord(t, `{"$type":"`+typ+`",`+facets+`}`)
		v, err := r.DecodeCBOR(data)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		var member any
		switch p := v.(type) {
		case *post:
			member = p.Facets[0].Features[0].Value()
		case *closedPost:
			member = p.Facets[0].Features[0].Value()
		}
		if m, ok := member.(*mention); !ok || m.DID != "did:plc:qg3dpwh42ldnuy2z42ldce5b" {
			t.Errorf("%s: the member is %#v, want a *mention", typ, member)
		}
		if out, err := MarshalCBOR(v); err != nil || !bytes.Equal(out, data) {
			t.Errorf("%s: re-encoded: %v", typ, err)
		}
	}
	if typ, ok := r.Lookup("app.bsky.richtext.facet#mention"); !ok || typ != reflect.TypeFor[mention]() {
		t.Errorf("Lookup: %v, %v", typ, ok)
	}
}

// TestRegistryDirect checks that the registry decodes the post into what UnmarshalCBORStruct
// gives for the concrete struct, field for field.
func TestRegistryDirect(t *testing.T) {
	r := regTestRegistry(t)
	post := cborTestRecord(t, "post")
	var direct cborTestPost
	if err := UnmarshalCBORStruct(post, &direct); err != nil {
		t.Fatal(err)
	}
	v, err := r.DecodeCBOR(post)
	if err != nil {
		t.Fatal(err)
	}
	p := v.(*regPost)
	if !reflect.DeepEqual(p.Embed.Value(), direct.Embed) {
		t.Errorf("embed: %+v, want %+v", p.Embed.Value(), direct.Embed)
	}
	direct.Embed = nil
	same := cborTestPost{Type: p.Type, Text: p.Text, Facets: p.Facets, Reply: p.Reply, Langs: p.Langs, Labels: p.Labels, CreatedAt: p.CreatedAt}
	if !reflect.DeepEqual(same, direct) {
		t.Errorf("post:\n%+v\nwant\n%+v", same, direct)
	}
	// Without a registry, the embed is generic: the map UnmarshalCBOR gives.
	var plain regPost
	if err := UnmarshalCBORStruct(post, &plain); err != nil {
		t.Fatal(err)
	}
	g, _ := UnmarshalCBOR(post)
	if !reflect.DeepEqual(plain.Embed.Value(), g.(map[string]any)["embed"]) {
		t.Errorf("no registry: embed %#v", plain.Embed.Value())
	}
	// WithRegistry gives UnmarshalCBORStruct the registered type.
	var with regPost
	if err := UnmarshalCBORStruct(post, &with, WithRegistry(r)); err != nil {
		t.Fatal(err)
	}
	if _, ok := with.Embed.Value().(*cborTestEmbedImage); !ok {
		t.Errorf("WithRegistry: embed %T", with.Embed.Value())
	}
}

func TestRegistryDecodeErrors(t *testing.T) {
	r := regTestRegistry(t)
	post := `{"$type":"app.bsky.feed.post","text":"x","createdAt":"2024-11-08T09:41:27.512Z","embed":%s}`
	tests := []struct {
		name   string
		data   []byte
		opts   []Option
		err    error
		path   string
		offset int // -2: not checked here (the generic decoder's own)
	}{
		{"a registered type whose body does not fit: an error at its path, not generic",
			regTestRecord(t, fmt.Sprintf(post, `{"$type":"app.bsky.embed.images","images":[{"alt":5,"image":null}]}`)),
			nil, ErrGoType, "/embed/images/0/alt", -2},
		{"a union member without $type (the Lexicon requires it; located as RecordTypeCBOR locates it)",
			regTestRecord(t, fmt.Sprintf(post, `{"images":[]}`)), nil, ErrType, "/embed/$type", -2},
		{"a union member that is not a map", regTestRecord(t, fmt.Sprintf(post, `"app.bsky.embed.images"`)),
			nil, ErrGoType, "/embed", -2},
		{"a closed union refuses an unregistered type",
			regTestRecord(t, `{"$type":"app.example.closedPost","embed":{"$type":"app.example.embed.poll"}}`),
			nil, ErrGoType, "/embed", 36},
		{"a record without $type", regTestRecord(t, `{"text":"x"}`), nil, ErrType, "/$type", 0},
		{"not a record", regTestRecord(t, `[1]`), nil, ErrNotRecord, "", 0},
		{"RegisteredOnly refuses an unknown record type", regTestRecord(t, `{"$type":"app.example.thing"}`),
			[]Option{RegisteredOnly()}, ErrGoType, "", 0},
		{"invalid input: UnmarshalCBOR's error (unsorted keys)",
			[]byte("\xa2\x65$type\x72app.bsky.feed.post\x64text\x61x"), nil, ErrUnsortedKeys, "", -2},
		{"limits apply inside the member", regTestRecord(t, fmt.Sprintf(post, `{"$type":"app.bsky.embed.images","images":[{"alt":"x"}]}`)),
			[]Option{WithLimits(Limits{MaxDepth: 3})}, ErrTooDeep, "/embed/images/0", -2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.DecodeCBOR(tt.data, tt.opts...)
			if !errors.Is(err, tt.err) {
				t.Fatalf("got %v, %v; want %v", v, err, tt.err)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not an *Error", err)
			}
			if e.Path != tt.path {
				t.Errorf("path %q, want %q (%v)", e.Path, tt.path, err)
			}
			if tt.offset != -2 && e.Offset != tt.offset {
				t.Errorf("offset %d, want %d (%v)", e.Offset, tt.offset, err)
			}
			if e.Offset < 0 || e.Offset > len(tt.data) {
				t.Errorf("offset %d outside the input", e.Offset)
			}
			// Wherever UnmarshalCBOR refuses the input, the registry gives its error.
			if _, gerr := UnmarshalCBOR(tt.data, tt.opts...); gerr != nil && gerr.Error() != err.Error() {
				t.Errorf("UnmarshalCBOR says %v", gerr)
			}
		})
	}
	// The unregistered record decodes generic without RegisteredOnly.
	v, err := r.DecodeCBOR(regTestRecord(t, `{"$type":"app.example.thing","n":1}`))
	if err != nil || !reflect.DeepEqual(v, map[string]any{"$type": "app.example.thing", "n": int64(1)}) {
		t.Errorf("unregistered record: %#v, %v", v, err)
	}
	// The closed union takes a registered type.
	v, err = r.DecodeCBOR(regTestRecord(t, `{"$type":"app.example.closedPost","embed":{"$type":"app.bsky.embed.record","record":`+regStrong+`}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.(*regClosedPost).Embed.Value().(*regRecordEmbed); !ok {
		t.Errorf("closed union holds %T", v.(*regClosedPost).Embed.Value())
	}
	// null is the zero Union, as for a pointer.
	var p regPost
	if err := UnmarshalCBORStruct(regTestRecord(t, fmt.Sprintf(post, `null`)), &p, WithRegistry(r)); err != nil || !p.Embed.IsZero() {
		t.Errorf("null embed: %v, %v", p.Embed, err)
	}
}

func TestRegister(t *testing.T) {
	type noType struct {
		Text string `cbor:"text"`
	}
	type intType struct {
		Type int64 `cbor:"$type"`
	}
	type arrayType struct {
		_    struct{} `cbor:",toarray"`
		Type string   `cbor:"$type"`
		N    int64    `cbor:"n"`
	}
	r := regTestRegistry(t)
	tests := []struct {
		name string
		err  error
		reg  func() error
	}{
		{"an invalid NSID", nsid.ErrInvalid, func() error { return Register[regLike](r, "app..like") }},
		{"a pointer type", ErrRegister, func() error { return Register[*regLike](r, "app.bsky.feed.like") }},
		{"no $type field", ErrRegister, func() error { return Register[noType](r, "app.example.noType") }},
		{"a $type field that is not a string", ErrRegister, func() error { return Register[intType](r, "app.example.intType") }},
		{"a toarray struct: an array, never a record", ErrRegister, func() error { return Register[arrayType](r, "app.example.arrayType") }},
		{"an NSID registered twice", ErrRegister, func() error { return Register[regLike](r, "app.bsky.feed.post") }},
		{"a Go type registered twice", ErrRegister, func() error { return Register[regPost](r, "app.example.post") }},
		{"a #main fragment: a $type names main by the NSID alone", ErrRegister, func() error { return Register[regLike](r, "app.bsky.feed.like#main") }},
		{"an empty fragment", ErrRegister, func() error { return Register[regLike](r, "app.bsky.feed.like#") }},
		{"a fragment that is no definition name", ErrRegister, func() error { return Register[regLike](r, "app.bsky.feed.like#a-b") }},
		{"a fragment without an NSID", nsid.ErrInvalid, func() error { return Register[regLike](r, "#like") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.reg(); !errors.Is(err, tt.err) {
				t.Errorf("got %v, want %v", err, tt.err)
			}
		})
	}
	if typ, ok := r.Lookup("app.bsky.feed.post"); !ok || typ != reflect.TypeFor[regPost]() {
		t.Errorf("Lookup: %v, %v", typ, ok)
	}
	if _, ok := r.Lookup("app.bsky.feed.like"); ok {
		t.Error("a failed Register registered")
	}
	var zero Registry // the zero Registry is empty and usable
	if v, err := zero.DecodeCBOR(cborTestRecord(t, "post")); err != nil || reflect.TypeOf(v) != reflect.TypeFor[map[string]any]() {
		t.Errorf("zero registry: %T, %v", v, err)
	}
	var none *Registry // a nil Registry holds nothing, as WithRegistry(nil) reads it: no method panics
	if v, err := none.DecodeJSON([]byte(`{"$type":"app.bsky.feed.like"}`)); err != nil || reflect.TypeOf(v) != reflect.TypeFor[map[string]any]() {
		t.Errorf("nil registry: %T, %v", v, err)
	}
	if _, ok := none.Lookup("app.bsky.feed.post"); ok {
		t.Error("nil registry: Lookup found a type")
	}
	if _, err := none.Union(&regLike{Type: "app.bsky.feed.like"}); !errors.Is(err, ErrGoType) {
		t.Errorf("nil registry: Union: %v, want ErrGoType", err)
	}
}

// TestRegistryConcurrent decodes with one registry from many goroutines while types are being
// registered in it (run with -race).
func TestRegistryConcurrent(t *testing.T) {
	r := regTestRegistry(t)
	post := cborTestRecord(t, "post")
	like := regTestRecord(t, `{"$type":"app.bsky.feed.like","subject":`+regStrong+`,"createdAt":"2024-11-08T09:41:27.512Z"}`)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if g == 0 && i == 25 {
					if err := Register[regLike](r, "app.bsky.feed.like"); err != nil {
						errs <- err
						return
					}
				}
				v, err := r.DecodeCBOR(post)
				if err != nil {
					errs <- err
					return
				}
				if _, ok := v.(*regPost).Embed.Value().(*cborTestEmbedImage); !ok {
					errs <- fmt.Errorf("embed %T", v.(*regPost).Embed.Value())
					return
				}
				v, err = r.DecodeCBOR(like)
				if err != nil {
					errs <- err
					return
				}
				switch v.(type) {
				case *regLike, map[string]any: // before or after the registration
				default:
					errs <- fmt.Errorf("like decoded as %T", v)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if v, _ := r.DecodeCBOR(like); reflect.TypeOf(v) != reflect.TypeFor[*regLike]() {
		t.Errorf("after registration: %T", v)
	}
}

// FuzzRegistryDecode feeds random CBOR through a registry: it never panics, refuses whatever
// UnmarshalCBOR refuses with the same error, and otherwise fails only for a reason of the Go side
// (ErrGoType; ErrBlob for a Blob field given another value), a record without $type (ErrType) or a
// value that is not a record (ErrNotRecord).
func FuzzRegistryDecode(f *testing.F) {
	r := regTestRegistry(f)
	for _, rec := range cborTestRecords(f) {
		f.Add(rec.cbor)
	}
	f.Add(regTestRecord(f, `{"$type":"app.example.closedPost","embed":{"$type":"app.bsky.embed.record","record":`+regStrong+`}}`))
	f.Add(regTestRecord(f, `{"$type":"app.bsky.feed.post","text":"x","createdAt":"","embed":{"$type":"app.bsky.embed.external","external":{"uri":"u","title":"t","description":"d"}}}`))
	f.Add(regTestRecord(f, `{"$type":"app.bsky.feed.post","text":"x","createdAt":"","embed":{"$type":"app.x.y","n":[1,{"$type":"app.bsky.embed.images"}]}}`))
	// Keys that sort before "$type" holding maps with a "$type" of their own (the noted look-ups
	// of typedDecoder.union).
	f.Add(regTestRecord(f, `{"$type":"app.bsky.feed.post","text":"x","createdAt":"","embed":{"$type":"app.x.y","n":[{"$type":"q","a":{"$type":"r"}}],"m":{"$type":"app.bsky.embed.images","tag":[{"$type":"s"}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := r.DecodeCBOR(data)
		g, gerr := UnmarshalCBOR(data)
		if gerr != nil {
			if err == nil || err.Error() != gerr.Error() {
				t.Fatalf("UnmarshalCBOR: %v; registry: %v", gerr, err)
			}
			return
		}
		if err != nil {
			if !errors.Is(err, ErrGoType) && !errors.Is(err, ErrType) && !errors.Is(err, ErrNotRecord) && !errors.Is(err, ErrBlob) {
				t.Fatalf("valid input refused: %v", err)
			}
			return
		}
		if m, ok := v.(map[string]any); ok {
			if !reflect.DeepEqual(m, g) {
				t.Fatalf("generic value differs from UnmarshalCBOR's")
			}
			return
		}
		// A struct re-encodes to bytes that the registry reads back into a struct that encodes
		// to the same bytes. (Not always to data: unknown keys are dropped, and a field the
		// record lacked keeps its zero value, which for a Blob or a Link has no encoding.)
		out, err := MarshalCBORStruct(v)
		if err != nil {
			return
		}
		v2, err := r.DecodeCBOR(out)
		if err != nil {
			t.Fatalf("reading back %x: %v", out, err)
		}
		if out2, err := MarshalCBORStruct(v2); err != nil || !bytes.Equal(out2, out) {
			t.Fatalf("not a fixed point: %x, then %x, %v", out, out2, err)
		}
	})
}

// TestRegistryJSON decodes atproto JSON through the registry: the same values as from the CBOR of
// the same records, "$type" found wherever it is among the members.
func TestRegistryJSON(t *testing.T) {
	r := regTestRegistry(t)
	postJSON, postCBOR := readRecord(t, "post")
	post := `{"text":"x","embed":%s,"createdAt":"2024-11-08T09:41:27.512Z","$type":"app.bsky.feed.post"}`
	tests := []struct {
		name string
		json []byte
		want reflect.Type
	}{
		{"testdata/records/post", postJSON, reflect.TypeFor[*cborTestEmbedImage]()},
		{"$type last in the member", []byte(fmt.Sprintf(post, `{"external":{"uri":"u","title":"t","description":"d"},"$type":"app.bsky.embed.external"}`)),
			reflect.TypeFor[*regExternal]()},
		{"an escaped $type", []byte(fmt.Sprintf(post, `{"record":`+regStrong+`,"\u0024type":"app.bsky.embed.\u0072ecord"}`)),
			reflect.TypeFor[*regRecordEmbed]()},
		{"an unknown type kept generic", []byte(fmt.Sprintf(post, `{"$type":"app.example.embed.poll","options":["yes","no"]}`)),
			reflect.TypeFor[map[string]any]()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.DecodeJSON(tt.json)
			if err != nil {
				t.Fatal(err)
			}
			p := v.(*regPost)
			if got := reflect.TypeOf(p.Embed.Value()); got != tt.want {
				t.Fatalf("embed holds %v, want %v", got, tt.want)
			}
			// The same record as CBOR decodes to the same value.
			g, err := UnmarshalJSON(tt.json)
			if err != nil {
				t.Fatal(err)
			}
			c, err := MarshalCBOR(g)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "testdata/records/post" && !bytes.Equal(c, postCBOR) {
				t.Fatal("post.json and post.cbor differ")
			}
			vc, err := r.DecodeCBOR(c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v, vc) {
				t.Errorf("JSON %+v\nCBOR %+v", v, vc)
			}
			// And writes back the same record.
			out, err := MarshalJSONStruct(p)
			if err != nil {
				t.Fatal(err)
			}
			back, err := UnmarshalJSON(out)
			if err != nil || !reflect.DeepEqual(back, g) {
				t.Errorf("MarshalJSONStruct wrote %s (%v)", out, err)
			}
		})
	}
	errs := []struct {
		name string
		json string
		opts []Option
		err  error
		path string
	}{
		{"a registered type whose body does not fit", fmt.Sprintf(post, `{"images":[{"alt":5}],"$type":"app.bsky.embed.images"}`), nil, ErrGoType, "/embed/images/0/alt"},
		{"a member without $type", fmt.Sprintf(post, `{"images":[]}`), nil, ErrType, "/embed"},
		{"a closed union refuses an unregistered type", `{"$type":"app.example.closedPost","embed":{"$type":"app.example.embed.poll"}}`, nil, ErrGoType, "/embed"},
		{"RegisteredOnly", `{"$type":"app.example.thing"}`, []Option{RegisteredOnly()}, ErrGoType, ""},
		{"invalid JSON: UnmarshalJSON's error", `{"$type":"app.bsky.feed.post","text":"x",}`, nil, ErrSyntax, ""},
		{"a duplicate key after $type", fmt.Sprintf(post, `{"$type":"app.bsky.embed.images","images":[],"images":[]}`), nil, ErrDuplicateKey, "/embed/images"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.DecodeJSON([]byte(tt.json), tt.opts...)
			if !errors.Is(err, tt.err) {
				t.Fatalf("got %v, %v; want %v", v, err, tt.err)
			}
			if e := err.(*Error); e.Path != tt.path && !(tt.err == ErrType && e.Path == tt.path+"/$type") {
				t.Errorf("path %q, want %q (%v)", e.Path, tt.path, err)
			}
			if _, gerr := UnmarshalJSON([]byte(tt.json), tt.opts...); gerr != nil && gerr.Error() != err.Error() {
				t.Errorf("UnmarshalJSON says %v", gerr)
			}
		})
	}
}

// FuzzRegistryDecodeJSON is FuzzRegistryDecode for atproto JSON, against UnmarshalJSON's verdict.
func FuzzRegistryDecodeJSON(f *testing.F) {
	r := regTestRegistry(f)
	for _, rec := range cborTestRecords(f) {
		f.Add(rec.json)
	}
	f.Add([]byte(`{"$type":"app.example.closedPost","embed":{"record":` + regStrong + `,"$type":"app.bsky.embed.record"}}`))
	f.Add([]byte(`{"text":"x","createdAt":"","embed":{"external":{"uri":"u","title":"t","description":"d"},"$type":"app.bsky.embed.external"},"$type":"app.bsky.feed.post"}`))
	f.Add([]byte(`{"$type":"app.bsky.feed.post","embed":{"$type":"app.x.y","n":[1,{"$type":"app.bsky.embed.images"}]}}`))
	// "$type" last, under members that hold objects with a "$type" of their own (the noted
	// look-ups of typedJSONDecoder.union).
	f.Add([]byte(`{"embed":{"record":{"uri":"at://did:plc:a/b.c/d","cid":"x","$type":"t"},"n":[{"a":{"$type":"q"},"$type":"app.bsky.embed.images"}],"$type":"app.bsky.embed.record"},"text":"x","$type":"app.bsky.feed.post"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := r.DecodeJSON(data)
		g, gerr := UnmarshalJSON(data)
		if gerr != nil {
			if err == nil || err.Error() != gerr.Error() {
				t.Fatalf("UnmarshalJSON: %v; registry: %v", gerr, err)
			}
			return
		}
		if err != nil {
			if !errors.Is(err, ErrGoType) && !errors.Is(err, ErrType) && !errors.Is(err, ErrNotRecord) && !errors.Is(err, ErrBlob) {
				t.Fatalf("valid input refused: %v", err)
			}
			return
		}
		if m, ok := v.(map[string]any); ok {
			if !reflect.DeepEqual(m, g) {
				t.Fatalf("generic value differs from UnmarshalJSON's")
			}
			return
		}
		// A struct decoded from JSON decodes alike from the CBOR of the same record.
		c, err := MarshalCBOR(g)
		if err != nil {
			return // beyond what CBOR holds under the default limits
		}
		vc, err := r.DecodeCBOR(c)
		if err != nil || !reflect.DeepEqual(v, vc) {
			t.Fatalf("from JSON %+v; from CBOR %+v, %v", v, vc, err)
		}
	})
}
