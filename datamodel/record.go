package datamodel

import (
	"sync"

	cid "github.com/ipfs/go-cid"

	"github.com/atcore/atcore/cidutil"
)

// RecordCID returns the CID of v's canonical DAG-CBOR encoding: CIDv1, dag-cbor, sha2-256
// (DECISIONS rule 12), the CID a repository gives the record. v is any value MarshalCBOR accepts,
// normally a record (a map; see ValidateRecord); errors are MarshalCBOR's.
//
// The encoding is written into a pooled buffer and hashed there, so the call allocates only the
// CID.
func RecordCID(v any) (cid.Cid, error) {
	pooled := recordBufPool.Get().(*[]byte)
	buf, err := AppendCBOR((*pooled)[:0], v)
	var c cid.Cid
	if err == nil {
		c = cidutil.SumCBOR(buf)
	}
	if cap(buf) <= recordMaxPooledBuf {
		*pooled = buf[:0]
	}
	recordBufPool.Put(pooled)
	return c, err
}

// recordBufPool holds RecordCID's encoding buffers; recordMaxPooledBuf keeps one huge record from
// pinning its buffer in the pool.
var recordBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const recordMaxPooledBuf = 64 << 10
