package datamodel

// JSONToCBOR converts atproto JSON to canonical DAG-CBOR in one call: UnmarshalJSON, then
// MarshalCBOR, both with opts, so that a raised MaxDepth or MaxCIDLen lets out what it let in. It
// converts any data-model value; a caller that wants a record checks it with ValidateRecord.
func JSONToCBOR(data []byte, opts ...Option) ([]byte, error) {
	v, err := UnmarshalJSON(data, opts...)
	if err != nil {
		return nil, err
	}
	return MarshalCBOR(v, opts...)
}

// CBORToJSON converts DAG-CBOR to compact atproto JSON in one call: UnmarshalCBOR, then
// MarshalJSON, both with opts. It converts any data-model value that JSON can represent: a map
// with a "$link" or "$bytes" key, which would read back as a link or bytes, is refused (ErrLink,
// ErrBytes).
func CBORToJSON(data []byte, opts ...Option) ([]byte, error) {
	v, err := UnmarshalCBOR(data, opts...)
	if err != nil {
		return nil, err
	}
	return MarshalJSON(v, opts...)
}
