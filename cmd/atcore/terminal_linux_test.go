package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// A pseudo-terminal is a terminal, on both its sides; json2cbor refuses to write CBOR to it, as
// to any terminal.
func TestPtyIsTerminal(t *testing.T) {
	master, slave := openPty(t)
	for _, f := range []*os.File{master, slave} {
		if !isTerminal(f) {
			t.Errorf("isTerminal(%s) = false", f.Name())
		}
	}
	var stderr bytes.Buffer
	code := run([]string{"json2cbor", "testdata/post.json"}, bytes.NewReader(nil), slave, &stderr)
	if code != exitUsage || !bytes.Contains(stderr.Bytes(), []byte("not writing binary CBOR to a terminal")) {
		t.Errorf("json2cbor to a pty: exit %d, stderr %q", code, stderr.String())
	}
}

// openPty opens a new pseudo-terminal through /dev/ptmx, as posix_openpt, unlockpt and ptsname
// do, and returns its two sides, closed at the end of the test. It skips the test where there
// is none to be had.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	var n uint32
	rc, err := master.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var errno syscall.Errno
	rc.Control(func(fd uintptr) {
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno == 0 {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n)))
		}
	})
	if errno != 0 {
		t.Skipf("no pseudo-terminal: unlocking /dev/ptmx: %v", errno)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}
