package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Stand-ins for a terminal on standard input or output.
type (
	ttyReader struct{ io.Reader }
	ttyWriter struct{ io.Writer }
)

// withTerminals makes isTerminal recognize the stand-ins for the duration of the test.
func withTerminals(t *testing.T) {
	saved := isTerminal
	isTerminal = func(f any) bool {
		switch f.(type) {
		case ttyReader, ttyWriter:
			return true
		}
		return false
	}
	t.Cleanup(func() { isTerminal = saved })
}

func TestTerminalInput(t *testing.T) {
	withTerminals(t)
	for _, args := range [][]string{{"tid", "inspect"}, {"tid", "inspect", "-"}, {"validate"}, {"cid", "-"}} {
		var stdout, stderr bytes.Buffer
		code := run(args, ttyReader{strings.NewReader("")}, &stdout, &stderr)
		want := "atcore " + lookupName(args)
		if !strings.HasPrefix(stderr.String(), want+": reading standard input from the terminal (end with Ctrl-D)\n") {
			t.Errorf("%v on a terminal: exit %d, stderr %q; want a note first", args, code, stderr.String())
		}
	}
	// Arguments, or a pipe, need no note.
	var stderr bytes.Buffer
	if code := run([]string{"tid", "inspect", "2222222222222"}, ttyReader{strings.NewReader("")}, io.Discard, &stderr); code != exitOK || stderr.Len() != 0 {
		t.Errorf("tid inspect with an argument, stdin a terminal: exit %d, stderr %q", code, stderr.String())
	}
	if r := atcore([]byte("2222222222222\n"), "tid", "inspect"); r.code != exitOK || r.stderr != "" {
		t.Errorf("tid inspect from a pipe: exit %d, stderr %q", r.code, r.stderr)
	}
}

// lookupName returns the name of the command args run.
func lookupName(args []string) string {
	if c, _ := lookup(args[0], args[1:]); c != nil {
		return c.name
	}
	return ""
}

func TestBinaryOutputToTerminal(t *testing.T) {
	withTerminals(t)
	in := []byte(`{"a": 1}`)
	var stdout, stderr bytes.Buffer
	code := run([]string{"json2cbor"}, bytes.NewReader(in), ttyWriter{&stdout}, &stderr)
	want := "atcore json2cbor: not writing binary CBOR to a terminal; redirect it, or use -o FILE or -force\n" +
		"Run \"atcore help json2cbor\" for its usage.\n"
	if code != exitUsage || stdout.Len() != 0 || stderr.String() != want {
		t.Errorf("json2cbor to a terminal: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	code = run([]string{"json2cbor", "-force"}, bytes.NewReader(in), ttyWriter{&stdout}, &stderr)
	if code != exitOK || !bytes.Equal(stdout.Bytes(), unhex("a1 6161 01")) || stderr.Len() != 0 {
		t.Errorf("json2cbor -force to a terminal: exit %d, stdout %x, stderr %q", code, stdout.Bytes(), stderr.String())
	}

	out := filepath.Join(t.TempDir(), "out.cbor")
	stdout.Reset()
	code = run([]string{"json2cbor", "-o", out}, bytes.NewReader(in), ttyWriter{&stdout}, &stderr)
	got, err := os.ReadFile(out)
	if code != exitOK || err != nil || !bytes.Equal(got, unhex("a1 6161 01")) || stdout.Len() != 0 || stderr.Len() != 0 {
		t.Errorf("json2cbor -o FILE: exit %d, file %x (%v), stdout %q, stderr %q", code, got, err, stdout.String(), stderr.String())
	}

	// "-o -" is standard output, refused on a terminal as without -o, and written with -force.
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"json2cbor", "-o", "-"}, bytes.NewReader(in), ttyWriter{&stdout}, &stderr)
	if code != exitUsage || stdout.Len() != 0 || stderr.String() != want {
		t.Errorf("json2cbor -o - to a terminal: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	code = run([]string{"json2cbor", "-o", "-", "-force"}, bytes.NewReader(in), ttyWriter{&stdout}, &stderr)
	if code != exitOK || !bytes.Equal(stdout.Bytes(), unhex("a1 6161 01")) || stderr.Len() != 0 {
		t.Errorf("json2cbor -o - -force to a terminal: exit %d, stdout %x, stderr %q", code, stdout.Bytes(), stderr.String())
	}
	if _, err := os.Stat("-"); err == nil {
		t.Errorf("json2cbor -o - wrote a file named \"-\"")
	}

	// Text output is fine on a terminal.
	stderr.Reset()
	if code := run([]string{"cbor2json"}, bytes.NewReader(unhex("a1 6161 01")), ttyWriter{&stdout}, &stderr); code != exitOK || stderr.Len() != 0 {
		t.Errorf("cbor2json to a terminal: exit %d, stderr %q", code, stderr.String())
	}
}

// /dev/null is a character device, like a terminal, but is no terminal: output redirected to it
// must not be refused.
func TestDevNullIsNoTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true", os.DevNull)
	}
	if isTerminal(bytes.NewBuffer(nil)) {
		t.Error("isTerminal(a buffer) = true")
	}
}
