package lexicon

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atcore/atcore/datamodel"
)

// randomRec is a record struct with cbor and json tags, pointers, nil slices and any fields.
type randomRec struct {
	Type  string            `cbor:"$type"`
	Text  *string           `cbor:"text,omitempty"`
	N     *int32            `cbor:"n,omitempty"`
	Tags  []string          `cbor:"tags"`
	Maybe []string          `cbor:"maybe,omitempty"`
	Meta  map[string]string `cbor:"meta"`
	Obj   any               `cbor:"obj,omitempty"`
	Pic   any               `cbor:"pic,omitempty"`
	Data  []byte            `json:"data"`
	Free  any               `cbor:"free,omitempty"`
	Embed any               `cbor:"embed,omitempty"`
	X     any               `cbor:"x,omitempty"`
	Skip  string            `cbor:"-"`
}

// randomValue is a random Go value, at most a few levels deep.
func randomValue(r *rand.Rand, t testing.TB, depth int) any {
	link := testLink(t)
	strs := []string{"", "a", "abc", "abcd", "far too long a text", "com.example.go", "com.example.go#obj", "blob", "com.example.go#strings", "hello", "com.example.x#", "com.example.other", "image/png", "text/plain", "$type", "x", "ref", "mimeType", "size", "cid", "$link", "$bytes", testCID}
	str := func() string { return strs[r.Intn(len(strs))] }
	if depth > 4 {
		return str()
	}
	switch r.Intn(26) {
	case 0:
		return nil
	case 1:
		return r.Intn(2) == 0
	case 2:
		return int64(r.Intn(15) - 2)
	case 3:
		return int32(r.Intn(15))
	case 4:
		return str()
	case 5:
		s := str()
		if r.Intn(2) == 0 {
			return &s
		}
		return (*string)(nil)
	case 6:
		return datamodel.Bytes(str())
	case 7:
		return link
	case 8:
		return datamodel.Blob{Ref: link, MimeType: str(), Size: int64(r.Intn(200) - 1)}
	case 9:
		b := &datamodel.Blob{Ref: link, MimeType: str(), Size: int64(r.Intn(200))}
		if r.Intn(3) == 0 {
			return (*datamodel.Blob)(nil)
		}
		return b
	case 10:
		var a []string
		for range r.Intn(4) {
			a = append(a, str())
		}
		return a
	case 11:
		var a []any
		if r.Intn(4) == 0 {
			return a
		}
		a = []any{}
		for range r.Intn(4) {
			a = append(a, randomValue(r, t, depth+1))
		}
		return a
	case 12, 13, 14:
		if r.Intn(8) == 0 {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for range r.Intn(5) {
			m[str()] = randomValue(r, t, depth+1)
		}
		if r.Intn(3) == 0 {
			m["$type"] = randomValue(r, t, 10)
		}
		return m
	case 15:
		m := map[string]string{}
		for range r.Intn(3) {
			m[str()] = str()
		}
		if r.Intn(4) == 0 {
			return map[string]string(nil)
		}
		return m
	case 16:
		m := map[string]any{"$type": "blob", "ref": link, "mimeType": str(), "size": int64(r.Intn(200))}
		switch r.Intn(5) {
		case 0:
			m["extra"] = int64(1)
		case 1:
			delete(m, "size")
		case 2:
			m["size"] = int32(5)
		case 3:
			m["$type"] = goNSID("blob")
		}
		return m
	case 17:
		return map[string]any{"cid": str(), "mimeType": str()}
	case 18:
		o := &goObj{Type: str(), X: int32(r.Intn(15))}
		if r.Intn(3) == 0 {
			return (*goObj)(nil)
		}
		if r.Intn(2) == 0 {
			return *o
		}
		return o
	case 19:
		return randomRecord(r, t, depth+1)
	case 20:
		return 1.5
	case 21:
		return goNSID(str())
	case 22:
		return uint8(r.Intn(20))
	case 23:
		return datamodel.Link{}
	case 24:
		return []byte(str())
	case 25:
		return map[string]any{"$type": str(), "x": randomValue(r, t, depth+1)}
	}
	return nil
}

// randomRecord is a random record, a struct or a map, of the go schema or near it.
func randomRecord(r *rand.Rand, t testing.TB, depth int) any {
	pick := []string{"com.example.go", "com.example.go", "com.example.go#obj", "blob", "", "com.example.other"}
	keys := []string{"text", "n", "tags", "maybe", "meta", "obj", "pic", "link", "data", "free", "embed", "other", "x", "$type"}
	if r.Intn(3) == 0 {
		rec := randomRec{Type: pick[r.Intn(len(pick))]}
		if r.Intn(4) != 0 {
			s := []string{"hi", "far too long a text", ""}[r.Intn(3)]
			rec.Text = &s
		}
		if r.Intn(2) == 0 {
			n := int32(r.Intn(12))
			rec.N = &n
		}
		if r.Intn(2) == 0 {
			rec.Tags, _ = randomValue(r, t, 10).([]string)
			for range r.Intn(4) {
				rec.Tags = append(rec.Tags, []string{"a", "abcd"}[r.Intn(2)])
			}
		}
		if r.Intn(2) == 0 {
			rec.Meta = map[string]string{"a": "x", "b": []string{"xy", "xyz"}[r.Intn(2)]}
		}
		for _, f := range []*any{&rec.Obj, &rec.Pic, &rec.Free, &rec.Embed, &rec.X} {
			if r.Intn(3) == 0 {
				*f = randomValue(r, t, depth+1)
			}
		}
		if r.Intn(3) == 0 {
			rec.Data = []byte("abcde"[:r.Intn(6)])
		}
		if r.Intn(4) == 0 {
			return &rec
		}
		return rec
	}
	m := map[string]any{"$type": pick[r.Intn(len(pick))]}
	if r.Intn(5) == 0 {
		m["$type"] = goNSID("com.example.go")
	}
	if r.Intn(4) != 0 {
		m["text"] = "hi"
	}
	for range r.Intn(5) {
		m[keys[r.Intn(len(keys))]] = randomValue(r, t, depth+1)
	}
	return m
}

func describeErr(err error) string {
	var e *Error
	switch {
	case err == nil:
		return "valid"
	case errors.As(err, &e):
		return fmt.Sprintf("%v %q %q", e.Err, e.Path, e.Rule)
	}
	return err.Error()
}

func describeReport(r Report) string {
	var b strings.Builder
	for _, e := range r.Errors {
		b.WriteString(describeErr(e) + "; ")
	}
	for _, e := range r.Warnings {
		b.WriteString("warning " + describeErr(e) + "; ")
	}
	return b.String()
}

// TestGoValueVerdictsRandom is TestGoValueVerdicts on random Go values and generic values (structs,
// []string, map[string]string, pointers, nil slices, Blob, Link and Bytes values, blob-shaped maps,
// union members, members the schema does not name) under strict, Lenient and collection options,
// for every entry point but the endpoints. It is deterministic; GOVALUE_RANDOM=n runs n values
// of a random seed.
func TestGoValueVerdictsRandom(t *testing.T) {
	c := goCatalog(t)
	seed, count := int64(1), 1000
	if n, err := strconv.Atoi(os.Getenv("GOVALUE_RANDOM")); err == nil {
		seed, count = time.Now().UnixNano(), n
		t.Logf("seed %d", seed)
	}
	r := rand.New(rand.NewSource(seed))
	fails := 0
	for range count {
		if fails >= 15 {
			break
		}
		v := randomRecord(r, t, 0)
		if r.Intn(4) == 0 {
			v = randomValue(r, t, 0)
		}
		data, merr := datamodel.MarshalCBOR(v)
		var g any
		want := ""
		if merr != nil {
			p, _ := dataModelPath(v)
			want = fmt.Sprintf("%v %q %q", ErrValue, p, "data-model")
		} else {
			var err error
			g, err = datamodel.UnmarshalCBOR(data)
			if err != nil {
				t.Fatalf("%#v: %v", v, err)
			}
		}
		for _, o := range []Options{{}, {Mode: Lenient}, {Collection: "com.example.go"}, {Collection: "com.example.other", Mode: Lenient}} {
			check := func(what, got, want string) {
				if got != want {
					fails++
					t.Errorf("%s %+v on %#v:\n got  %s\n want %s", what, o, v, got, want)
				}
			}
			if merr != nil {
				check("ValidateRecord", describeErr(c.ValidateRecord(v, o)), want)
				check("CheckRecord", describeReport(c.CheckRecord(v, o)), want+"; ")
				check("ValidateValue", describeErr(c.ValidateValue("com.example.go#obj", v, o)), want)
				continue
			}
			check("ValidateRecord", describeErr(c.ValidateRecord(v, o)), describeErr(c.ValidateRecord(g, o)))
			check("CheckRecord", describeReport(c.CheckRecord(v, o)), describeReport(c.CheckRecord(g, o)))
			for _, ref := range []string{"com.example.go", "com.example.go#obj", "com.example.go#strings"} {
				check("ValidateValue "+ref, describeErr(c.ValidateValue(ref, v, o)), describeErr(c.ValidateValue(ref, g, o)))
				check("CheckValue "+ref, describeReport(c.CheckValue(ref, v, o)), describeReport(c.CheckValue(ref, g, o)))
			}
		}
	}
}
