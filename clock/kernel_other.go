//go:build !linux

package clock

import (
	"fmt"
	"runtime"
)

// kernelTSCHz returns the TSC frequency the kernel reports; only Linux
// is supported.
func kernelTSCHz() (KernelTSC, error) {
	return KernelTSC{}, fmt.Errorf("clock: reading the kernel's TSC frequency is supported on Linux only, not %s: %w", runtime.GOOS, ErrUnavailable)
}

// readClocksource returns the kernel's clocksource; only Linux is
// supported.
func readClocksource() (Clocksource, error) {
	return Clocksource{}, fmt.Errorf("clock: the kernel clocksource is a Linux sysfs file, not available on %s: %w", runtime.GOOS, ErrUnavailable)
}
