//go:build !linux

package run

import "fmt"

func pinThread(cpus []int) error {
	return fmt.Errorf("run: --pin is only supported on Linux (this platform has no sched_setaffinity): drop --pin")
}
