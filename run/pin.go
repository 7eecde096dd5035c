package run

import (
	"fmt"
	"runtime"

	"github.com/chronograph/chronograph/internal/thread"
)

// pinThread sets the CPU affinity of the calling OS thread (which must be
// locked, and never unlocked afterwards) to cpus; children forked from
// this thread inherit it. With --pin of several CPUs it is called before
// each run with the run's one CPU (see Options.Pin).
func pinThread(cpus []int) error {
	if runtime.GOOS != "linux" {
		return usagef("run: --pin is only supported on Linux (this platform has no sched_setaffinity): drop --pin")
	}
	for _, c := range cpus {
		if c < 0 || c > thread.MaxCPU {
			return usagef("run: CPU %d is out of range: give CPU numbers from 0 to %d", c, thread.MaxCPU)
		}
	}
	if err := thread.Pin(cpus...); err != nil {
		return fmt.Errorf("run: %w (check the CPUs are online and allowed: see taskset -p $$)", err)
	}
	return nil
}
