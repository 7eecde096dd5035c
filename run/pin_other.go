//go:build !linux

package run

func pinThread(cpus []int) error {
	return usagef("run: --pin is only supported on Linux (this platform has no sched_setaffinity): drop --pin")
}
