package datamodel

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"unsafe"

	"github.com/atcore/atcore/internal/echo"
)

// Sentinel errors, one per rule. Every error the package finds in data or in a Go value wraps
// exactly one of the package's sentinels (these, ErrUnsafeInteger or ErrRegister), inside an
// *Error that says where; test with errors.Is. The exceptions are not about the data: the stream
// decoders return io.EOF and their reader's own errors as they are, and Register returns package
// nsid's error for an invalid NSID.
var (
	// Syntax of the encoding (DECISIONS rule 9 for CBOR, JSON well-formedness for JSON).
	ErrTruncated     = error(truncatedError{}) // matches io.ErrUnexpectedEOF too
	ErrTrailingBytes = errors.New("trailing bytes after the value")
	ErrNonMinimal    = errors.New("integer or length not in its shortest form")
	ErrIndefinite    = errors.New("indefinite-length item")
	ErrFloat         = errors.New("floating-point number")
	ErrSimpleValue   = errors.New("simple value other than false, true, null")
	ErrTag           = errors.New("CBOR tag other than 42")
	ErrKeyNotString  = errors.New("map key is not a text string")
	ErrUnsortedKeys  = errors.New("map keys not in length-first bytewise order")
	ErrDuplicateKey  = errors.New("duplicate map key")
	ErrInvalidUTF8   = errors.New("string is not valid UTF-8")
	ErrIntegerRange  = errors.New("integer outside the int64 range")
	ErrSyntax        = errors.New("malformed input")

	// Data-model rules (DECISIONS rules 10–13).
	ErrInvalidCID = errors.New("invalid CID")
	ErrFraction   = errors.New("number has a fractional part")
	ErrType       = errors.New("invalid $type")
	ErrBytes      = errors.New("malformed $bytes object")
	ErrLink       = errors.New("malformed $link object")
	ErrBlob       = errors.New("malformed blob")
	ErrNotRecord  = errors.New("record is not an object")

	// Limits (DECISIONS rule 14).
	ErrTooDeep         = errors.New("nesting deeper than the limit")
	ErrTooManyElements = errors.New("more elements than the limit")
	ErrKeyTooLong      = errors.New("map key longer than the limit")
	ErrTooLarge        = errors.New("input larger than the limit")
	ErrTooManyValues   = errors.New("more values in the record than the limit")

	// Encoding a Go value that is outside the data model.
	ErrUnsupported = errors.New("value outside the data model")

	// A Go type that does not fit the data: decoding into a Go struct (UnmarshalCBORStruct,
	// UnmarshalJSONStruct), a value of the wrong type for its field, or a key with no field under
	// DisallowUnknownFields; a "$type" that is not registered where it must be (ClosedUnion,
	// RegisteredOnly) or a Go value that is no registered struct (Registry.Union); encoding, an
	// UnknownFields key that is also a field's.
	ErrGoType = errors.New("value does not fit the Go type")
)

// truncatedError is ErrTruncated: input that ends inside a value. It also matches
// io.ErrUnexpectedEOF under errors.Is, the io convention for a stream torn in the middle of a
// value (CBORDecoder, JSONDecoder), whatever entry point reports it.
type truncatedError struct{}

func (truncatedError) Error() string        { return "unexpected end of input" }
func (truncatedError) Is(target error) bool { return target == io.ErrUnexpectedEOF }

// Error reports what was wrong with a value and where.
type Error struct {
	Err    error  // the rule broken: one of the Err* sentinels
	Offset int    // byte offset in the input where the problem starts; -1 if not decoding bytes
	Path   string // JSON Pointer (RFC 6901) to the value, "" for the top-level value
	Detail string // optional specifics, e.g. the offending key or Go type

	path *pathBuf // where Path is built on the way out (atKey, atIndex)
}

// Error returns the message, "datamodel: <rule> (<Detail>) at "<Path>" at offset <Offset>",
// without the parts that are empty or do not apply.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("datamodel: ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else { // an Error built by hand without its sentinel
		b.WriteString("error")
	}
	if e.Detail != "" {
		b.WriteString(" (")
		b.WriteString(e.Detail)
		b.WriteString(")")
	}
	if e.Path != "" {
		b.WriteString(" at ")
		b.WriteString(echo.QuotePath(e.Path))
	}
	if e.Offset >= 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	return b.String()
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// quoteDetail quotes a refused string for an error's Detail: whole when short, else its first
// echo.Max bytes and its length, so that a long string does not make a message as long (four
// times as long, for invalid UTF-8 escaped byte by byte).
func quoteDetail(s string) string {
	if len(s) <= echo.Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(echo.Clip(s)) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// appendPointerToken appends one JSON Pointer reference token for key, escaped per RFC 6901
// (~ becomes ~0, / becomes ~1).
func appendPointerToken(dst []byte, key string) []byte {
	dst = append(dst, '/')
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// valueError builds the error for a Go value that the encoders or Validate refuse: it has no
// byte offset, and the callers on the way out prepend their path tokens. Errors are rare, so
// building the path on the way out keeps the success path free of path bookkeeping. Not inlined,
// as cborErr.
//
//go:noinline
func valueError(sentinel error, detail string) *Error {
	return &Error{Err: sentinel, Offset: -1, Detail: detail}
}

// Paths are built on the way out: an error is made where the bad value is, with an empty Path,
// and each caller it passes through on the way up puts its own JSON Pointer token in front, so
// that the success path does no path bookkeeping at all. These are the only path builders.

// atKey puts the token of the map key key in front of err's path, if err is an *Error.
func atKey(err error, key string) error {
	if e, ok := err.(*Error); ok {
		e.atKey(key)
	}
	return err
}

// atIndex puts the token of the array index i in front of err's path, if err is an *Error.
func atIndex(err error, i int) error {
	if e, ok := err.(*Error); ok {
		e.atIndex(i)
	}
	return err
}

// atKey puts the token of the map key key in front of e's path and returns e.
func (e *Error) atKey(key string) *Error {
	n := 1 + len(key)
	for i := 0; i < len(key); i++ {
		if key[i] == '~' || key[i] == '/' {
			n++
		}
	}
	dst := e.front(n)
	dst[0] = '/'
	j := 1
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '~':
			dst[j], dst[j+1] = '~', '0'
			j += 2
		case '/':
			dst[j], dst[j+1] = '~', '1'
			j += 2
		default:
			dst[j] = c
			j++
		}
	}
	return e.setPath(n)
}

// atIndex puts the token of the array index i in front of e's path and returns e.
func (e *Error) atIndex(i int) *Error {
	var digits [20]byte
	tok := strconv.AppendInt(digits[:0], int64(i), 10)
	dst := e.front(1 + len(tok))
	dst[0] = '/'
	copy(dst[1:], tok)
	return e.setPath(1 + len(tok))
}

// pathBuf holds an error's path at the end of a buffer with room in front, so that putting a
// token in front on the way out of a deep recursion copies only that token (the buffer doubles
// when full): the error path of a value nested n deep costs O(n), not O(n²) as prepending to a
// string would (each level copying the whole path again). Path is a string view of b[start:];
// those bytes are never written again, since tokens only go in front of start or into a new
// buffer.
type pathBuf struct {
	b     []byte
	start int
}

// front returns the n bytes just in front of e's path, to be filled with a token, making room
// when needed; setPath(n) then makes them part of Path.
func (e *Error) front(n int) []byte {
	pb := e.path
	if pb == nil || len(e.Path) != len(pb.b)-pb.start ||
		len(e.Path) > 0 && unsafe.StringData(e.Path) != &pb.b[pb.start] {
		// First token, or Path set by hand: start a buffer holding the current Path.
		pb = &pathBuf{}
		e.path = pb
		pb.grow(e.Path, n)
	} else if pb.start < n {
		pb.grow(e.Path, n)
	}
	return pb.b[pb.start-n : pb.start]
}

// grow moves path to the end of a new buffer with room for at least n more bytes in front.
func (pb *pathBuf) grow(path string, n int) {
	size := max(64, 2*(len(path)+n))
	b := make([]byte, size)
	copy(b[size-len(path):], path)
	pb.b, pb.start = b, size-len(path)
}

// finished drops the buffer in which err's path was built, once the path is complete (at the
// entry points), so that an *Error the package returns holds only its four fields and compares
// with == as a plain struct of them.
func finished(err error) error {
	if e, ok := err.(*Error); ok {
		e.path = nil
	}
	return err
}

func (e *Error) setPath(n int) *Error {
	pb := e.path
	pb.start -= n
	e.Path = unsafe.String(&pb.b[pb.start], len(pb.b)-pb.start)
	return e
}

// cborErr builds the error for the item at byte offset off. Callers on the way out of the
// recursion prepend their path tokens, so the success path does no path bookkeeping. Not
// inlined: inlined at each of its 72 call sites it put an allocation and the write barriers of
// its fields into the functions that run on good input (see jsonDecoder.fail).
//
//go:noinline
func cborErr(sentinel error, off int, detail string) *Error {
	return &Error{Err: sentinel, Offset: off, Detail: detail}
}

// cborErrTooLarge is the error for a CBOR input of n bytes, over Limits.MaxCBORSize.
func cborErrTooLarge(n int, lim Limits) *Error {
	return cborErr(ErrTooLarge, lim.MaxCBORSize, overLimit(n, "bytes", lim.MaxCBORSize))
}

// asError returns e as an error: nil if e is nil (a nil *Error in an error would not be nil).
func asError(e *Error) error {
	if e == nil {
		return nil
	}
	return e
}
