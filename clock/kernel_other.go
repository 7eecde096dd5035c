//go:build !linux

package clock

import (
	"fmt"
	"runtime"
)

// KernelTSCHz returns the TSC frequency the kernel reports; only Linux
// is supported.
func KernelTSCHz() (KernelTSC, error) {
	return KernelTSC{}, fmt.Errorf("clock: reading the kernel's TSC frequency is supported on Linux only, not %s: %w", runtime.GOOS, ErrUnavailable)
}

// ReadClocksource returns the kernel's clocksource; only Linux is
// supported.
func ReadClocksource() (Clocksource, error) {
	return Clocksource{}, fmt.Errorf("clock: the kernel clocksource is a Linux sysfs file, not available on %s: %w", runtime.GOOS, ErrUnavailable)
}
