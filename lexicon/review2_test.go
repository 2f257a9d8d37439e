package lexicon

import (
	"errors"
	"testing"
)

// A message of a type the open union does not list is not checked against a schema, but it is
// still a value of the data model: one that MarshalCBOR refuses is refused with "data-model", as
// the same member of a listed message is, and as an unlisted variant of a record's open union is.
func TestValidateMessageUnlistedDataModel(t *testing.T) {
	c := catalogOf(t, "o.json", `{"lexicon": 1, "id": "com.example.o", "defs": {
	  "main": {"type": "subscription", "message": {"schema": {"type": "union", "refs": ["#a"]}}},
	  "a": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}`)
	for _, r := range []struct {
		typ  string
		v    map[string]any
		path string
	}{
		{"#a", map[string]any{"n": int64(1), "f": 1.5}, "/f"}, // listed: refused before and after
		{"#zz", map[string]any{"f": 1.5}, "/f"},
		{"#zz", map[string]any{"f": []any{map[string]any{"x": 1.5}}}, "/f/0/x"},
		{"#zz", map[string]any{"b": map[string]any{"$type": "blob"}}, "/b"},
		{"#zz", map[string]any{"l": map[string]any{"$link": "x"}}, "/l/$link"},
	} {
		err := c.ValidateMessage("com.example.o", r.typ, r.v, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Rule != "data-model" || e.Path != r.path || !errors.Is(err, ErrValue) {
			t.Errorf("%s %v: %v; want data-model at %q", r.typ, r.v, err, r.path)
		}
	}
	if err := c.ValidateMessage("com.example.o", "#zz", map[string]any{"n": "x", "i": int32(3)}, Options{}); err != nil {
		t.Errorf("an unlisted message of data-model values: %v", err)
	}
}

// A message's $type, when there is one, must name the type of its frame, whether the union lists
// that type or not: a payload of an unlisted type that claims to be a listed variant (and is not
// one) contradicts its header as much as one of a listed type does.
func TestValidateMessageUnlistedTypeMismatch(t *testing.T) {
	c := catalogOf(t, "o.json", `{"lexicon": 1, "id": "com.example.o", "defs": {
	  "main": {"type": "subscription", "message": {"schema": {"type": "union", "refs": ["#a"]}}},
	  "a": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}`)
	for _, r := range []struct {
		typ string
		v   map[string]any
	}{
		{"#a", map[string]any{"$type": "com.example.o#zz", "n": int64(1)}}, // refused before and after
		{"#zz", map[string]any{"$type": "com.example.o#a", "n": "x"}},
		{"#zz", map[string]any{"$type": "com.example.o#other"}},
	} {
		err := c.ValidateMessage("com.example.o", r.typ, r.v, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Rule != "$type" || e.Path != "/$type" || !errors.Is(err, ErrValue) {
			t.Errorf("%s %v: %v; want $type at /$type", r.typ, r.v, err)
		}
	}
	for _, v := range []map[string]any{{"$type": "com.example.o#zz", "n": "x"}, {"n": "x"}} {
		if err := c.ValidateMessage("com.example.o", "#zz", v, Options{}); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
}
