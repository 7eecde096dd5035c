//go:build !linux && !windows

package clock

// currentCPU is unknown where getcpu(2) does not exist.
func currentCPU() int { return -1 }
