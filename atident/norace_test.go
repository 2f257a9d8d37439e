//go:build !race

package atident

const raceEnabled = false
