package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/atcore/atcore/internal/testvec"
)

func TestGoldenInspect(t *testing.T) {
	checkGolden(t, []goldenCase{
		{name: "inspect-tid", rule: "a TID shows its time, clock and forms, as tid inspect does; it is a record key too",
			args: []string{"inspect", "3kxnlhr3gxq23", "2222222222222"}, code: exitOK},
		{name: "inspect-cid", rule: "a CID shows its base, version, codec, hash and digest, and whether it is blessed (DECISIONS rule 12)",
			args: []string{"inspect", "bafyreieff43zhfwcmdsbm5th7puxzjoze7d7rr2aydvty6sjns4i2boyma",
				"bafkreidgmdyif2c6tntdjm2rghqg5btbfgiwqwfikoqf5zbbombshmazsy",
				"bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
				"f017012202c5f688262e0ece8569aa6f94d60aad55ca8d9d83734e4a7430d0cff6588ec2b"},
			code: exitOK},
		{name: "inspect-datetime", rule: "a datetime shows its instant in UTC and its offset as written",
			args: []string{"inspect", "2024-07-19T16:40:46.480Z", "1985-04-12T23:20:50.123-07:00", "2024-07-19T16:40:46+00:00"},
			code: exitOK},
		{name: "inspect-at-uri", rule: "an AT URI shows its authority (as did= or handle=), collection and record key, the key's time when it is a TID, the normalized form when it differs",
			args: []string{"inspect", "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3kxnlhr3gxq23",
				"at://Alice.Test/Com.Example.fooBar/self", "at://alice.test/app.bsky.actor.profile", "at://did:web:example.com"},
			code: exitOK},
		{name: "inspect-language", rule: "a language tag shows its primary language, script and region, those it has; short tags are record keys too",
			args: []string{"inspect", "en", "pt-BR", "zh-Hant-TW", "es-419", "x-private", "i-default"}, code: exitOK},
		{name: "inspect-did", rule: "a DID shows its method and identifier, and whether atproto supports it (did:plc exact form, host-level did:web)",
			args: []string{"inspect", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "did:plc:short", "did:web:example.com",
				"did:web:localhost%3A8080", "did:web:example.com:path", "did:key:zQ3sh"},
			code: exitOK},
		{name: "inspect-nsid", rule: "an NSID shows its authority, name and domain; the normalized form when it differs; it is often a handle and a record key too",
			args: []string{"inspect", "app.bsky.feed.post", "Com.Example.fooBar"}, code: exitOK},
		{name: "inspect-handle", rule: "a handle shows its TLD and whether it may be resolved, the normalized form when it differs",
			args: []string{"inspect", "alice.bsky.social", "Alice.Test", "bob.local", "handle.invalid", "xn--ls8h.test"},
			code: exitOK},
		{name: "inspect-rkey", rule: "a value that is only a record key has no parts",
			args: []string{"inspect", "self", "pre:fix", "did:plc:", "~1.2-3_"}, code: exitOK},
		{name: "inspect-none", rule: "a value of no kind: one line on standard error, the error of the kind it comes closest to",
			args: []string{"inspect", "ok.kind", "did:plc:ab cd", "at://did:plc:x/com.atproto.feed.p@st", "at://alice.test/", "alpha/beta", "2024-07-19 16:40:46Z", "3kxnlhr3gxq2/", "", "a b"},
			code: exitData, stderrHas: []string{`atcore inspect: no kind fits; closest: invalid DID "did:plc:ab cd"`,
				`closest: invalid AT URI "at://did:plc:x/com.atproto.feed.p@st": collection: '@' at offset 33`,
				`closest: invalid AT URI "at://alice.test/": trailing '/' at offset 15`,
				`closest: invalid NSID "alpha/beta": '/' at offset 5`, `no kind fits an empty value`}},
		{name: "inspect-json", rule: "-json: one object per value, its kinds and their parts, or the closest kind and its error",
			args: []string{"inspect", "-json", "3kxnlhr3gxq23", "did:web:example.com", "did:plc:ab cd", ""}, code: exitData,
			stderrHas: []string{`closest: invalid DID "did:plc:ab cd"`}},
		{name: "inspect-stdin", rule: "with no VALUE, or '-', values are read from standard input, one per line",
			args: []string{"inspect", "-"}, stdin: []byte("3kxnlhr3gxq23\r\nnot a value\nen\n"), code: exitData,
			stderrHas: []string{`atcore inspect: no kind fits; closest: `, `"not a value"`}},
	})
}

// Every valid conformance vector of a kind that inspect tries is shown as that kind.
func TestInspectVectors(t *testing.T) {
	for _, tc := range []struct{ kind, file string }{
		{"tid", "tid"},
		{"datetime", "datetime"},
		{"at-uri", "aturi"},
		{"did", "did"},
		{"nsid", "nsid"},
		{"handle", "handle"},
		{"language", "language"},
		{"rkey", "recordkey"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			for _, v := range testvec.Syntax(t, tc.file+"_syntax_valid.txt") {
				r := atcore(nil, "inspect", "--", v)
				found := false
				for _, l := range lines(r.stdout) {
					found = found || l == tc.kind+"="+v || strings.HasPrefix(l, tc.kind+"="+v+" ")
				}
				if r.code != exitOK || r.stderr != "" || !found {
					t.Errorf("%q: exit %d, no %s line in\n%s%s", v, r.code, tc.kind, r.stdout, r.stderr)
				}
			}
			// A value invalid as this kind gives no line of this kind.
			for _, v := range testvec.Syntax(t, tc.file+"_syntax_invalid.txt") {
				r := atcore(nil, "inspect", "--", v)
				for _, l := range lines(r.stdout) {
					if strings.HasPrefix(l, tc.kind+"=") {
						t.Errorf("%q is invalid as %s, but inspect prints %q", v, tc.kind, l)
					}
				}
			}
		})
	}
}

// inspect's line for a TID is the line tid inspect prints.
func TestInspectTIDIsTIDInspect(t *testing.T) {
	for _, v := range testvec.Syntax(t, "tid_syntax_valid.txt") {
		a := lines(atcore(nil, "inspect", v).stdout)
		b := atcore(nil, "tid", "inspect", v).stdout
		if len(a) == 0 || a[0]+"\n" != b {
			t.Errorf("%q: inspect prints %q, tid inspect %q", v, a, b)
		}
	}
}

// The help of inspect names every kind it tries, in the order it prints them.
func TestInspectHelpOrder(t *testing.T) {
	help := atcore(nil, "help", "inspect").stdout
	last := -1
	for _, k := range kinds {
		if !k.inspected {
			continue
		}
		i := strings.Index(help, "\n  "+k.name+" ")
		if i < 0 || i < last {
			t.Errorf("help inspect does not list %q in order (at %d, after %d)", k.name, i, last)
		}
		last = i
	}
}

// inspect and check agree on every input: inspect prints a KIND line for a value exactly when
// "check KIND" accepts it, and a value of no kind gives one line on standard error, exit 1.
func FuzzInspect(f *testing.F) {
	for _, name := range []string{"tid", "cid", "datetime", "did", "nsid", "handle", "recordkey", "atidentifier", "aturi", "language"} {
		for _, suffix := range []string{"_syntax_valid.txt", "_syntax_invalid.txt"} {
			for _, v := range testvec.Syntax(f, name+suffix) {
				f.Add(v)
			}
		}
	}
	f.Fuzz(func(t *testing.T, v string) {
		r := atcore(nil, "inspect", "--", v)
		got := map[string]bool{}
		for _, l := range lines(r.stdout) {
			name, rest, _ := strings.Cut(l, "=")
			if rest != v && !strings.HasPrefix(rest, v+" ") {
				t.Fatalf("%q: line %q does not start with KIND=VALUE", v, l)
			}
			got[name] = true
		}
		if (r.code == exitOK) != (len(got) > 0) || (r.code != exitOK && strings.Count(r.stderr, "\n") != 1) ||
			(r.code == exitOK && r.stderr != "") {
			t.Fatalf("%q: exit %d, stdout %q, stderr %q", v, r.code, r.stdout, r.stderr)
		}
		for _, k := range kinds {
			if !k.inspected {
				continue
			}
			c := atcore(nil, "check", k.name, "--", v)
			if (c.code == exitOK) != got[k.name] {
				t.Fatalf("%q: check %s exits %d, inspect prints a %s line: %v", v, k.name, c.code, k.name, got[k.name])
			}
		}
	})
}

// inspect -json writes one JSON object per value, whose kinds and parts are those of the text
// form.
func TestInspectJSON(t *testing.T) {
	values := []string{"3kxnlhr3gxq23", "app.bsky.feed.post", "at://Alice.Test/app.bsky.feed.post/3kxnlhr3gxq23", "zh-Hant-TW", "bafyreieff43zhfwcmdsbm5th7puxzjoze7d7rr2aydvty6sjns4i2boyma",
		"2024-07-19T16:40:46.480Z", "did:web:example.com", "Alice.Test", "self", "a b", "did:plc:ab cd"}
	text := atcore(nil, append([]string{"inspect"}, values...)...)
	js := atcore(nil, append([]string{"inspect", "-json"}, values...)...)
	if js.code != text.code || js.stderr != text.stderr {
		t.Errorf("-json: exit %d, stderr %q; without: exit %d, stderr %q", js.code, js.stderr, text.code, text.stderr)
	}
	objects := lines(js.stdout)
	if len(objects) != len(values) {
		t.Fatalf("%d lines of JSON for %d values:\n%s", len(objects), len(values), js.stdout)
	}
	var fromJSON []string
	for i, line := range objects {
		var r struct {
			Input   string           `json:"input"`
			OK      bool             `json:"ok"`
			Kinds   []map[string]any `json:"kinds"`
			Closest string           `json:"closest"`
			Error   string           `json:"error"`
			Offset  *int             `json:"offset"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, line)
		}
		if r.Input != values[i] || r.OK != (len(r.Kinds) > 0) || r.OK == (r.Error != "") || (!r.OK && (r.Closest == "" || r.Offset == nil)) {
			t.Errorf("line %d: %s", i, line)
		}
		if !r.OK && !strings.Contains(text.stderr, r.Error) {
			t.Errorf("line %d: error %q is not on standard error:\n%s", i, r.Error, text.stderr)
		}
		for _, k := range r.Kinds {
			// Rebuild the text line; the keys' order is the text form's, checked by the golden files.
			s := k["kind"].(string) + "=" + r.Input
			var keys []string
			for key := range k {
				if key != "kind" {
					keys = append(keys, key)
				}
			}
			for _, f := range strings.Fields(lineOf(text.stdout, s))[1:] {
				key, value, _ := strings.Cut(f, "=")
				got, ok := k[key]
				if !ok || fmt.Sprint(got) != value {
					t.Errorf("%s: %s=%v in JSON, %s in text", s, key, got, value)
				}
			}
			if n := len(strings.Fields(lineOf(text.stdout, s))) - 1; n != len(keys) {
				t.Errorf("%s: %d parts in JSON, %d in text", s, len(keys), n)
			}
			fromJSON = append(fromJSON, s)
		}
	}
	if len(fromJSON) != len(lines(text.stdout)) {
		t.Errorf("%d kinds in JSON, %d lines of text", len(fromJSON), len(lines(text.stdout)))
	}
}

// lineOf returns the line of out that is prefix or starts with prefix and a space.
func lineOf(out, prefix string) string {
	for _, l := range lines(out) {
		if l == prefix || strings.HasPrefix(l, prefix+" ") {
			return l
		}
	}
	return ""
}

// blessed= says whether the string is a CID in the blessed form (DECISIONS rule 12, the data
// model spec's "base32 (with b prefix) for string encoding"), as cidutil.ParseBlessed decides:
// the same CID in base58btc, upper-case base32 or base16 is no blessed string, whatever its
// codec and hash.
func TestInspectCIDBlessed(t *testing.T) {
	for _, tc := range []struct {
		value   string
		blessed bool
	}{
		{"bafyreieff43zhfwcmdsbm5th7puxzjoze7d7rr2aydvty6sjns4i2boyma", true},
		{"bafkreidgmdyif2c6tntdjm2rghqg5btbfgiwqwfikoqf5zbbombshmazsy", true},
		{"BAFYREIEFF43ZHFWCMDSBM5TH7PUXZJOZE7D7RR2AYDVTY6SJNS4I2BOYMA", false},
		{"f01711220852f379396c260e4167667fbe97ca5d927c7f8c740c0eb3c7a496cb88d05d860", false},
		{"zb2rhe5P4gXftAwvA4eXQ5HJwsER2owDyS9sKaQRRVQPn93bA", false},
		{"bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi", false}, // dag-pb
	} {
		r := atcore(nil, "inspect", tc.value)
		line := lineOf(r.stdout, "cid="+tc.value)
		if r.code != exitOK || line == "" {
			t.Errorf("inspect %s: exit %d, stdout %q, stderr %q", tc.value, r.code, r.stdout, r.stderr)
			continue
		}
		if want := fmt.Sprintf(" blessed=%t", tc.blessed); !strings.HasSuffix(line, want) {
			t.Errorf("inspect %s: %s; want%s", tc.value, line, want)
		}
	}
}
