//go:build !linux

package clock

import (
	"fmt"
	"runtime"
)

// allowedCPUs is not known off Linux.
func allowedCPUs() []int { return nil }

func pinThread(cpu int) error {
	return fmt.Errorf("clock: binding a thread to a CPU is not supported on %s: %w", runtime.GOOS, ErrUnavailable)
}
