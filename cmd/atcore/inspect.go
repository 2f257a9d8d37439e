package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/aturi"
	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/lang"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
	"github.com/atcore/atcore/tid"
	mh "github.com/multiformats/go-multihash"
)

var inspectCommand = &command{
	name:     "inspect",
	synopsis: "[-json] [VALUE...]",
	summary:  "tell what kind of identifier each value is and show its parts",
	doc: `
Tries each VALUE as every kind of identifier, with the strict rules of "atcore check", and
prints one line for each kind it is, most specific first, in this order:

  tid       time= (or top-bit=true) clock= class= integer= dashed=   (as "atcore tid inspect")
  cid       base= version= codec= hash= digest= (hex) blessed= (the form atproto writes: base32
            lower case, CIDv1, dag-cbor or raw, sha2-256)
  datetime  time= (the instant, UTC) offset= (as written)
  at-uri    did= or handle= (the authority) collection= rkey= time= (when the key is a TID;
            top-bit=true instead when the TID has the top bit set, which holds no time)
            normalized=
  did       method= identifier= supported= (a did:plc in exact form, a host-level did:web)
            host= (did:web only)
  nsid      authority= name= domain= (the authority reversed) normalized=
  handle    tld= resolvable= (false for a disallowed TLD and handle.invalid) normalized=
  language  primary= (the primary language subtag) script= region= (those the tag has)
  rkey      (no parts)

Each line starts with KIND=VALUE and goes on with the parts as key=value fields, so that a
value that is several kinds (3kxnlhr3gxq23 is a TID and a record key; app.bsky.feed.post an
NSID, a handle and a record key) gives several lines. normalized= appears only when the
normalized form differs from the value. A value that is no kind at all gives a line on
standard error, with the error of the kind it comes closest to (the one whose error is
furthest into the value), and the exit status is 1. With no VALUE, or "-", reads the values
from standard input, one per line; values that start with "-", the value "-" included, go
after "--".

With -json, one JSON object per value on standard output, whatever it is: "input", "ok", and
"kinds", a list of objects with "kind" and the parts, named as in the lines with '_' for '-'
("top_bit"; clock, version and the true/false parts as JSON numbers and booleans, the others as
strings), or "error" and, unless the value is
empty, "closest" (the kind) and "offset" (-1: the value as a whole).`,
	example: `
$ atcore inspect app.bsky.feed.post
nsid=app.bsky.feed.post authority=app.bsky.feed name=post domain=feed.bsky.app
handle=app.bsky.feed.post tld=post resolvable=true
rkey=app.bsky.feed.post`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		asJSON := fs.Bool("json", false, "print one JSON object per value")
		return func(c *call, args []string) int {
			c.jsonPerItem = *asJSON
			return c.eachItem(args, func(w *bufio.Writer, value string) error {
				found, closest, err := inspect(value)
				if *asJSON {
					r := inspectResult{Input: value, OK: err == nil, Kinds: found}
					if err != nil {
						r.Error = err.Error()
						if closest != nil {
							r.Closest = closest.name
							r.Error = closest.err.Error()
							if off, ok := errOffset(closest.err); ok {
								r.Offset = &off
							}
						}
					}
					writeJSONLine(w, r)
					return err
				}
				for _, f := range found {
					w.WriteString(f.kind.name + "=" + value)
					for _, p := range f.parts {
						w.WriteString(" " + p.key + "=" + p.value)
					}
					w.WriteString("\n")
				}
				return err
			})
		}
	},
}

// A match is a kind a value is, with its parts.
type match struct {
	kind  *kind
	parts []part
}

// A miss is a kind a value is not, with the reason.
type miss struct {
	*kind
	err error
}

// inspect returns every kind value is, in the order of kinds. When it is none, it also returns
// the kind it comes closest to, if any, and an error that says so.
func inspect(value string) ([]match, *miss, error) {
	if value == "" {
		return nil, nil, errors.New("no kind fits an empty value")
	}
	var found []match
	var closest *miss
	best := -2
	for _, k := range kinds {
		if !k.inspected {
			continue
		}
		parts, err := k.parse(value)
		if err == nil {
			found = append(found, match{k, parts})
			continue
		}
		// The kind whose parser got furthest into the value is the likeliest intent; on a
		// tie the more specific kind, which comes first, wins.
		if off := closeness(err); off > best {
			best, closest = off, &miss{k, err}
		}
	}
	if len(found) > 0 {
		return found, nil, nil
	}
	return nil, closest, fmt.Errorf("no kind fits; closest: %w", closest.err)
}

// closeness tells how far a parser got into the value before err: the offset of the error, or
// -1 when it read no character (the input as a whole is at fault).
func closeness(err error) int {
	var te *tid.Error
	if errors.As(err, &te) && te.Len != tid.Len {
		return -1 // tid reports a wrong length at the end of the input, but checks it first
	}
	off, _ := errOffset(err)
	return off
}

// inspectResult is one line of "inspect -json".
type inspectResult struct {
	Input   string  `json:"input"`
	OK      bool    `json:"ok"`
	Kinds   []match `json:"kinds,omitempty"`
	Closest string  `json:"closest,omitempty"` // the kind the value comes closest to
	Error   string  `json:"error,omitempty"`   // why it is not of that kind
	Offset  *int    `json:"offset,omitempty"`  // byte offset in the input; -1: the input as a whole
}

// MarshalJSON writes a match as an object: "kind", then the parts in order, numbers and
// booleans as JSON numbers and booleans. A part's key is its text key with '_' for '-'
// ("top_bit"), as every -json output of the CLI names its fields, so that they read as
// identifiers in jq and in the languages that read them.
func (m match) MarshalJSON() ([]byte, error) {
	b := append([]byte(`{"kind":`), strconv.Quote(m.kind.name)...)
	for _, p := range m.parts {
		b = append(b, ',')
		b = strconv.AppendQuote(b, strings.ReplaceAll(p.key, "-", "_"))
		b = append(b, ':')
		if p.raw {
			b = append(b, p.value...)
		} else {
			q, err := json.Marshal(p.value)
			if err != nil {
				return nil, err
			}
			b = append(b, q...)
		}
	}
	return append(b, '}'), nil
}

func tidParts(s string) ([]part, error) {
	t, err := tid.Parse(s)
	if err != nil {
		return nil, err
	}
	return tidFields(t), nil
}

func cidParts(s string) ([]part, error) {
	c, err := cidutil.ParseString(s)
	if err != nil {
		return nil, err
	}
	p := c.Prefix()
	m, err := mh.Decode(c.Hash()) // cannot fail: ParseString checked the multihash
	if err != nil {
		return nil, err
	}
	return []part{
		{"base", multibaseName(s[0]), false},
		{"version", strconv.FormatUint(p.Version, 10), true},
		{"codec", codecName(p.Codec), false},
		{"hash", hashName(p.MhType), false},
		{"digest", hex.EncodeToString(m.Digest), false},
		{"blessed", strconv.FormatBool(isBlessedString(s)), true},
	}, nil
}

// isBlessedString tells whether s is a CID string in the blessed form (DECISIONS rule 12): the
// binary CID's version, codec and hash, and base32 lower case, as the data model spec asks of a
// CID written as a string. cidutil.IsBlessed looks at the binary CID alone, and would say a
// base58btc string is blessed.
func isBlessedString(s string) bool {
	_, err := cidutil.ParseBlessed(s)
	return err == nil
}

// multibaseName names the multibase whose prefix is b, for the bases cidutil.ParseString reads.
func multibaseName(b byte) string {
	switch b {
	case 'b':
		return "base32"
	case 'B':
		return "base32upper"
	case 'c':
		return "base32pad"
	case 'C':
		return "base32padupper"
	case 'v':
		return "base32hex"
	case 'V':
		return "base32hexupper"
	case 't':
		return "base32hexpad"
	case 'T':
		return "base32hexpadupper"
	case 'z':
		return "base58btc"
	case 'Z':
		return "base58flickr"
	case 'f':
		return "base16"
	case 'F':
		return "base16upper"
	case 'k':
		return "base36"
	case 'K':
		return "base36upper"
	case 'm':
		return "base64"
	case 'M':
		return "base64pad"
	case 'u':
		return "base64url"
	case 'U':
		return "base64urlpad"
	case '0':
		return "base2"
	case '7':
		return "base8"
	case '9':
		return "base10"
	}
	return strconv.QuoteRuneToASCII(rune(b))
}

// codecName names the content codecs atproto meets; others are shown as a hex code.
func codecName(code uint64) string {
	switch code {
	case cidutil.CodecRaw:
		return "raw"
	case cidutil.CodecDagCBOR:
		return "dag-cbor"
	case 0x70:
		return "dag-pb"
	case 0x0129:
		return "dag-json"
	}
	return "0x" + strconv.FormatUint(code, 16)
}

// hashName names a multihash function by its multicodec name, or as a hex code.
func hashName(code uint64) string {
	if name, ok := mh.Codes[code]; ok {
		return name
	}
	return "0x" + strconv.FormatUint(code, 16)
}

func datetimeParts(s string) ([]part, error) {
	d, err := datetime.Parse(s)
	if err != nil {
		return nil, err
	}
	return []part{
		{"time", d.Time().UTC().Format(time.RFC3339Nano), false},
		{"offset", formatOffset(d.Offset()), false},
	}, nil
}

// formatOffset writes an offset in seconds east of UTC as ±HH:MM.
func formatOffset(sec int) string {
	sign := byte('+')
	if sec < 0 {
		sign, sec = '-', -sec
	}
	return fmt.Sprintf("%c%02d:%02d", sign, sec/3600, sec/60%60)
}

func aturiParts(s string) ([]part, error) {
	u, err := aturi.Parse(s)
	if err != nil {
		return nil, err
	}
	auth, authKind := u.Authority(), "handle"
	if auth.IsDID() {
		authKind = "did"
	}
	parts := []part{{authKind, auth.String(), false}}
	if c := u.Collection(); c.IsValid() {
		parts = append(parts, part{"collection", c.String(), false})
	}
	if key := u.RecordKey(); key != "" {
		parts = append(parts, part{"rkey", key, false})
		if t, err := tid.Parse(key); err == nil {
			parts = append(parts, tidFields(t)[0]) // its time, or top-bit=true
		}
	}
	if norm := u.Normalize().String(); norm != s {
		parts = append(parts, part{"normalized", norm, false})
	}
	return parts, nil
}

func didParts(s string) ([]part, error) {
	d, err := did.Parse(s)
	if err != nil {
		return nil, err
	}
	parts := []part{{"method", d.Method(), false}, {"identifier", d.Identifier(), false}}
	switch d.Method() {
	case "plc":
		parts = append(parts, part{"supported", strconv.FormatBool(d.CheckPLC() == nil), true})
	case "web":
		host, err := d.WebHost()
		parts = append(parts, part{"supported", strconv.FormatBool(err == nil), true})
		if err == nil {
			parts = append(parts, part{"host", host, false})
		}
	default:
		parts = append(parts, part{"supported", "false", true})
	}
	return parts, nil
}

func atidentParts(s string) ([]part, error) {
	_, err := atident.Parse(s)
	return nil, err
}

func nsidParts(s string) ([]part, error) {
	n, err := nsid.Parse(s)
	if err != nil {
		return nil, err
	}
	labels := strings.Split(n.Authority(), ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	parts := []part{
		{"authority", n.Authority(), false},
		{"name", n.Name(), false},
		{"domain", strings.Join(labels, "."), false},
	}
	if norm := n.Normalize().String(); norm != s {
		parts = append(parts, part{"normalized", norm, false})
	}
	return parts, nil
}

func handleParts(s string) ([]part, error) {
	h, err := handle.Parse(s)
	if err != nil {
		return nil, err
	}
	parts := []part{
		{"tld", h.TLD(), false},
		{"resolvable", strconv.FormatBool(!h.HasDisallowedTLD() && !h.IsInvalidHandle()), true},
	}
	if norm := h.Normalize().String(); norm != s {
		parts = append(parts, part{"normalized", norm, false})
	}
	return parts, nil
}

func langParts(s string) ([]part, error) {
	t, err := lang.Parse(s)
	if err != nil {
		return nil, err
	}
	var parts []part
	for _, p := range []part{{"primary", t.Language(), false}, {"script", t.Script(), false}, {"region", t.Region(), false}} {
		if p.value != "" {
			parts = append(parts, p)
		}
	}
	return parts, nil
}

func rkeyParts(s string) ([]part, error) {
	return nil, rkey.Validate(s)
}
