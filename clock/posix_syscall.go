//go:build (linux && !amd64) || darwin

package clock

import "golang.org/x/sys/unix"

// clockGettime is the clock_gettime system call (libc's on darwin).
func clockGettime(id int32) (int64, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0, err
	}
	return ts.Nano(), nil
}

// clockGettimeN reads clock id n times back to back, returning the last.
func clockGettimeN(id int32, n int) int64 {
	var ts unix.Timespec
	for range n {
		_ = unix.ClockGettime(id, &ts)
	}
	return ts.Nano()
}
