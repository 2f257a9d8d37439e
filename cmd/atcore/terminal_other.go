//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package main

import "os"

// fileIsTerminal guesses whether f is a terminal where the CLI does not ask the kernel (see
// terminal_ioctl.go): a character device other than /dev/null, which is one too and a common
// target of redirections. Other character devices, such as /dev/zero, pass for terminals here.
func fileIsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
