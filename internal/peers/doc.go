// Package peers measures atcore against the Go implementations people use today
// (indigo, go-ipld-prime, fxamacker/cbor) and checks that they agree where they should.
//
// It is a separate module so that none of the peers ever reaches the go.sum of atcore's users.
package peers
