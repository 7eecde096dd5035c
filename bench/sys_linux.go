//go:build linux

package bench

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// threadUsage reads the calling thread's context switches and page faults
// (getrusage RUSAGE_THREAD); ok is false when unavailable.
func threadUsage() (u usage, ok bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return u, false
	}
	return usage{
		VolCtxSw:   ru.Nvcsw,
		InvolCtxSw: ru.Nivcsw,
		MinFlt:     ru.Minflt,
		MajFlt:     ru.Majflt,
	}, true
}

// pinThread restricts the calling (locked) thread to cpu.
func pinThread(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("bench: pin to CPU %d: %w (pick a CPU from the process's affinity, see taskset -p)", cpu, err)
	}
	return nil
}

// allowedCPUs returns the CPUs the process may run on
// (sched_getaffinity), or nil when they cannot be read.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}
