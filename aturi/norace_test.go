//go:build !race

package aturi

const raceEnabled = false
