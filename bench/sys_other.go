//go:build !linux

package bench

import (
	"fmt"
	"runtime"
)

// threadUsage is unavailable on this platform.
func threadUsage() (usage, bool) { return usage{}, false }

// pinThread is unavailable on this platform.
func pinThread(cpu int) error {
	return fmt.Errorf("bench: pinning to CPU %d is not supported on %s: run without Options.Pin", cpu, runtime.GOOS)
}

// allowedCPUs is unknown on this platform: the blocks run where the
// scheduler puts them.
func allowedCPUs() []int { return nil }
