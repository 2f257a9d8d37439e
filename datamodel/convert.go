package datamodel

// JSONToCBOR converts atproto JSON to canonical DAG-CBOR in one call: UnmarshalJSON, then
// MarshalCBOR, both with opts, so that a raised MaxDepth or MaxCIDLen lets out what it let in. It
// converts any data-model value; a caller that wants a record checks it with ValidateRecord.
// Output that UnmarshalCBOR would refuse as larger than MaxCBORSize is refused too (ErrTooLarge):
// a string takes about as many bytes in CBOR as in JSON, so that JSON within MaxJSONSize (2 MiB
// by default) may be twice the size a CBOR record may have.
func JSONToCBOR(data []byte, opts ...Option) ([]byte, error) {
	v, err := UnmarshalJSON(data, opts...)
	if err != nil {
		return nil, err
	}
	out, err := MarshalCBOR(v, opts...)
	if err == nil {
		err = convertedSize(len(out), "DAG-CBOR", limitsOf(opts).MaxCBORSize)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CBORToJSON converts DAG-CBOR to compact atproto JSON in one call: UnmarshalCBOR, then
// MarshalJSON, both with opts. It converts any data-model value that JSON can represent: a map
// with a "$link" or "$bytes" key, which would read back as a link or bytes, is refused (ErrLink,
// ErrBytes). Output that UnmarshalJSON would refuse as larger than MaxJSONSize is refused too
// (ErrTooLarge): bytes grow by a third in base64, and a control character to six bytes.
func CBORToJSON(data []byte, opts ...Option) ([]byte, error) {
	v, err := UnmarshalCBOR(data, opts...)
	if err != nil {
		return nil, err
	}
	out, err := MarshalJSON(v, opts...)
	if err == nil {
		err = convertedSize(len(out), "JSON", limitsOf(opts).MaxJSONSize)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// convertedSize is the error for a conversion's output of n bytes in form, beyond limit, the
// size its decoder reads (nil within it).
func convertedSize(n int, form string, limit int) error {
	if n <= limit {
		return nil
	}
	return &Error{Err: ErrTooLarge, Offset: -1,
		Detail: "the " + form + " form would be " + overLimit(n, "bytes", limit) + ", more than its decoder reads"}
}
