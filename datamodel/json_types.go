package datamodel

import "bytes"

// The data model's named types work with encoding/json too, with the atproto conventions, so that
// Lexicon structs holding them can be marshalled by the standard library. A JSON null leaves the
// value unchanged, as encoding/json does for its own types.

// MarshalJSON writes b as {"$bytes": "<base64>"}, standard base64 without padding.
func (b Bytes) MarshalJSON() ([]byte, error) { return MarshalJSON(b) }

// UnmarshalJSON reads {"$bytes": "<base64>"}, padding optional (DECISIONS rule 10).
func (b *Bytes) UnmarshalJSON(data []byte) error {
	if jsonIsNull(data) {
		return nil
	}
	v, err := UnmarshalJSON(data)
	if err != nil {
		return err
	}
	x, ok := v.(Bytes)
	if !ok {
		return &Error{Err: ErrBytes, Offset: 0, Detail: "expected a {\"$bytes\": …} object, " + describe(v)}
	}
	*b = x
	return nil
}

// MarshalJSON writes l as {"$link": "b…"}. An undefined Link is an error (ErrInvalidCID): use a
// *Link field for an optional link.
func (l Link) MarshalJSON() ([]byte, error) { return MarshalJSON(l) }

// UnmarshalJSON reads {"$link": "<CIDv1>"}.
func (l *Link) UnmarshalJSON(data []byte) error {
	if jsonIsNull(data) {
		return nil
	}
	v, err := UnmarshalJSON(data)
	if err != nil {
		return err
	}
	x, ok := v.(Link)
	if !ok {
		return &Error{Err: ErrLink, Offset: 0, Detail: "expected a {\"$link\": …} object, " + describe(v)}
	}
	*l = x
	return nil
}

// MarshalJSON writes b as {"$type": "blob", …}, or in the legacy {"cid", "mimeType"} form if
// b.Legacy is set.
func (b Blob) MarshalJSON() ([]byte, error) { return MarshalJSON(b) }

// UnmarshalJSON reads a blob in either form (DECISIONS rule 13).
func (b *Blob) UnmarshalJSON(data []byte) error {
	if jsonIsNull(data) {
		return nil
	}
	v, err := UnmarshalJSON(data)
	if err != nil {
		return err
	}
	x, ok := v.(Blob)
	if !ok {
		return &Error{Err: ErrBlob, Offset: 0, Detail: "expected a blob, " + describe(v)}
	}
	*b = x
	return nil
}

// jsonIsNull reports whether data is the JSON literal null, with optional whitespace around it.
func jsonIsNull(data []byte) bool {
	return string(bytes.Trim(data, " \t\r\n")) == "null"
}
