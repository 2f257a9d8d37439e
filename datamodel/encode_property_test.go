package datamodel

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"
)

// encTreeGen builds a Go value tree from a byte string, one decision a byte (0 once the bytes run
// out), so that the fuzzer can explore trees: plain values, values outside the data model, and
// above all maps with reserved keys ($type, $link, $bytes, other $ keys) and maps shaped almost or
// exactly like blobs, new or legacy.
type encTreeGen struct {
	data []byte
	ref  Link    // a raw CIDv1
	v0   cid.Cid // a CIDv0, never valid (rule 12)
}

// encTreeKeys are the keys maps are built from: reserved, blob and legacy-blob keys, an empty
// key and one that is not UTF-8.
var encTreeKeys = []string{"a", "b", "$type", "$link", "$bytes", "$other", "$", "ref", "mimeType", "size", "cid", "", "\xff"}

func newEncTreeGen(t testing.TB, data []byte) *encTreeGen {
	digest, err := mh.Sum([]byte("x"), mh.SHA2_256, -1)
	if err != nil {
		t.Fatal(err)
	}
	return &encTreeGen{data: data, ref: cborTestLink(t, cborTestBlobLinkString), v0: cid.NewCidV0(digest)}
}

func (g *encTreeGen) next() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

// value returns a value at nesting depth depth; past depth 6 only leaves, so trees stay within
// every limit except where the generator means to break a rule.
func (g *encTreeGen) value(depth int) any {
	c := g.next()
	if depth > 6 {
		c %= 13
	}
	switch c % 22 {
	case 0:
		return nil
	case 1:
		return g.next()&1 == 1
	case 2:
		return int64(int8(g.next())) * 1000003
	case 3:
		return []any{uint64(math.MaxInt64), uint64(math.MaxUint64), uint8(7), int32(-7)}[g.next()%4]
	case 4:
		return encTreeKeys[int(g.next())%len(encTreeKeys)]
	case 5:
		return []any{1.5, float32(2), "\xfe"}[g.next()%3]
	case 6:
		n := min(int(g.next()%4), len(g.data))
		return Bytes(bytes.Clone(g.data[:n]))
	case 7:
		return []any{g.ref, cid.Cid(g.ref), Link{}, Link(g.v0), []byte{1}}[g.next()%5]
	case 8:
		return []any{
			Blob{Ref: g.ref, MimeType: "a/b", Size: 3},
			&Blob{Ref: g.ref, MimeType: "a/b"},
			Blob{Ref: g.ref, MimeType: "a/b", Legacy: true},
			Blob{Ref: g.ref, MimeType: ""},
			Blob{Ref: g.ref, MimeType: "a/b", Size: -1},
			Blob{MimeType: "a/b"},
			(*Blob)(nil),
		}[g.next()%7]
	case 9:
		return struct{ X int }{1}
	case 10, 11, 12:
		return g.legacyOrLeaf()
	case 13, 14, 15, 16:
		return g.plainMap(depth)
	case 17, 18:
		return g.blobMap(depth)
	default:
		n := int(g.next() % 4)
		a := make([]any, n)
		for i := range a {
			a[i] = g.value(depth + 1)
		}
		return a
	}
}

// legacyOrLeaf returns a map in the legacy blob form (which the decoders read as a Blob) or
// a near miss, or a small integer.
func (g *encTreeGen) legacyOrLeaf() any {
	switch g.next() % 4 {
	case 0:
		return map[string]any{"cid": g.ref.String(), "mimeType": "a/b"}
	case 1:
		return map[string]any{"cid": "x", "mimeType": "a/b"}
	case 2:
		return map[string]any{"cid": g.ref.String(), "mimeType": ""}
	}
	return int64(g.next())
}

func (g *encTreeGen) plainMap(depth int) map[string]any {
	n := int(g.next() % 5)
	m := make(map[string]any, n)
	for range n {
		k := encTreeKeys[int(g.next())%len(encTreeKeys)]
		if k == "$type" && g.next()&1 == 0 {
			m[k] = []any{"blob", "", "app.bsky.feed.post", int64(1), nil}[g.next()%5]
			continue
		}
		m[k] = g.value(depth + 1)
	}
	return m
}

// blobMap returns a map shaped exactly like a blob, or with one entry changed, removed or added.
func (g *encTreeGen) blobMap(depth int) map[string]any {
	m := map[string]any{"$type": "blob", "ref": g.ref, "mimeType": "a/b", "size": int64(g.next())}
	switch op := g.next() % 4; op {
	case 1, 2, 3:
		k := encTreeKeys[int(g.next())%len(encTreeKeys)]
		switch op {
		case 1:
			delete(m, k)
		default:
			m[k] = g.value(depth + 1)
		}
	}
	return m
}

// encCheckProperty checks, for the tree v, that the encoders and Validate agree with each other
// and with the decoders:
//   - Validate accepts v ⇔ MarshalCBOR accepts v ⇔ MarshalJSON accepts v, with the same sentinel
//     and path when they refuse;
//   - when they accept, UnmarshalCBOR and UnmarshalJSON read the bytes back, to values that
//     re-encode to the same CBOR.
func encCheckProperty(t *testing.T, v any) {
	t.Helper()
	verr := Validate(v)
	cb, cerr := MarshalCBOR(v)
	js, jerr := MarshalJSON(v)
	if (verr == nil) != (cerr == nil) || (verr == nil) != (jerr == nil) {
		t.Fatalf("%#v:\nValidate: %v\nMarshalCBOR: %v\nMarshalJSON: %v", v, verr, cerr, jerr)
	}
	if verr != nil {
		// The first error met may differ (the encoders walk in different orders), but each
		// must be an *Error without an offset, as for every encode.
		for _, err := range []error{verr, cerr, jerr} {
			e, ok := err.(*Error)
			if !ok || e.Offset != -1 {
				t.Fatalf("%#v: %v (%T) is not an *Error with Offset -1", v, err, err)
			}
		}
		return
	}
	back, err := UnmarshalCBOR(cb)
	if err != nil {
		t.Fatalf("%#v: MarshalCBOR wrote %x, which UnmarshalCBOR refuses: %v", v, cb, err)
	}
	if again, err := MarshalCBOR(back); err != nil || !bytes.Equal(again, cb) {
		t.Fatalf("%#v: CBOR → value → CBOR = %x, %v; want %x", v, again, err, cb)
	}
	fromJSON, err := UnmarshalJSON(js)
	if err != nil {
		t.Fatalf("%#v: MarshalJSON wrote %s, which UnmarshalJSON refuses: %v", v, js, err)
	}
	if !reflect.DeepEqual(fromJSON, back) {
		t.Fatalf("%#v: the JSON reads back as %#v, the CBOR as %#v", v, fromJSON, back)
	}
}

// TestEncodeProperty runs the property of encCheckProperty over pseudo-random trees, so that it
// is checked on every test run and not only when fuzzing by hand.
func TestEncodeProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 64)
	accepted := 0
	for range 20000 {
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		v := newEncTreeGen(t, buf).value(1)
		encCheckProperty(t, v)
		if Validate(v) == nil {
			accepted++
		}
	}
	t.Logf("%d of 20000 trees valid", accepted)
	// Both sides of the property must have been exercised.
	if accepted < 1000 || accepted > 19000 {
		t.Errorf("%d of 20000 trees valid: the generator no longer covers both sides", accepted)
	}
}

// FuzzEncodeProperty is TestEncodeProperty driven by the fuzzer.
func FuzzEncodeProperty(f *testing.F) {
	for _, s := range []string{"", "\x0d\x03\x02\x00", "\x11\x00\x05", "\x11\x01\x08", "\x0d\x02\x04\x04\x01\x04\x05",
		"\x0a\x00", "\x13\x02\x11\x00\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		encCheckProperty(t, newEncTreeGen(t, data).value(1))
	})
}
