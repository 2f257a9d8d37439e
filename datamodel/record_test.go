package datamodel

import (
	"errors"
	"testing"

	cid "github.com/ipfs/go-cid"
)

func TestRecordCIDErrors(t *testing.T) {
	if _, err := RecordCID(map[string]any{"a": 1.5}); !errors.Is(err, ErrFloat) {
		t.Errorf("RecordCID of a float: %v, want ErrFloat", err)
	}
}

// A Lexicon-style struct gets the same CID as the equivalent generic record.
func TestRecordCIDStruct(t *testing.T) {
	raw := jsonTestLink(t, jsonTestRawCID)
	subject := jsonTestLink(t, jsonTestCBORCID)
	type image struct {
		Alt   string `json:"alt"`
		Image Blob   `json:"image"`
	}
	type post struct {
		Type    string  `json:"$type"`
		Text    string  `json:"text"`
		Subject Link    `json:"subject"`
		Images  []image `json:"images"`
	}
	p := post{Type: "app.example.post", Text: "hi", Subject: subject,
		Images: []image{{Alt: "a", Image: Blob{Ref: raw, MimeType: "image/png", Size: 7}}}}
	generic := map[string]any{
		"$type": "app.example.post", "text": "hi", "subject": subject,
		"images": []any{map[string]any{"alt": "a", "image": Blob{Ref: raw, MimeType: "image/png", Size: 7}}},
	}
	want, err := RecordCID(generic)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{p, &p} {
		got, err := RecordCID(v)
		if err != nil || got != want {
			t.Errorf("RecordCID(%T) = %v, %v; want %v", v, got, err, want)
		}
	}
	// Blob and Link are data-model values, not structs to encode field by field.
	b := Blob{Ref: raw, MimeType: "a/b", Size: 1}
	c1, err1 := RecordCID(b)
	c2, err2 := RecordCID(map[string]any{"$type": "blob", "ref": raw, "mimeType": "a/b", "size": int64(1)})
	if err1 != nil || err2 != nil || c1 != c2 || c1 == cid.Undef {
		t.Errorf("RecordCID(Blob) = %v, %v; map form %v, %v", c1, err1, c2, err2)
	}
	if _, err := RecordCID(struct{ F float64 }{1.5}); !errors.Is(err, ErrFloat) {
		t.Errorf("struct with a float: %v, want ErrFloat", err)
	}
}
