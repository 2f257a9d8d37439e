// Package cidutil computes, parses and checks the content identifiers (CIDs) of the AT Protocol
// data model (https://atproto.com/specs/data-model, "Link and CID Formats"), strictly.
//
// What the library creates is always the blessed form of DECISIONS rule 12 (in the module's
// DECISIONS.md): CIDv1, sha2-256 with 32 bytes, codec dag-cbor (0x71) for data and raw (0x55) for
// blobs, printed in base32 ("b…"):
//
//	c := cidutil.SumCBOR(recordBytes)     // bafyrei…
//	b := cidutil.SumRaw(imageBytes)       // bafkrei…
//
// AppendSumCBOR and AppendSumRaw append the 36-byte binary CID to a buffer instead, without
// allocating: for MST nodes, CAR files and keys, where a cid.Cid per record is not needed.
// AppendString writes a CID's string (the bytes of its String method) into a buffer, for encoders.
//
// What it reads may be any well-formed CIDv1, kept byte for byte: ParseBinary for the payload of
// a DAG-CBOR tag 42, ParseString for a JSON {"$link": …}, AppendBinaryString to read the string
// into a buffer of one's own without allocating. CIDv0 is never valid. ParseBlessed and IsBlessed
// check the blessed form; CheckSyntax is the loose string syntax check of the atproto conformance
// vectors. Verify checks data against the CID that names it.
//
// The CID type is go-cid's cid.Cid. Its own parsers are lenient in ways that matter here:
// cid.Decode accepts CIDv0 and any multibase, cid.Cast reads a bare "12 20 …" multihash as CIDv0
// and accepts truncated digests, and the zero value cid.Undef prints as "b" and reports version 1.
// This package's readers do not share those behaviours: they reject CIDv0 and cid.Undef, and
// IsBlessed insists on a full 32-byte sha2-256 digest. (AppendString, a writer, prints any cid.Cid
// as String does.)
//
// Every error about a CID or the data it names is an *Error, shaped as the module's other syntax
// errors: the kind of input, a bounded copy of it (for strings), its length, the byte offset where
// one applies, the reason, and a sentinel (ErrInvalid, ErrNotBlessed, ErrMismatch, ErrUnsupported)
// to test with errors.Is. Its message reads "invalid CID "<input>": <reason>". The readers of a
// stream (SumRawReader, VerifyReader) return their io.Reader's errors as they are.
//
// The package has no mutable state; all its functions are safe for concurrent use.
package cidutil
