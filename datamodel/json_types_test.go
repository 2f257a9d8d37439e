package datamodel

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// A Lexicon-style struct with the data model's named types works with encoding/json.
type jsonTestPost struct {
	Type     string `json:"$type"`
	Text     string `json:"text"`
	Subject  Link   `json:"subject"`
	Reply    *Link  `json:"reply,omitempty"`
	Missing  *Link  `json:"missing,omitempty"`
	Sig      Bytes  `json:"sig"`
	Image    Blob   `json:"image"`
	Old      Blob   `json:"old"`
	MaybeNil *Blob  `json:"maybeNil"`
}

func TestJSONTypesWithEncodingJSON(t *testing.T) {
	subject := jsonTestLink(t, jsonTestCBORCID)
	raw := jsonTestLink(t, jsonTestRawCID)
	in := jsonTestPost{
		Type:    "app.example.post",
		Text:    "hi",
		Subject: subject,
		Reply:   &subject,
		Sig:     Bytes{1, 2, 3, 4},
		Image:   Blob{Ref: raw, MimeType: "image/png", Size: 42},
		Old:     Blob{Ref: raw, MimeType: "image/jpeg", Legacy: true},
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$type":"app.example.post","text":"hi",` +
		`"subject":{"$link":"` + jsonTestCBORCID + `"},"reply":{"$link":"` + jsonTestCBORCID + `"},` +
		`"sig":{"$bytes":"AQIDBA"},` +
		`"image":{"$type":"blob","mimeType":"image/png","ref":{"$link":"` + jsonTestRawCID + `"},"size":42},` +
		`"old":{"cid":"` + jsonTestRawCID + `","mimeType":"image/jpeg"},"maybeNil":null}`
	if string(data) != want {
		t.Fatalf("json.Marshal\n got %s\nwant %s", data, want)
	}
	var out jsonTestPost
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip\n got %#v\nwant %#v", out, in)
	}
	// The same document read by this package gives the data model's values.
	v, err := UnmarshalJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["subject"] != subject || !reflect.DeepEqual(m["sig"], Bytes{1, 2, 3, 4}) || m["image"] != in.Image || m["old"] != in.Old {
		t.Errorf("UnmarshalJSON of the struct's JSON = %#v", m)
	}
}

func TestJSONTypesUnmarshalErrors(t *testing.T) {
	tests := []struct {
		rule string
		in   string
		into any
		err  error
	}{
		{"a link is a $link object", `{"subject":"` + jsonTestCBORCID + `"}`, new(jsonTestPost), ErrLink},
		{"a bad CID in a link", `{"subject":{"$link":"x"}}`, new(jsonTestPost), ErrInvalidCID},
		{"bytes is a $bytes object", `{"sig":"AQID"}`, new(jsonTestPost), ErrBytes},
		{"a blob is a blob object", `{"image":{"$link":"` + jsonTestRawCID + `"}}`, new(jsonTestPost), ErrBlob},
		{"a malformed blob", `{"image":{"$type":"blob"}}`, new(jsonTestPost), ErrBlob},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			err := json.Unmarshal([]byte(tc.in), tc.into)
			if !errors.Is(err, tc.err) {
				t.Fatalf("json.Unmarshal = %v, want %v", err, tc.err)
			}
		})
	}
	// null leaves the value as it was.
	l := jsonTestLink(t, jsonTestCBORCID)
	if err := l.UnmarshalJSON([]byte(" null ")); err != nil || l != jsonTestLink(t, jsonTestCBORCID) {
		t.Errorf("Link.UnmarshalJSON(null) = %v, %v", l, err)
	}
	// An undefined Link cannot be written: use *Link for optional links.
	if _, err := json.Marshal(struct{ L Link }{}); !errors.Is(err, ErrInvalidCID) {
		t.Errorf("marshalling an undefined Link: %v, want ErrInvalidCID", err)
	}
}
