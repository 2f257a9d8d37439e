package datamodel

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
)

// cborTestCID is the binary CIDv1 (dag-cbor, sha2-256) of cborTestLinkString, in hex.
const cborTestCIDHex = "0171122065062a5a5a00fc16d73c6944237ccbc15b1c4a7234489336891d091741a239d0"

// cborInvalid is one row of the table of inputs every reader must refuse.
type cborInvalid struct {
	rule   string   // the rule of DECISIONS 9 or 14 the input breaks
	hex    string   // the input
	err    error    // the sentinel both ScanCBOR and UnmarshalCBOR must return
	offset int      // the byte offset of the offending item
	path   string   // the JSON Pointer of the offending value
	opts   []Option // non-default limits, if any
}

func cborInvalidTable() []cborInvalid {
	deep := strings.Repeat("81", DefaultMaxDepth+1) + "01"
	return []cborInvalid{
		// Rule 9: heads in their shortest form.
		{"non-minimal int: one-byte argument below 24", "1817", ErrNonMinimal, 0, "", nil},
		{"non-minimal int: two-byte argument below 256", "1900ff", ErrNonMinimal, 0, "", nil},
		{"non-minimal int: four-byte argument below 65536", "1a0000ffff", ErrNonMinimal, 0, "", nil},
		{"non-minimal int: eight-byte argument below 2^32", "1b00000000ffffffff", ErrNonMinimal, 0, "", nil},
		{"non-minimal negative int", "3800", ErrNonMinimal, 0, "", nil},
		// The same with eight bytes or more after the head, where UnmarshalCBOR reads an
		// unsigned argument as one word (cborUintArg).
		{"non-minimal int, more input after it: one byte", "83 1817 6a61616161616161616161 01", ErrNonMinimal, 1, "/0", nil},
		{"non-minimal int, more input after it: two bytes", "83 1900ff 6a61616161616161616161 01", ErrNonMinimal, 1, "/0", nil},
		{"non-minimal int, more input after it: four bytes", "83 1a0000ffff 6a61616161616161616161 01", ErrNonMinimal, 1, "/0", nil},
		{"non-minimal int, more input after it: eight bytes", "83 1b00000000ffffffff 6a61616161616161616161 01", ErrNonMinimal, 1, "/0", nil},
		{"non-minimal text length", "780161", ErrNonMinimal, 0, "", nil},
		{"non-minimal byte string length", "580100", ErrNonMinimal, 0, "", nil},
		{"non-minimal array length", "9800", ErrNonMinimal, 0, "", nil},
		{"non-minimal map length", "b800", ErrNonMinimal, 0, "", nil},
		{"non-minimal tag head", "d9002a 5825 00" + cborTestCIDHex, ErrNonMinimal, 0, "", nil},
		{"non-minimal length of the byte string in tag 42", "d82a 580500 01551200", ErrNonMinimal, 2, "", nil},
		{"non-minimal head inside a map", "a1 6161 1800", ErrNonMinimal, 3, "/a", nil},

		// Rule 9: map keys are text, sorted length-first then bytewise, unique.
		{"unsorted keys: longer key first", "a2 626161 01 6162 02", ErrUnsortedKeys, 5, "", nil},
		{"unsorted keys: same length, bytewise", "a2 6162 01 6161 02", ErrUnsortedKeys, 4, "", nil},
		{"unsorted keys: lexicographic (not length-first) order", "a2 626161 01 6162 02", ErrUnsortedKeys, 5, "", nil},
		{"unsorted keys in a nested map", "a1 6161 a2 6162 01 6161 02", ErrUnsortedKeys, 7, "/a", nil},
		{"duplicate keys", "a2 6161 01 6161 02", ErrDuplicateKey, 4, "", nil},
		{"duplicate empty keys", "a2 60 01 60 02", ErrDuplicateKey, 3, "", nil},
		{"integer map key", "a1 01 02", ErrKeyNotString, 1, "", nil},
		{"negative integer map key", "a1 20 02", ErrKeyNotString, 1, "", nil},
		{"byte string map key", "a1 4161 02", ErrKeyNotString, 1, "", nil},
		{"null map key", "a1 f6 02", ErrKeyNotString, 1, "", nil},
		{"array map key", "a1 80 02", ErrKeyNotString, 1, "", nil},

		// Rule 9: no floats of any width, even integral ones.
		{"half-precision float 1.0 (integral)", "f93c00", ErrFloat, 0, "", nil},
		{"half-precision float 1.5", "f93e00", ErrFloat, 0, "", nil},
		{"single-precision float 1.0 (integral)", "fa3f800000", ErrFloat, 0, "", nil},
		{"double-precision float 1.0 (integral)", "fb3ff0000000000000", ErrFloat, 0, "", nil},
		{"double-precision float 1.5", "fb3ff8000000000000", ErrFloat, 0, "", nil},
		{"half-precision NaN", "f97e00", ErrFloat, 0, "", nil},
		{"double-precision NaN", "fb7ff8000000000000", ErrFloat, 0, "", nil},
		{"infinity", "f97c00", ErrFloat, 0, "", nil},
		{"float in an array", "82 01 f93c00", ErrFloat, 2, "/1", nil},
		{"float as a map value", "a1 6161 fa3f800000", ErrFloat, 3, "/a", nil},

		// Rule 9: only the simple values false, true, null.
		{"undefined", "f7", ErrSimpleValue, 0, "", nil},
		{"simple value 0", "e0", ErrSimpleValue, 0, "", nil},
		{"simple value 19", "f3", ErrSimpleValue, 0, "", nil},
		{"one-byte simple value 255", "f8ff", ErrSimpleValue, 0, "", nil},
		{"one-byte simple value 32", "f820", ErrSimpleValue, 0, "", nil},
		{"false written as a one-byte simple value", "f814", ErrSimpleValue, 0, "", nil},

		// Rule 9: only tag 42, on 0x00 and a CIDv1.
		{"tag 0 (date-time string)", "c0 6130", ErrTag, 0, "", nil},
		{"tag 1 (epoch time)", "c1 00", ErrTag, 0, "", nil},
		{"tag 43", "d82b 4100", ErrTag, 0, "", nil},
		{"tag 55799 (self-described CBOR)", "d9d9f7 00", ErrTag, 0, "", nil},
		{"tag 2 (bignum)", "c2 4101", ErrTag, 0, "", nil},
		{"tag 42 on a text string", "d82a 6161", ErrInvalidCID, 2, "", nil},
		{"tag 42 on an integer", "d82a 01", ErrInvalidCID, 2, "", nil},
		{"tag 42 on tag 42", "d82a d82a 5825 00" + cborTestCIDHex, ErrInvalidCID, 2, "", nil},
		{"tag 42 on an empty byte string", "d82a 40", ErrInvalidCID, 3, "", nil},
		{"tag 42 without the 0x00 prefix", "d82a 5824 " + cborTestCIDHex, ErrInvalidCID, 4, "", nil},
		{"CIDv0 inside tag 42", "d82a 5823 00 1220" + cborTestCIDHex[8:], ErrInvalidCID, 5, "", nil},
		{"CID version 2 inside tag 42", "d82a 5825 00 02" + cborTestCIDHex[2:], ErrInvalidCID, 5, "", nil},
		{"CID with a truncated digest", "d82a 5824 00" + cborTestCIDHex[:len(cborTestCIDHex)-2], ErrInvalidCID, 9, "", nil},
		{"CID with bytes after the digest", "d82a 5826 00" + cborTestCIDHex + "00", ErrInvalidCID, 9, "", nil},
		{"CID with a non-minimal codec varint", "d82a 5826 00 01f100" + cborTestCIDHex[4:], ErrInvalidCID, 6, "", nil},
		{"CID only a version byte", "d82a 4200 01", ErrInvalidCID, 5, "", nil},
		{"CID longer than MaxCIDLen", "d82a 5869 00 01711264" + strings.Repeat("ab", 100), ErrInvalidCID, 5, "", nil},
		{"bad CID in a nested link", "a1 6161 81 d82a 4100", ErrInvalidCID, 8, "/a/0", nil},

		// Rule 9: valid UTF-8.
		{"invalid UTF-8 in a value: bad continuation", "62 c328", ErrInvalidUTF8, 0, "", nil},
		{"invalid UTF-8 in a value: 0xff", "61 ff", ErrInvalidUTF8, 0, "", nil},
		{"invalid UTF-8 in a value: overlong", "62 c080", ErrInvalidUTF8, 0, "", nil},
		{"invalid UTF-8 in a value: surrogate", "63 eda080", ErrInvalidUTF8, 0, "", nil},
		{"invalid UTF-8 in a value: truncated sequence", "62 61e2", ErrInvalidUTF8, 0, "", nil},
		{"invalid UTF-8 in a key", "a1 61ff 01", ErrInvalidUTF8, 1, "", nil},
		{"invalid UTF-8 in a nested value", "a1 6161 81 61ff", ErrInvalidUTF8, 4, "/a/0", nil},
		{"invalid UTF-8 in a short value, long input after it", "82 62 61ff 78 1e" + strings.Repeat("61", 30), ErrInvalidUTF8, 1, "/0", nil},
		{"invalid UTF-8 in a 12-byte value, long input after it", "82 6c 616161616161616161616180 78 1e" + strings.Repeat("61", 30), ErrInvalidUTF8, 1, "/0", nil},
		{"invalid UTF-8 in a short key, long input after it", "a1 62 61ff 78 1e" + strings.Repeat("61", 30), ErrInvalidUTF8, 1, "", nil},

		// Rule 9: no indefinite lengths.
		{"indefinite byte string", "5f 4100 ff", ErrIndefinite, 0, "", nil},
		{"indefinite text string", "7f 6161 ff", ErrIndefinite, 0, "", nil},
		{"indefinite array", "9f ff", ErrIndefinite, 0, "", nil},
		{"indefinite map", "bf ff", ErrIndefinite, 0, "", nil},
		{"indefinite array in a map", "a1 6161 9f 01 ff", ErrIndefinite, 3, "/a", nil},
		{"additional information 31 on an integer", "1f", ErrSyntax, 0, "", nil},
		{"additional information 31 on a negative integer", "3f", ErrSyntax, 0, "", nil},
		{"additional information 31 on a tag", "df 00", ErrSyntax, 0, "", nil},
		{"break code outside an indefinite item", "ff", ErrSyntax, 0, "", nil},
		{"reserved additional information 28", "1c", ErrSyntax, 0, "", nil},
		{"reserved additional information 30 on a string", "7e", ErrSyntax, 0, "", nil},
		{"reserved additional information 29 on major type 7", "fd", ErrSyntax, 0, "", nil},

		// Rule 9: integers within int64.
		{"2^63", "1b8000000000000000", ErrIntegerRange, 0, "", nil},
		{"2^64-1", "1bffffffffffffffff", ErrIntegerRange, 0, "", nil},
		{"-2^63-1 (major 1, argument 2^63)", "3b8000000000000000", ErrIntegerRange, 0, "", nil},
		{"-2^64 (major 1, argument 2^64-1)", "3bffffffffffffffff", ErrIntegerRange, 0, "", nil},
		{"2^63, more input after it", "83 1b8000000000000000 6a61616161616161616161 01", ErrIntegerRange, 1, "/0", nil},

		// Rule 9: the input is exactly one value.
		{"empty input", "", ErrTruncated, 0, "", nil},
		{"truncated head", "18", ErrTruncated, 0, "", nil},
		{"truncated eight-byte head", "1b0000", ErrTruncated, 0, "", nil},
		{"truncated text", "62 61", ErrTruncated, 0, "", nil},
		{"truncated byte string", "43 0102", ErrTruncated, 0, "", nil},
		{"truncated array", "83 01 02", ErrTruncated, 0, "", nil},
		{"array missing its last element", "82 01 61", ErrTruncated, 2, "/1", nil},
		{"truncated map", "a1 6161", ErrTruncated, 3, "/a", nil},
		{"map missing a value", "a2 6161 01 6162", ErrTruncated, 6, "/b", nil},
		{"truncated value in a map", "a1 6161 62 61", ErrTruncated, 3, "/a", nil},
		{"truncated nested array", "a1 6161 82 01", ErrTruncated, 3, "/a", nil},
		{"truncated element of a nested array", "a1 6161 82 01 18", ErrTruncated, 5, "/a/1", nil},
		{"tag 42 with nothing after it", "d82a", ErrTruncated, 2, "", nil},
		{"truncated link", "d82a 5825 00 0171", ErrTruncated, 2, "", nil},
		{"trailing bytes", "01 02", ErrTrailingBytes, 1, "", nil},
		{"trailing bytes after a map", "a0 a0", ErrTrailingBytes, 1, "", nil},

		// Rule 14: limits, and lengths checked against the bytes present before use.
		{"nesting deeper than the limit", deep, ErrTooDeep, DefaultMaxDepth, strings.Repeat("/0", DefaultMaxDepth), nil},
		{"maps nested deeper than the limit", strings.Repeat("a16161", DefaultMaxDepth+1) + "01", ErrTooDeep, 3 * DefaultMaxDepth, strings.Repeat("/a", DefaultMaxDepth), nil},
		{"nesting deeper than a custom limit", "818181 01", ErrTooDeep, 2, "/0/0", []Option{WithLimits(Limits{MaxDepth: 2})}},
		{"array of 2^32 elements declared, no data", "9b0000000100000000", ErrTruncated, 0, "", nil},
		{"map of 2^32 entries declared, no data", "bb0000000100000000", ErrTruncated, 0, "", nil},
		{"byte string of 2^32 bytes declared, no data", "5b0000000100000000", ErrTruncated, 0, "", nil},
		{"text string of 2^32 bytes declared, no data", "7b0000000100000000", ErrTruncated, 0, "", nil},
		{"array of 2^63-1 elements declared, with the element limit lifted", "9b7fffffffffffffff 00",
			ErrTruncated, 0, "", []Option{WithLimits(Limits{MaxElements: math.MaxInt})}},
		{"map of 2^62 entries declared, with the element limit lifted (2n overflows 2^63)", "bb4000000000000000 6161 01",
			ErrTruncated, 0, "", []Option{WithLimits(Limits{MaxElements: math.MaxInt})}},
		{"map of 2 entries declared, 3 bytes present", "a2 6161 01", ErrTruncated, 0, "", nil},
		{"more elements than the limit", "83 01 02 03", ErrTooManyElements, 0, "", []Option{WithLimits(Limits{MaxElements: 2})}},
		{"more map entries than the limit", "a2 6161 01 6162 02", ErrTooManyElements, 0, "", []Option{WithLimits(Limits{MaxElements: 1})}},
		{"map key longer than the limit", "a1 65 6161616161 01", ErrKeyTooLong, 1, "", []Option{WithLimits(Limits{MaxKeyLen: 4})}},
		{"input larger than the limit", "64 61626364", ErrTooLarge, 4, "", []Option{WithLimits(Limits{MaxCBORSize: 4})}},

		// Rule 10: integers within ±(2^53−1) under WithSafeIntegers.
		{"2^53 under WithSafeIntegers", "1b0020000000000000", ErrUnsafeInteger, 0, "", []Option{WithSafeIntegers()}},
		{"−2^53 under WithSafeIntegers", "3b001fffffffffffff", ErrUnsafeInteger, 0, "", []Option{WithSafeIntegers()}},
		{"2^53, more input after it, under WithSafeIntegers", "83 1b0020000000000000 6a61616161616161616161 01", ErrUnsafeInteger, 1, "/0", []Option{WithSafeIntegers()}},
		{"2^53 in a map under WithSafeIntegers", "a1 6161 1b0020000000000000", ErrUnsafeInteger, 3, "/a", []Option{WithSafeIntegers(), WithLimits(Limits{MaxDepth: 2})}},
	}
}

// TestCBORInvalid runs every row through ScanCBOR, UnmarshalCBOR and UnmarshalCBORPrefix: each
// must fail with the row's sentinel, offset and path, and without allocating in proportion to
// any declared length.
func TestCBORInvalid(t *testing.T) {
	for _, tt := range cborInvalidTable() {
		in := cborHex(t, tt.hex)
		check := func(fn string, err error) {
			t.Helper()
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: %s(%x) = %v, want %v", tt.rule, fn, in, err, tt.err)
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: %s: %T is not *Error", tt.rule, fn, err)
				return
			}
			if e.Offset != tt.offset || e.Path != tt.path {
				t.Errorf("%s: %s: offset %d path %q, want offset %d path %q (%v)", tt.rule, fn, e.Offset, e.Path, tt.offset, tt.path, err)
			}
			if !strings.Contains(err.Error(), tt.err.Error()) {
				t.Errorf("%s: %s: message %q does not say %q", tt.rule, fn, err, tt.err)
			}
		}
		check("ScanCBOR", ScanCBOR(in, tt.opts...))
		v, err := UnmarshalCBOR(in, tt.opts...)
		check("UnmarshalCBOR", err)
		if v != nil {
			t.Errorf("%s: UnmarshalCBOR returned a value with the error: %#v", tt.rule, v)
		}
		if tt.err != ErrTrailingBytes {
			_, rest, err := UnmarshalCBORPrefix(in, tt.opts...)
			check("UnmarshalCBORPrefix", err)
			if rest != nil {
				t.Errorf("%s: UnmarshalCBORPrefix returned rest with the error", tt.rule)
			}
		}

		// Fail fast: the bytes allocated stay proportional to the input, whatever it declares.
		const runs = 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < runs; i++ {
			_ = ScanCBOR(in, tt.opts...)
			_, _ = UnmarshalCBOR(in, tt.opts...)
		}
		runtime.ReadMemStats(&after)
		if perRun := (after.TotalAlloc - before.TotalAlloc) / runs; perRun > 4096+256*uint64(len(in)) {
			t.Errorf("%s: %d bytes allocated per ScanCBOR+UnmarshalCBOR", tt.rule, perRun)
		}
	}
}

// TestCBORInvalidLargeInputs covers limits that need large inputs: more than 131,072 elements
// (the default), a key longer than 8,192 bytes, a record larger than 1 MiB.
func TestCBORInvalidLargeInputs(t *testing.T) {
	elems := append(cborHex(t, "1a00020001"), make([]byte, DefaultMaxElements+1)...)
	elems[0] = 0x9a // array, four-byte length 131,073
	key := append(cborHex(t, "a1 792001"), bytes.Repeat([]byte("k"), DefaultMaxKeyLen+1)...)
	key = append(key, 0x01)
	big := append(cborHex(t, "5a00100001"), make([]byte, DefaultMaxCBORSize+1)...)
	tests := []struct {
		rule   string
		in     []byte
		err    error
		offset int
	}{
		{"more elements than the default limit", elems, ErrTooManyElements, 0},
		{"map key longer than the default limit", key, ErrKeyTooLong, 1},
		{"record larger than the default limit", big, ErrTooLarge, DefaultMaxCBORSize},
	}
	for _, tt := range tests {
		for fn, err := range map[string]error{
			"ScanCBOR":      ScanCBOR(tt.in),
			"UnmarshalCBOR": func() error { _, err := UnmarshalCBOR(tt.in); return err }(),
		} {
			var e *Error
			if !errors.Is(err, tt.err) || !errors.As(err, &e) || e.Offset != tt.offset {
				t.Errorf("%s: %s: %v, want %v at offset %d", tt.rule, fn, err, tt.err, tt.offset)
			}
		}
	}
	// UnmarshalCBORPrefix applies the size limit to the first value only.
	small := append(cborHex(t, "6161"), make([]byte, DefaultMaxCBORSize+10)...)
	if v, rest, err := UnmarshalCBORPrefix(small); err != nil || v != "a" || len(rest) != DefaultMaxCBORSize+10 {
		t.Errorf("UnmarshalCBORPrefix of a small value before a large rest: %v, %d, %v", v, len(rest), err)
	}
	if _, _, err := UnmarshalCBORPrefix(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("UnmarshalCBORPrefix of a value larger than the limit: %v, want ErrTooLarge", err)
	}
}

// TestCBORErrorDetails checks the wording of details built from a major type's name, article
// included (an unsigned integer, an array, a map).
func TestCBORErrorDetails(t *testing.T) {
	tests := []struct {
		rule   string
		err    error
		detail string
	}{
		{"rule 9: tag 42 on an unsigned integer", func() error { _, err := UnmarshalCBOR(cborMustHex("d82a 01")); return err }(), "tag 42 on an unsigned integer, want a byte string"},
		{"rule 9: tag 42 on an array", func() error { _, err := UnmarshalCBOR(cborMustHex("d82a 80")); return err }(), "tag 42 on an array, want a byte string"},
		{"rule 9: tag 42 on a map", ScanCBOR(cborMustHex("d82a a0")), "tag 42 on a map, want a byte string"},
		{"rule 9: additional information 31 on an unsigned integer", ScanCBOR(cborMustHex("1f")), "additional information 31 on an unsigned integer"},
		{"Link.UnmarshalCBOR of an array", new(Link).UnmarshalCBOR(cborMustHex("80")), "want a link (tag 42), got an array"},
	}
	for _, tt := range tests {
		var e *Error
		if !errors.As(tt.err, &e) || e.Detail != tt.detail {
			t.Errorf("%s: %v, want detail %q", tt.rule, tt.err, tt.detail)
		}
	}
}
