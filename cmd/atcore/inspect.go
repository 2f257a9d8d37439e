package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atcore/atcore/atident"
	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/datetime"
	"github.com/atcore/atcore/did"
	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/nsid"
	"github.com/atcore/atcore/rkey"
	"github.com/atcore/atcore/tid"
	mh "github.com/multiformats/go-multihash"
)

var inspectCommand = &command{
	name:     "inspect",
	synopsis: "[VALUE...]",
	summary:  "tell what kind of identifier each value is and show its parts",
	doc: `
Tries each VALUE as every kind of identifier, with the strict rules of "atcore check", and
prints one line for each kind it is, most specific first, in this order:

  tid       time= clock= class= integer= dashed=   (as "atcore tid inspect")
  cid       base= version= codec= hash= digest= (hex) blessed=
  datetime  time= (the instant, UTC) offset= (as written)
  did       method= identifier= supported= (a did:plc in exact form, a host-level did:web)
            host= (did:web only)
  nsid      authority= name= domain= (the authority reversed) normalized=
  handle    tld= resolvable= (false for a disallowed TLD and handle.invalid) normalized=
  rkey      (no parts)

Each line starts with KIND=VALUE and goes on with the parts as key=value fields, so that a
value that is several kinds (3kxnlhr3gxq23 is a TID and a record key; app.bsky.feed.post an
NSID, a handle and a record key) gives several lines. normalized= appears only when the
normalized form differs from the value. A value that is no kind at all gives a line on
standard error, with the error of the kind it comes closest to (the one whose error is
furthest into the value), and the exit status is 1. With no VALUE, or "-", reads the values
from standard input, one per line. Values that start with "-" go after "--" (the record key
"-" itself, only on standard input).`,
	example: `
$ atcore inspect app.bsky.feed.post
nsid=app.bsky.feed.post authority=app.bsky.feed name=post domain=feed.bsky.app
handle=app.bsky.feed.post tld=post resolvable=true
rkey=app.bsky.feed.post`,
	maxArgs: -1,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		return func(c *call, args []string) int {
			return c.eachItem(stdinArgs(args), func(w *bufio.Writer, value string) error {
				return inspect(w, value)
			})
		}
	},
}

// inspect writes a line for each kind value is, or returns the error of the closest kind when
// it is none.
func inspect(w *bufio.Writer, value string) error {
	if value == "" {
		return errors.New("no kind fits an empty value")
	}
	var closest error
	best, found := -2, false
	for _, k := range kinds {
		if !k.inspected {
			continue
		}
		parts, err := k.parse(value)
		if err != nil {
			// The kind whose parser got furthest into the value is the likeliest intent;
			// on a tie the more specific kind, which comes first, wins.
			if off := errOffset(err); off > best {
				best, closest = off, err
			}
			continue
		}
		found = true
		w.WriteString(k.name + "=" + value)
		for _, p := range parts {
			w.WriteString(" " + p.key + "=" + p.value)
		}
		w.WriteString("\n")
	}
	if !found {
		return fmt.Errorf("no kind fits; closest: %w", closest)
	}
	return nil
}

func tidParts(s string) ([]part, error) {
	t, err := tid.Parse(s)
	if err != nil {
		return nil, err
	}
	return []part{
		{"time", formatTime(t.Time())},
		{"clock", strconv.FormatUint(uint64(t.ClockID()), 10)},
		{"class", t.ClockClass().String()},
		{"integer", strconv.FormatUint(uint64(t), 10)},
		{"dashed", t.Dashed()},
	}, nil
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
		{"base", multibaseName(s[0])},
		{"version", strconv.FormatUint(p.Version, 10)},
		{"codec", codecName(p.Codec)},
		{"hash", hashName(p.MhType)},
		{"digest", hex.EncodeToString(m.Digest)},
		{"blessed", strconv.FormatBool(cidutil.IsBlessed(c))},
	}, nil
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
		{"time", d.Time().UTC().Format(time.RFC3339Nano)},
		{"offset", formatOffset(d.Offset())},
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

func didParts(s string) ([]part, error) {
	d, err := did.Parse(s)
	if err != nil {
		return nil, err
	}
	parts := []part{{"method", d.Method()}, {"identifier", d.Identifier()}}
	switch d.Method() {
	case "plc":
		parts = append(parts, part{"supported", strconv.FormatBool(d.CheckPLC() == nil)})
	case "web":
		host, err := d.WebHost()
		parts = append(parts, part{"supported", strconv.FormatBool(err == nil)})
		if err == nil {
			parts = append(parts, part{"host", host})
		}
	default:
		parts = append(parts, part{"supported", "false"})
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
		{"authority", n.Authority()},
		{"name", n.Name()},
		{"domain", strings.Join(labels, ".")},
	}
	if norm := n.Normalize().String(); norm != s {
		parts = append(parts, part{"normalized", norm})
	}
	return parts, nil
}

func handleParts(s string) ([]part, error) {
	h, err := handle.Parse(s)
	if err != nil {
		return nil, err
	}
	parts := []part{
		{"tld", h.TLD()},
		{"resolvable", strconv.FormatBool(!h.HasDisallowedTLD() && !h.IsInvalidHandle())},
	}
	if norm := h.Normalize().String(); norm != s {
		parts = append(parts, part{"normalized", norm})
	}
	return parts, nil
}

func rkeyParts(s string) ([]part, error) {
	return nil, rkey.Validate(s)
}
