//go:build (linux && !amd64) || darwin

package clock

import "golang.org/x/sys/unix"

// clockGettimeErrno is clockGettime with the error as a negated errno
// (clockCall's convention).
func clockGettimeErrno(id int32) (int64, int32) {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		if e, ok := err.(unix.Errno); ok {
			return 0, -int32(e)
		}
		return 0, -int32(unix.EINVAL)
	}
	return ts.Nano(), 0
}
