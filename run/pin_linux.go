//go:build linux

package run

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// pinThread sets the CPU affinity of the calling OS thread (which must be
// locked, and never unlocked afterwards) to cpus; children forked from
// this thread inherit it. With --pin of several CPUs it is called before
// each run with the run's one CPU (see Options.Pin).
func pinThread(cpus []int) error {
	var set unix.CPUSet
	for _, c := range cpus {
		if c < 0 || c >= len(set)*64 {
			return usagef("run: CPU %d is out of range: give CPU numbers from 0 to %d", c, len(set)*64-1)
		}
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("run: pinning to CPUs %v: %w (check the CPUs are online and allowed: see taskset -p $$)", cpus, err)
	}
	return nil
}
