package main

import (
	"strings"
	"testing"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/internal/testvec"
)

func TestGoldenCheck(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "check-tid", rule: "tid: the strict syntax; the legacy dashed form and upper case are not TIDs",
			args: []string{"check", "tid", "3kxnlhr3gxq23", "3kxn-lhr-3gxq-23", "3KXNLHR3GXQ23", "3kxnlhr3gxq2"},
			code: exitData, stderrHas: []string{`invalid TID "3kxn-lhr-3gxq-23"`, "offset 4", `invalid TID "3KXNLHR3GXQ23"`, `invalid TID "3kxnlhr3gxq2"`}},
		{name: "check-cid", rule: "cid: any well-formed CIDv1 in a canonical multibase string; CIDv0 is not",
			args: []string{"check", "cid", "bafyreieff43zhfwcmdsbm5th7puxzjoze7d7rr2aydvty6sjns4i2boyma",
				"bafkreidgmdyif2c6tntdjm2rghqg5btbfgiwqwfikoqf5zbbombshmazsy",
				"QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR", "bafyreieff43zhfwcmdsbm5th7puxzjoze7d7rr2aydvty6sjns4i2boym"},
			code: exitData, stderrHas: []string{`invalid CID "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR"`, "CIDv0"}},
		{name: "check-datetime", rule: "datetime: the Lexicon's strict form: 'T', seconds and a time zone required, upper-case 'Z'",
			args: []string{"check", "datetime", "2024-07-19T16:40:46.480Z", "1985-04-12T23:20:50.123+02:00",
				"2024-07-19 16:40:46Z", "2024-07-19T16:40:46.480z", "2024-07-19T16:40:46", "2024-02-30T00:00:00Z"},
			code: exitData, stderrHas: []string{`invalid datetime "2024-07-19 16:40:46Z"`, "offset 10",
				`invalid datetime "2024-07-19T16:40:46.480z"`, "offset 23", `invalid datetime "2024-07-19T16:40:46"`,
				`invalid datetime "2024-02-30T00:00:00Z"`}},
		{name: "check-did", rule: "did: the general DID syntax, any method; no query, fragment or upper-case method",
			args: []string{"check", "did", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:web:example.com", "did:key:zQ3sh",
				"did:PLC:x", "did:plc:", "did:web:example.com#key", "DID:plc:x"},
			code: exitData, stderrHas: []string{`invalid DID "did:PLC:x"`, "offset 4", `invalid DID "did:plc:"`,
				`invalid DID "did:web:example.com#key"`, "offset 19", `invalid DID "DID:plc:x"`}},
		{name: "check-at-identifier", rule: "at-identifier: a DID or a handle, each with its own rules",
			args: []string{"check", "at-identifier", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "alice.bsky.social", "did:plc:", "jo_hn.test"},
			code: exitData, stderrHas: []string{`invalid at-identifier "did:plc:": DID: `, `invalid at-identifier "jo_hn.test": handle: `}},
		{name: "check-at-uri", rule: "at-uri: the Lexicon form at://AUTHORITY[/COLLECTION[/RKEY]]; no query, fragment, trailing '/' or third segment",
			args: []string{"check", "at-uri", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3kxnlhr3gxq23", "at://alice.test",
				"at://alice.test/app.bsky.feed.post", "at://alice.test/", "at://alice.test/app.bsky.feed.post/a/b",
				"at://did:plc:x/app.bsky.feed.post/self#frag", "at://did:plc:x/com.atproto.feed.p@st", "https://alice.test"},
			code: exitData, stderrHas: []string{`invalid AT URI "at://alice.test/"`, `invalid AT URI "at://alice.test/app.bsky.feed.post/a/b"`,
				`invalid AT URI "at://did:plc:x/app.bsky.feed.post/self#frag"`, `invalid AT URI "at://did:plc:x/com.atproto.feed.p@st"`,
				"offset 33", `invalid AT URI "https://alice.test"`}},
		{name: "check-language", rule: "language: BCP 47 well-formed, primary subtag of 2-3 lower-case letters, no repeated variant or singleton",
			args: []string{"check", "language", "en", "pt-BR", "zh-Hant-TW", "i-default", "x-private", "JA", "jaja", "de-DE-1901-1901", "en-"},
			code: exitData, stderrHas: []string{`invalid language tag "JA"`, `invalid language tag "jaja"`,
				`invalid language tag "de-DE-1901-1901"`, `invalid language tag "en-"`}},
		{name: "check-lang", rule: "lang is language",
			args: []string{"check", "lang", "en", "EN"}, code: exitData, stderrHas: []string{`invalid language tag "EN"`}},
		{name: "check-nsid", rule: "nsid: 3 segments at least, the name letters and digits only; globs are not NSIDs",
			args: []string{"check", "nsid", "app.bsky.feed.post", "com.example.fooBar", "app.bsky", "com.example.p_st", "com.example.*"},
			code: exitData, stderrHas: []string{`invalid NSID "app.bsky"`, `invalid NSID "com.example.p_st"`, "offset 13", `invalid NSID "com.example.*"`}},
		{name: "check-handle", rule: "handle: syntax only; disallowed TLDs and handle.invalid are syntax-valid; no trailing dot, no IP",
			args: []string{"check", "handle", "alice.bsky.social", "Alice.Example", "handle.invalid", "jo_hn.test", "alice.test.", "1.2.3.4", "alice"},
			code: exitData, stderrHas: []string{`invalid handle "jo_hn.test"`, "offset 2", `invalid handle "alice.test."`,
				`invalid handle "1.2.3.4"`, `invalid handle "alice"`}},
		{name: "check-rkey", rule: "rkey: record keys, as \"rkey check\" checks them",
			args: []string{"check", "rkey", "self", "3kxnlhr3gxq23", "pre:fix", "..", "a/b"},
			code: exitData, stderrHas: []string{`invalid record key ".."`, `invalid record key "a/b"`, "offset 1"}},
		{name: "check-record-key", rule: "record-key, the Lexicon format's name, is rkey",
			args: []string{"check", "record-key", "self", "a/b"}, code: exitData, stderrHas: []string{`invalid record key "a/b"`}},
		{name: "check-stdin", rule: "with no VALUE, values are read from standard input, one per line, trimmed; blank lines skipped",
			args: []string{"check", "nsid"}, stdin: []byte("app.bsky.feed.post\r\napp.bsky\n\n com.example.x "), code: exitData,
			stderrHas: []string{`invalid NSID "app.bsky"`}},
		{name: "check-dash", rule: "'-' reads standard input in its place",
			args: []string{"check", "handle", "bob.test", "-", "carol.test"}, stdin: []byte("alice.test\n-alice.test\n"), code: exitData,
			stderrHas: []string{`invalid handle "-alice.test"`}},
		{name: "check-after-dashes", rule: "values that start with '-', '-' included, go after -- (after KIND or before it)",
			args: []string{"check", "rkey", "--", "-x", "-"}, code: exitOK},
		{name: "check-dashes-before-kind", rule: "values that start with '-', '-' included, go after -- (after KIND or before it)",
			args: []string{"check", "--", "rkey", "-x", "-"}, code: exitOK},
		{name: "check-json", rule: "-json: one object per value, valid or not, with the error and its offset",
			args: []string{"check", "-json", "did", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:PLC:x", "did:plc:"}, code: exitData,
			stderrHas: []string{`invalid DID "did:PLC:x"`}},
		{name: "check-no-kind", rule: "check needs a KIND: usage error",
			args: []string{"check"}, code: exitUsage, stderrHas: []string{"atcore check: no KIND given; want one of tid, ", `Run "atcore help check" for its usage.`}},
		{name: "check-unknown-kind", rule: "an unknown KIND is a usage error that lists the kinds",
			args: []string{"check", "uuid", "x"}, code: exitUsage,
			stderrHas: []string{`atcore check: unknown kind "uuid"; want one of tid, `, `Run "atcore help check" for its usage.`}},
	})
}

// The conformance vectors through the command: every valid value prints "ok VALUE", every
// invalid one fails on its own with exit status 1 and names the value and its kind.
func TestCheckVectors(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		file    string   // the vector files' stem
		invalid []string // more files of invalid values
		message string   // how the message names the kind
	}{
		{"tid", "tid", nil, "invalid TID "},
		{"datetime", "datetime", []string{"datetime_parse_invalid.txt"}, "invalid datetime "},
		{"at-uri", "aturi", nil, "invalid AT URI "},
		{"language", "language", []string{"language_parse_invalid.txt"}, "invalid language tag "},
		{"did", "did", nil, "invalid DID "},
		{"at-identifier", "atidentifier", nil, "invalid at-identifier "},
		{"nsid", "nsid", nil, "invalid NSID "},
		{"handle", "handle", nil, "invalid handle "},
		{"rkey", "recordkey", nil, "invalid record key "},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			valid := testvec.Syntax(t, tc.file+"_syntax_valid.txt")
			if len(valid) == 0 {
				t.Fatal("no valid vectors")
			}
			r := atcore(nil, append([]string{"check", tc.kind, "--"}, valid...)...)
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("valid vectors: exit %d\n%s", r.code, r.stderr)
			}
			got := lines(r.stdout)
			if len(got) != len(valid) {
				t.Fatalf("valid vectors: %d lines for %d values", len(got), len(valid))
			}
			for i, v := range valid {
				if got[i] != "ok "+v {
					t.Errorf("line %d: %q, want %q", i, got[i], "ok "+v)
				}
			}
			invalid := testvec.Syntax(t, tc.file+"_syntax_invalid.txt")
			for _, f := range tc.invalid {
				invalid = append(invalid, testvec.Syntax(t, f)...)
			}
			for _, v := range invalid {
				r := atcore(nil, "check", tc.kind, "--", v)
				if r.code != exitData || r.stdout != "" || !strings.HasPrefix(r.stderr, "atcore check: "+tc.message) ||
					strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("invalid vector %q: exit %d, stdout %q, stderr %q", v, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// The CID vectors are for the loose syntax check of the conformance suite, which accepts CIDv0
// and strings that do not decode; "check cid" uses the strict cidutil.ParseString, and says
// what it says on every vector.
func TestCheckCIDVectors(t *testing.T) {
	all := append(testvec.Syntax(t, "cid_syntax_valid.txt"), testvec.Syntax(t, "cid_syntax_invalid.txt")...)
	accepted := 0
	for _, v := range all {
		r := atcore(nil, "check", "cid", "--", v)
		_, err := cidutil.ParseString(v)
		switch {
		case err == nil && (r.code != exitOK || r.stdout != "ok "+v+"\n" || r.stderr != ""):
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want ok", v, r.code, r.stdout, r.stderr)
		case err != nil && (r.code != exitData || r.stdout != "" || r.stderr != "atcore check: "+err.Error()+"\n"):
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want the error %q", v, r.code, r.stdout, r.stderr, err)
		}
		if err == nil {
			accepted++
		}
	}
	if accepted == 0 || accepted == len(all) {
		t.Errorf("%d of %d vectors accepted: the test no longer tells valid from invalid", accepted, len(all))
	}
}

// "check rkey" and "rkey check" accept the same record keys, with the same messages. (rkey check
// also takes repository paths, COLLECTION/KEY: a value with a '/' is a path there and an
// invalid key here.)
func TestCheckRkeyIsRkeyCheck(t *testing.T) {
	keys := append(testvec.Syntax(t, "recordkey_syntax_valid.txt"), testvec.Syntax(t, "recordkey_syntax_invalid.txt")...)
	for _, key := range keys {
		a := atcore(nil, "check", "rkey", "--", key)
		b := atcore(nil, "rkey", "check", "--", key)
		if strings.Contains(key, "/") {
			if a.code != exitData || !strings.HasPrefix(a.stderr, "atcore check: invalid record key ") {
				t.Errorf("check rkey %q: exit %d, stderr %q", key, a.code, a.stderr)
			}
			continue
		}
		if a.code != b.code || a.stdout != b.stdout ||
			a.stderr != strings.ReplaceAll(b.stderr, "atcore rkey check: ", "atcore check: ") {
			t.Errorf("%q: check rkey exits %d\n%s%s\nrkey check exits %d\n%s%s", key, a.code, a.stdout, a.stderr, b.code, b.stdout, b.stderr)
		}
	}
}

// The help of check names every kind it accepts.
func TestCheckHelpNamesEveryKind(t *testing.T) {
	help := atcore(nil, "help", "check").stdout
	for _, k := range kinds {
		for _, name := range append([]string{k.name}, k.aliases...) {
			if !strings.Contains(help, name) {
				t.Errorf("help check does not name the kind %q", name)
			}
		}
	}
}
