//go:build race

package atident

// raceEnabled is true under the race detector, which adds allocations of its own: the tests that
// count allocations on failure paths skip their comparison then.
const raceEnabled = true
