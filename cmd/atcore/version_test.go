package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	saved := readBuildInfo
	t.Cleanup(func() { readBuildInfo = saved })
	tests := []struct {
		rule string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"go install ...@version", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}}, true,
			"atcore version=v1.2.3 go=go1.26.0"},
		{"go build in a git checkout", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, {Key: "vcs.revision", Value: "e5c2623"},
				{Key: "vcs.time", Value: "2026-11-23T14:50:53Z"}, {Key: "GOOS", Value: "linux"}}}, true,
			"atcore version=(devel) revision=e5c2623 time=2026-11-23T14:50:53Z modified=true go=go1.26.0"},
		{"no module version", &debug.BuildInfo{GoVersion: "go1.26.0"}, true, "atcore version=(devel) go=go1.26.0"},
		{"no build info", nil, false, "atcore version=unknown (built without module information)"},
	}
	for _, tt := range tests {
		readBuildInfo = func() (*debug.BuildInfo, bool) { return tt.info, tt.ok }
		if got := versionLine(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.rule, got, tt.want)
		}
	}
}
