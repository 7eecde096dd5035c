//go:build linux

package clock

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// allowedCPUs returns the CPUs the process may run on.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for i := range 1024 {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return cpus
}

// pinThread binds the calling thread to cpu. The goroutine must be locked
// to its thread and must exit locked (the runtime then discards the
// thread rather than reuse it with this affinity).
func pinThread(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("clock: binding a thread to CPU %d: %w", cpu, err)
	}
	return nil
}
