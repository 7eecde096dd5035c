//go:build !linux

package run

// pinThread is unavailable where there is no sched_setaffinity.
func pinThread(cpus []int) error {
	return usagef("run: --pin is only supported on Linux (this platform has no sched_setaffinity): drop --pin")
}
