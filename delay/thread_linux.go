//go:build linux

package delay

import "golang.org/x/sys/unix"

// onMainThread reports whether the calling thread is the process's main
// thread (its thread id is the process id).
func onMainThread() bool { return unix.Gettid() == unix.Getpid() }
