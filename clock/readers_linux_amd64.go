//go:build linux && amd64

package clock

import "time"

// Read reads the clock (see POSIX). On linux/amd64 it is one call of an
// assembly function (readers_linux_amd64.s) that calls the vDSO itself:
// Read inlines, so there is no Go frame between the caller and the vDSO
// call, about 1 ns less than a Go function around it, which is a fifth
// of a COARSE read.
func (c POSIX) Read() (time.Duration, error) {
	ns, err := posixRead(c.id())
	return time.Duration(ns), err
}

// posixRead reads clock id through the vDSO (or with the system call
// when there is none), returning the error of readFailed when it fails.
// Implemented in readers_linux_amd64.s.
func posixRead(id int32) (ns int64, err error)

// vdsoClockGettimeFn is vdso.clockGettime, where the assembly reader loads
// it (0: no vDSO, the assembly makes the system call).
//
//lint:ignore U1000 read by readers_linux_amd64.s
var vdsoClockGettimeFn = vdso.clockGettime

// readFailed is called by the assembly reader when clock_gettime
// returned errno (negated).
func readFailed(id int32, errno int32) error { return readError(POSIX(id).String(), errno) }
