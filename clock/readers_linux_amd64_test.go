package clock

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadFailed checks the error the assembly reader returns when the
// vDSO or the system call fails (which the kernels this runs on never
// do for these clocks): named after the clock, wrapping the errno.
func TestReadFailed(t *testing.T) {
	for c, name := range posixNames {
		err := readFailed(int32(c), -int32(unix.EINVAL))
		if !errors.Is(err, unix.EINVAL) || err.Error() != "clock: reading "+name+": invalid argument" {
			t.Errorf("clock %d: %v", c, err)
		}
	}
	if len(posixNames) != 7 {
		t.Errorf("%d clocks named, want the 7 constants'", len(posixNames))
	}
}
