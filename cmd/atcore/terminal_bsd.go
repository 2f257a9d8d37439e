//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "syscall"

// ioctlReadTermios is the ioctl that reads a terminal's attributes (tcgetattr).
const ioctlReadTermios = syscall.TIOCGETA
