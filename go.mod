module github.com/atcore/atcore

go 1.24.0

require (
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/ipfs/go-cid v0.4.1
	github.com/multiformats/go-multihash v0.2.3
	github.com/rivo/uniseg v0.4.7
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/minio/sha256-simd v1.0.1 // indirect
	github.com/mr-tron/base58 v1.3.0 // indirect
	github.com/multiformats/go-base32 v0.1.0 // indirect
	github.com/multiformats/go-base36 v0.2.0 // indirect
	github.com/multiformats/go-multibase v0.2.0 // indirect
	github.com/multiformats/go-varint v0.1.0 // indirect
	github.com/spaolacci/murmur3 v1.1.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/crypto v0.48.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	lukechampine.com/blake3 v1.4.1 // indirect
)
