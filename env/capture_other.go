//go:build !linux && !windows

package env

import "runtime"

// capture ignores its Options: the one thing they leave out, the CPU
// speed, is not measured here.
func capture(Options) *Host {
	h := &Host{Go: goInfo(), Process: processInfo()}
	markUnsupported(h, runtime.GOOS)
	if cpuidFunc != nil {
		_, _, ecx, _ := cpuidFunc(1, 0)
		on := ecx&(1<<31) != 0
		h.CPU.Hypervisor = &on
	}
	h.Warnings = warnings(h)
	return h
}
