package rkey_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/atcore/atcore/rkey"
)

func ExampleValidate() {
	for _, key := range []string{"self", "did:plc:abc", "a/b", ".."} {
		fmt.Println(rkey.Validate(key))
	}
	err := rkey.Validate("a/b")
	var e *rkey.Error
	fmt.Println(errors.Is(err, rkey.ErrInvalid), errors.Is(err, rkey.ErrCharacter), errors.As(err, &e) && e.Offset == 1)
	// Output:
	// <nil>
	// <nil>
	// invalid record key "a/b": '/' at offset 1 is not allowed
	// invalid record key "..": ".." is reserved and is never a record key
	// true true true
}

func ExampleParseKeyType() {
	kt, err := rkey.ParseKeyType("tid")
	if err != nil {
		panic(err)
	}
	fmt.Println(kt, kt.Check("3jui7kd54zh2y"))
	fmt.Println(kt.Check("self"))

	self, _ := rkey.ParseKeyType("literal:self")
	fmt.Println(self, self.Check("self"))
	err = self.Check("other")
	fmt.Println(err, errors.Is(err, rkey.ErrTypeMismatch))
	// Output:
	// tid <nil>
	// invalid record key "self": key type tid: a TID has 13 characters; this has 4
	// literal:self <nil>
	// invalid record key "other": key type literal:self accepts only "self" true
}

func ExampleParsePath() {
	collection, key, err := rkey.ParsePath("app.bsky.feed.post/3jui7kd54zh2y")
	fmt.Println(collection, key, err)
	_, _, err = rkey.ParsePath("app.bsky.feed.post/..")
	fmt.Println(err)
	fmt.Println(errors.Is(err, rkey.ErrPath), errors.Is(err, rkey.ErrReserved))
	// Output:
	// app.bsky.feed.post 3jui7kd54zh2y <nil>
	// invalid repository path "app.bsky.feed.post/..": record key: ".." is reserved and is never a record key
	// true true
}

func ExampleKeyType_Check() {
	// The "key" field of a record Lexicon, read with the schema.
	var schema struct {
		Key rkey.KeyType `json:"key"`
	}
	if err := json.Unmarshal([]byte(`{"key": "tid"}`), &schema); err != nil {
		panic(err)
	}
	for _, key := range []string{"3jui7kd54zh2y", "self", "a/b"} {
		err := schema.Key.Check(key)
		fmt.Println(err)
		if err != nil {
			// Every rejection is a bad request; the sentinel tells which kind.
			fmt.Println(errors.Is(err, rkey.ErrInvalid), errors.Is(err, rkey.ErrTypeMismatch))
		}
	}
	// Output:
	// <nil>
	// invalid record key "self": key type tid: a TID has 13 characters; this has 4
	// true true
	// invalid record key "a/b": '/' at offset 1 is not allowed
	// true false
}
