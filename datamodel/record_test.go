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
	if _, err := RecordCID(struct{ F float64 }{1.5}); !errors.Is(err, ErrFloat) {
		t.Errorf("struct with a float: %v, want ErrFloat", err)
	}
}

// RecordCID refuses what ValidateRecord refuses: a value that is not an object is not a record,
// with the same error. Blob and Link are data-model values, not structs to encode field by field.
func TestRecordCIDNotRecord(t *testing.T) {
	type post struct {
		Text string `cbor:"text"`
	}
	type pair struct {
		_ struct{} `cbor:",toarray"`
		A int64
	}
	raw := jsonTestLink(t, jsonTestRawCID)
	for _, v := range []any{
		(*post)(nil),           // a nil struct pointer: fxamacker would write null
		map[string]any(nil),    // written as null, as every nil map
		map[string]string(nil), // the same for a Go map
		nil, int64(1), "text", []any{}, raw, Blob{Ref: raw, MimeType: "a/b", Size: 1},
	} {
		_, err := RecordCID(v)
		verr := ValidateRecord(v)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrNotRecord) || e.Offset != -1 || verr.Error() != err.Error() {
			t.Errorf("RecordCID(%#v) = %v; want ValidateRecord's %v", v, err, verr)
		}
	}
	// A struct written as an array is not an object either.
	if _, err := RecordCID(pair{A: 1}); !errors.Is(err, ErrNotRecord) {
		t.Errorf("RecordCID(toarray struct) = %v, want ErrNotRecord", err)
	}
	if c, err := RecordCID(&post{Text: "hi"}); err != nil || c == cid.Undef {
		t.Errorf("RecordCID(&post) = %v, %v", c, err)
	}
}
