// Package peers measures atcore against the Go implementations people use today, on the same
// inputs in the same run, and checks that they agree where they should:
// github.com/bluesky-social/indigo (atproto/syntax, atproto/atdata, the cbor-gen generated
// api/bsky.FeedPost), github.com/ipld/go-ipld-prime (codec/dagcbor with basicnode) and plain
// github.com/fxamacker/cbor/v2.
//
// It is a separate module, so that none of the peers ever reaches the go.sum of atcore's users;
// the root module's go test ./... does not enter it. The package has no code of its own, only
// tests, benchmarks and fuzz targets:
//
//	go test ./...                                        # differential tests (CI runs these)
//	go test -run TestConformanceDocument -update         # rewrite ../../CONFORMANCE.md
//	./bench.sh                                           # rewrite ../../BENCHMARKS.md (~15 min)
//	go test -run XXX -fuzz FuzzCBORAgainstIPLD -fuzztime 60s
//
// Files: syntax comparisons in tid_*, rkey_* and ident_* (NSID, DID, handle, at-identifier,
// AT URI); DAG-CBOR in cbor_* (malformed inputs, random
// trees, benchmarks), atproto JSON in json_*, realistic records and interop fixtures in records_*,
// CIDs in cid_*, the typed FeedPost in feedpost_*, against a plain cbor-gen struct
// (package cborgenpeer) in cborgen_test.go; conformance_test.go writes CONFORMANCE.md and
// benchreport/ turns a benchmark run into BENCHMARKS.md's ratios.
package peers
