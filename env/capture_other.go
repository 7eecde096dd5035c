//go:build !linux

package env

import "runtime"

func capture() *Host {
	h := &Host{Go: goInfo(), Process: processInfo()}
	reason := "not supported on " + runtime.GOOS + ": env reads the CPU, frequency, kernel and scheduler state from Linux's /proc and /sys"
	for _, k := range []string{"cpu", "frequency", "system", "scheduler", "process.affinity", "process.cgroup"} {
		h.setUnknown(k, reason)
	}
	if cpuidFunc != nil {
		_, _, ecx, _ := cpuidFunc(1, 0)
		on := ecx&(1<<31) != 0
		h.CPU.Hypervisor = &on
	}
	h.Warnings = Warnings(h)
	return h
}
