package datamodel

import (
	"errors"
	"strings"
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

// A value shaped as a blob is no record in any Go form, as its bytes decode to a Blob, which is
// not an object ("the top-level data object must not have the structure of a compound data type,
// like blob", https://atproto.com/specs/lexicon#blob); a record of four entries with another
// $type, and one whose "cid" is not a CID, still are.
func TestBlobShapedIsNoRecord(t *testing.T) {
	ref := cborTestLink(t, cborTestBlobLinkString)
	type blobStruct struct {
		Type     string `json:"$type"`
		Ref      Link   `json:"ref"`
		MimeType string `json:"mimeType"`
		Size     int64  `json:"size"`
	}
	type legacyStruct struct {
		CID      string `json:"cid"`
		MimeType string `json:"mimeType"`
	}
	type nsidString string
	for _, v := range []any{
		map[string]any{"$type": "blob", "ref": ref, "mimeType": "a/b", "size": int64(1)},
		map[string]any{"$type": nsidString("blob"), "ref": ref, "mimeType": "a/b", "size": int64(1)},
		map[string]any{"cid": cborTestBlobLinkString, "mimeType": "a/b"},
		blobStruct{"blob", ref, "a/b", 1},
		&blobStruct{"blob", ref, "a/b", 1},
		legacyStruct{cborTestBlobLinkString, "a/b"},
	} {
		out, err := MarshalCBOR(v)
		if err != nil {
			t.Fatalf("%#v: MarshalCBOR: %v", v, err)
		}
		if back, err := UnmarshalCBOR(out); err != nil {
			t.Fatalf("%#v: %v", v, err)
		} else if _, ok := back.(Blob); !ok {
			t.Fatalf("%#v decodes to %T, not a Blob: the case tests nothing", v, back)
		}
		verr := ValidateRecord(v)
		_, cerr := RecordCID(v)
		if !errors.Is(verr, ErrNotRecord) || !strings.Contains(verr.Error(), "found a blob") || cerr == nil || cerr.Error() != verr.Error() {
			t.Errorf("%#v: ValidateRecord %v, RecordCID %v; want ErrNotRecord (found a blob) from both", v, verr, cerr)
		}
	}
	for _, v := range []any{
		map[string]any{"$type": "app.example.x", "ref": ref, "mimeType": "a/b", "size": int64(1)},
		map[string]any{"cid": "not a cid", "mimeType": "a/b"},
		legacyStruct{"not a cid", "a/b"},
	} {
		if err := ValidateRecord(v); err != nil {
			t.Errorf("%#v: ValidateRecord %v", v, err)
		}
		if _, err := RecordCID(v); err != nil {
			t.Errorf("%#v: RecordCID %v", v, err)
		}
	}
}
