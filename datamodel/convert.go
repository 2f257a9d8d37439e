package datamodel

// JSONToCBOR converts atproto JSON to canonical DAG-CBOR in one call: UnmarshalJSON with opts,
// then MarshalCBOR. It converts any data-model value; a caller that wants a record checks it
// with ValidateRecord.
func JSONToCBOR(data []byte, opts ...Option) ([]byte, error) {
	v, err := UnmarshalJSON(data, opts...)
	if err != nil {
		return nil, err
	}
	return MarshalCBOR(v)
}
