//go:build linux || darwin

package clock

import (
	"fmt"

	"golang.org/x/sys/unix"
)

func threadCPU() (int64, error) {
	ns, err := clockGettime(unix.CLOCK_THREAD_CPUTIME_ID)
	if err != nil {
		return 0, fmt.Errorf("clock: reading CLOCK_THREAD_CPUTIME_ID: %w", err)
	}
	return ns, nil
}

func processCPU() (int64, error) {
	ns, err := clockGettime(unix.CLOCK_PROCESS_CPUTIME_ID)
	if err != nil {
		return 0, fmt.Errorf("clock: reading CLOCK_PROCESS_CPUTIME_ID: %w", err)
	}
	return ns, nil
}

// errnoError turns clockCall's negated errno into an error.
//
//go:noinline
func errnoError(e int32) error { return unix.Errno(-e) }
