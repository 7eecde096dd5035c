//go:build unix

package main

import "syscall"

// ownGroup is the process group of this test binary (which go test, and
// whatever started it, share): a test must never signal it.
func ownGroup() int { return syscall.Getpgrp() }
