//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// fileIsTerminal asks the kernel whether f is a terminal: reading its terminal attributes
// succeeds only on one (isatty does the same). Not every character device is a terminal:
// /dev/null, /dev/zero and /dev/urandom are not. The descriptor is reached through SyscallConn,
// because File.Fd would put it in blocking mode.
func fileIsTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	err = rc.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlReadTermios, uintptr(unsafe.Pointer(&t)))
	})
	return err == nil && errno == 0
}
