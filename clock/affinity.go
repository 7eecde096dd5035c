package clock

import (
	"fmt"

	"github.com/chronograph/chronograph/internal/thread"
)

// allowedCPUs returns the CPUs the process may run on, or nil when this
// platform cannot tell.
func allowedCPUs() []int {
	cpus, _ := thread.Allowed()
	return cpus
}

// pinThread binds the calling thread to cpu. The goroutine must be locked
// to its thread and must exit locked (the runtime then discards the
// thread rather than reuse it with this affinity).
func pinThread(cpu int) error {
	if err := thread.Pin(cpu); err != nil {
		return fmt.Errorf("clock: binding a thread to CPU %d: %w", cpu, err)
	}
	return nil
}
