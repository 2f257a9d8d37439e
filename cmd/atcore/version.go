package main

import (
	"bufio"
	"flag"
	"runtime/debug"
)

// readBuildInfo is debug.ReadBuildInfo; tests replace it, since a test binary has no version.
var readBuildInfo = debug.ReadBuildInfo

var versionCommand = &command{
	name:     "version",
	synopsis: "",
	summary:  "show the version of atcore and of Go it was built with",
	doc: `
Prints one line of key=value fields, from what the Go toolchain recorded in the binary: the
module version ("(devel)" for a build from a checkout), the commit, its time and whether the
checkout had changes (for builds from a git checkout), and the Go version. "atcore -version"
is the same. Quote it in bug reports.`,
	example: `
$ atcore version
atcore version=v0.3.0 go=go1.26.0`,
	maxArgs: 0,
	setup: func(fs *flag.FlagSet) func(*call, []string) int {
		return func(c *call, _ []string) int {
			w := bufio.NewWriter(c.stdout)
			w.WriteString(versionLine() + "\n")
			return c.flush(w)
		}
	},
}

// versionLine describes the running binary: "atcore version=v1.2.3 go=go1.26.0", with the
// commit, its time and "modified=true" after the version when the build recorded them.
func versionLine() string {
	info, ok := readBuildInfo()
	if !ok {
		return "atcore version=unknown (built without module information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	s := "atcore version=" + version
	for _, key := range []string{"vcs.revision", "vcs.time", "vcs.modified"} {
		for _, setting := range info.Settings {
			if setting.Key == key {
				s += " " + key[len("vcs."):] + "=" + setting.Value
			}
		}
	}
	return s + " go=" + info.GoVersion
}
