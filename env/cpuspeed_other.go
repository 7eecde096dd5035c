//go:build !linux

package env

// measureCPUSpeed is not available where threads cannot be pinned
// (capture reports cpu_speed as unknown off Linux).
func measureCPUSpeed(cpus []int) *CPUSpeed { return nil }
