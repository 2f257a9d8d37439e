package lexicon

import (
	"errors"
	"strconv"
	"strings"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinels for errors.Is: every *Error matches exactly one of them.
var (
	// ErrSchema: a schema document was refused (bad JSON, a missing or malformed field, a type
	// in a place the spec does not allow, a reference to nothing).
	ErrSchema = errors.New("invalid lexicon schema")
	// ErrValue: a value (record, parameters, body) does not match its schema.
	ErrValue = errors.New("value does not match its lexicon schema")
	// ErrNotFound: the catalog holds no definition of that name (a record's $type, an
	// endpoint).
	ErrNotFound = errors.New("no such lexicon definition")
)

// Error is one problem, located: for a refused schema document, the file and the JSON Pointer
// (RFC 6901) inside it; for a value, the JSON Pointer of the bad value inside the value. Rule
// is the Lexicon field or rule that was broken ("maxLength", "required", "type", "format",
// "ref", …).
type Error struct {
	Err    error  // ErrSchema, ErrValue or ErrNotFound
	File   string // the schema document's name, for ErrSchema; "" otherwise
	Path   string // JSON Pointer: in the document for ErrSchema, in the value otherwise
	Rule   string // the schema field or rule broken
	Detail string // what was wrong, for people

	rev     []string // Path's segments, innermost first, while the error travels up
	warning bool     // a Report's warning: allowed, but worth saying (see CheckRecord)
}

// Error formats the problem as
//
//	invalid lexicon "app/bsky/feed/post.json" at "/defs/main/key": key: …
//	invalid value at "/text": maxGraphemes: more than 300 graphemes
//
// and a Report's warning, which is no problem, as
//
//	warning at "/extra": properties: field not in the schema (ignored)
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.warning:
		b.WriteString("warning")
	case e.Err == ErrSchema:
		b.WriteString("invalid lexicon ")
		b.WriteString(strconv.Quote(e.File))
	case e.Err == ErrNotFound:
		b.WriteString("lexicon not found")
	default:
		b.WriteString("invalid value")
	}
	if e.Err != ErrNotFound || e.Path != "" {
		b.WriteString(" at ")
		b.WriteString(echo.QuotePath(e.Path))
	}
	b.WriteString(": ")
	if e.Rule != "" {
		b.WriteString(e.Rule)
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	return b.String()
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found in one value or one set of documents, in the order found.
type Errors []*Error

// Error joins the messages, one per line.
func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives each error to errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Report is the outcome of a full check: every error, and the warnings (fields the schema does
// not name, union variants it does not list) that the spec says to ignore or at worst warn of.
type Report struct {
	Errors   Errors
	Warnings Errors
}

// Err returns nil when there is no error, the one *Error when there is one, and Errors
// otherwise.
func (r Report) Err() error {
	switch len(r.Errors) {
	case 0:
		return nil
	case 1:
		return r.Errors[0]
	}
	return r.Errors
}

// pointerEscaper escapes a JSON Pointer reference token (RFC 6901 §3).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// finish turns the segments gathered on the way out into Path, prefixed by base.
func (e *Error) finish(base string) {
	var b strings.Builder
	b.WriteString(base)
	for i := len(e.rev) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(e.rev[i]))
	}
	e.Path = b.String()
	e.rev = nil
}
