//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Character devices that are not terminals are not taken for one, nor are pipes and files: the
// kernel is asked (terminal_ioctl.go), not the file mode.
func TestNoTerminal(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	regular, err := os.Create(filepath.Join(t.TempDir(), "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	for _, tc := range []struct {
		rule string
		file *os.File
	}{
		{"/dev/null, a character device", openDevice(t, os.DevNull)},
		{"/dev/zero, a character device", openDevice(t, "/dev/zero")},
		{"/dev/urandom, a character device", openDevice(t, "/dev/urandom")},
		{"the read end of a pipe", pr},
		{"the write end of a pipe", pw},
		{"a regular file", regular},
	} {
		if isTerminal(tc.file) {
			t.Errorf("%s: isTerminal(%s) = true", tc.rule, tc.file.Name())
		}
	}
}

// openDevice opens a device for reading and writing, closed at the end of the test.
func openDevice(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// Binary output to /dev/zero is written, not refused as if to a terminal, and input read from
// /dev/urandom gets no note about typing at a terminal.
func TestCharDeviceCommands(t *testing.T) {
	var stderr bytes.Buffer
	code := run([]string{"json2cbor", "testdata/post.json"}, strings.NewReader(""), openDevice(t, "/dev/zero"), &stderr)
	if code != exitOK || stderr.Len() != 0 {
		t.Errorf("json2cbor > /dev/zero: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	code = run([]string{"validate"}, openDevice(t, "/dev/urandom"), &bytes.Buffer{}, &stderr)
	if code != exitData || strings.Contains(stderr.String(), "terminal") || !strings.Contains(stderr.String(), "input larger than the limit") {
		t.Errorf("validate < /dev/urandom: exit %d, stderr %q", code, stderr.String())
	}
}
