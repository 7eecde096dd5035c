//go:build !linux

package env

import "runtime"

func capture() *Host {
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
