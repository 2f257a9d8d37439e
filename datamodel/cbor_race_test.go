//go:build race

package datamodel

// cborRaceEnabled is true under the race detector, which makes sync.Pool drop items at random
// (so pooled buffers are sometimes reallocated) and adds its own allocations.
const cborRaceEnabled = true
