package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain gives the tests a fixed build info: a test binary records no version, and the
// version's golden output and help example must not depend on the Go that runs the tests.
func TestMain(m *testing.M) {
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/atcore/atcore", Version: "v0.3.0"}}, true
	}
	os.Exit(m.Run())
}
