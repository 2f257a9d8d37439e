package rkey

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

func TestParseKeyType(t *testing.T) {
	for _, tc := range []struct {
		rule    string
		in      string
		want    KeyType
		message string // "" when valid
	}{
		{"rule 3: tid", "tid", TID, ""},
		{"rule 3: nsid", "nsid", NSID, ""},
		{"rule 3: any", "any", Any, ""},
		{"rule 3: literal", "literal:self", KeyType{kind: kindLiteral, literal: "self"}, ""},
		{"rule 3: literal value may hold a colon", "literal:a:b", KeyType{kind: kindLiteral, literal: "a:b"}, ""},
		{"rule 3: literal value '...' is a valid key", "literal:...", KeyType{kind: kindLiteral, literal: "..."}, ""},
		{"rule 3: case-sensitive", "TID", KeyType{},
			`invalid record key type "TID": want tid, nsid, any or literal:<record key>`},
		{"rule 3: unknown type", "uuid", KeyType{},
			`invalid record key type "uuid": want tid, nsid, any or literal:<record key>`},
		{"rule 3: empty", "", KeyType{},
			`invalid record key type "": want tid, nsid, any or literal:<record key>`},
		{"rule 3: no surrounding space", " tid", KeyType{},
			`invalid record key type " tid": want tid, nsid, any or literal:<record key>`},
		{"rule 3: literal without a value", "literal:", KeyType{},
			`invalid record key type "literal:": literal value: empty; a record key has 1 to 512 characters`},
		{"rule 3 + rule 2: literal value '.'", "literal:.", KeyType{},
			`invalid record key type "literal:.": literal value: "." is reserved and is never a record key`},
		{"rule 3 + rule 1: literal value with a slash", "literal:a/b", KeyType{},
			`invalid record key type "literal:a/b": literal value: '/' at offset 9 is not allowed`},
		{"rule 3: literal prefix is case-sensitive", "Literal:self", KeyType{},
			`invalid record key type "Literal:self": want tid, nsid, any or literal:<record key>`},
	} {
		got, err := ParseKeyType(tc.in)
		if tc.message == "" {
			if err != nil || got != tc.want {
				t.Errorf("%s: ParseKeyType(%q) = %v, %v; want %v", tc.rule, tc.in, got, err, tc.want)
			}
			if s := got.String(); err == nil && s != tc.in {
				t.Errorf("%s: String() = %q, want %q", tc.rule, s, tc.in)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: ParseKeyType(%q) = %v, want an error", tc.rule, tc.in, got)
			continue
		}
		if err.Error() != tc.message {
			t.Errorf("%s: message\n got %s\nwant %s", tc.rule, err, tc.message)
		}
		if !errors.Is(err, ErrKeyType) || errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v must match ErrKeyType and not ErrInvalid", tc.rule, err)
		}
	}
}

func TestKeyTypeZeroValueIsAny(t *testing.T) {
	var zero KeyType
	if zero != Any || zero.String() != "any" {
		t.Errorf("zero KeyType = %v, want any", zero)
	}
	if zero.Check("anything:goes") != nil || zero.Check("a/b") == nil {
		t.Error("zero KeyType does not check like any")
	}
}

func TestLiteral(t *testing.T) {
	kt, err := Literal("self")
	if err != nil || kt != MustParseKeyType("literal:self") {
		t.Fatalf("Literal(self) = %v, %v", kt, err)
	}
	if v, ok := kt.LiteralValue(); v != "self" || !ok {
		t.Errorf("LiteralValue() = %q, %v", v, ok)
	}
	if v, ok := TID.LiteralValue(); v != "" || ok {
		t.Errorf("TID.LiteralValue() = %q, %v", v, ok)
	}
	_, err = Literal(strings.Repeat("x", 10000) + "/")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrKeyType) {
		t.Fatalf("Literal(huge) = %v", err)
	}
	if e.Len != len("literal:")+10001 || len(e.Input) > MaxEcho || e.Offset != len("literal:")+MaxLen {
		t.Errorf("Literal(huge): Len %d, Input %d bytes, Offset %d", e.Len, len(e.Input), e.Offset)
	}
}

func TestMustParseKeyTypePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParseKeyType(bad) did not panic")
		}
	}()
	MustParseKeyType("bad")
}

func TestKeyTypeText(t *testing.T) {
	type schema struct {
		Key KeyType `json:"key"`
	}
	for _, in := range []string{"tid", "nsid", "any", "literal:self"} {
		var s schema
		if err := json.Unmarshal([]byte(`{"key":"`+in+`"}`), &s); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := json.Marshal(s)
		if err != nil || string(out) != `{"key":"`+in+`"}` {
			t.Errorf("%s: round trip gives %s, %v", in, out, err)
		}
	}
	var s schema
	if err := json.Unmarshal([]byte(`{"key":"literal:"}`), &s); !errors.Is(err, ErrKeyType) {
		t.Errorf("bad key type in JSON: %v, want ErrKeyType", err)
	}
}

func TestCheck(t *testing.T) {
	self := MustParseKeyType("literal:self")
	for _, tc := range []struct {
		rule     string
		typ      KeyType
		key      string
		sentinel error // nil when accepted
		message  string
	}{
		{"tid: spec example", TID, "3jui7kd54zh2y", nil, ""},
		{"tid: smallest", TID, "2222222222222", nil, ""},
		{"tid: largest first character j", TID, "jzzzzzzzzzzzz", nil, ""},
		{"tid: first character above j", TID, "kzzzzzzzzzzzz", ErrTypeMismatch,
			`invalid record key "kzzzzzzzzzzzz": key type tid: first character 'k' is above 'j': the value would not fit in 64 bits`},
		{"tid: too short", TID, "self", ErrTypeMismatch,
			`invalid record key "self": key type tid: a TID has 13 characters; this has 4`},
		{"tid: upper case", TID, "3JUI7KD54ZH2Y", ErrTypeMismatch,
			`invalid record key "3JUI7KD54ZH2Y": key type tid: 'J' at offset 1: upper case is not allowed`},
		{"tid: digit outside alphabet", TID, "3jui7kd54zh21", ErrTypeMismatch,
			`invalid record key "3jui7kd54zh21": key type tid: '1' at offset 12 is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz`},
		{"tid: legacy dashes", TID, "3jui-7kd-54zh-2y", ErrTypeMismatch,
			`invalid record key "3jui-7kd-54zh-2y": key type tid: '-' at offset 4: hyphens (the legacy dashed form) are not allowed`},
		{"tid: the same words as package tid, length first", TID, "3JUI7KD54ZH2YY", ErrTypeMismatch,
			`invalid record key "3JUI7KD54ZH2YY": key type tid: a TID has 13 characters; this has 14`},
		{"tid: syntax checked first", TID, "3jui7kd54zh2/", ErrCharacter,
			`invalid record key "3jui7kd54zh2/": '/' at offset 12 is not allowed`},
		{"nsid: valid", NSID, "app.bsky.feed.post", nil, ""},
		{"nsid: two segments", NSID, "example.com", ErrTypeMismatch,
			`invalid record key "example.com": key type nsid: 2 segments; an NSID has at least 3, as in com.example.thing`},
		{"nsid: underscore is a key character but not an NSID one", NSID, "com.example.p_st", ErrTypeMismatch,
			`invalid record key "com.example.p_st": key type nsid: '_' at offset 13 is not allowed in an NSID`},
		{"nsid: '.' is reserved before it is an NSID question", NSID, ".", ErrReserved,
			`invalid record key ".": "." is reserved and is never a record key`},
		{"any: colon", Any, "did:plc:abc", nil, ""},
		{"any: empty", Any, "", ErrLength,
			`invalid record key "": empty; a record key has 1 to 512 characters`},
		{"literal: exact", self, "self", nil, ""},
		{"literal: case-sensitive", self, "Self", ErrTypeMismatch,
			`invalid record key "Self": key type literal:self accepts only "self"`},
		{"literal: no prefix match", self, "self.", ErrTypeMismatch,
			`invalid record key "self.": key type literal:self accepts only "self"`},
	} {
		err := tc.typ.Check(tc.key)
		if tc.sentinel == nil {
			if err != nil {
				t.Errorf("%s: %v.Check(%q) = %v", tc.rule, tc.typ, tc.key, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: %v.Check(%q) = nil, want %v", tc.rule, tc.typ, tc.key, tc.sentinel)
			continue
		}
		if !errors.Is(err, tc.sentinel) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v does not match %v and ErrInvalid", tc.rule, err, tc.sentinel)
		}
		if err.Error() != tc.message {
			t.Errorf("%s: message\n got %s\nwant %s", tc.rule, err, tc.message)
		}
	}
}

func TestCheckVectors(t *testing.T) {
	for _, key := range testvec.Syntax(t, "tid_syntax_valid.txt") {
		if err := TID.Check(key); err != nil {
			t.Errorf("TID.Check(%q) = %v", key, err)
		}
	}
	for _, key := range testvec.Syntax(t, "tid_syntax_invalid.txt") {
		if TID.Check(key) == nil {
			t.Errorf("TID.Check(%q) = nil, want an error", key)
		}
	}
	for _, key := range testvec.Syntax(t, "nsid_syntax_valid.txt") {
		if err := NSID.Check(key); err != nil {
			t.Errorf("NSID.Check(%q) = %v", key, err)
		}
	}
	for _, key := range testvec.Syntax(t, "nsid_syntax_invalid.txt") {
		if NSID.Check(key) == nil {
			t.Errorf("NSID.Check(%q) = nil, want an error", key)
		}
	}
}

func TestCheckNoAllocs(t *testing.T) {
	for _, tc := range []struct {
		typ KeyType
		key string
	}{
		{TID, "3jui7kd54zh2y"}, {NSID, "app.bsky.feed.post"}, {Any, "self"}, {MustParseKeyType("literal:self"), "self"},
	} {
		if n := testing.AllocsPerRun(100, func() {
			if tc.typ.Check(tc.key) != nil {
				t.Fatal("rejected")
			}
		}); n != 0 {
			t.Errorf("%v.Check(%q) allocates %v times", tc.typ, tc.key, n)
		}
	}
}
