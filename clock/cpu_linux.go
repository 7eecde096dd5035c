//go:build linux

package clock

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// currentCPU asks the vDSO's getcpu where there is one (linux/amd64: RDPID
// or the per-CPU segment limit, a few ns), else the getcpu(2) system call.
func currentCPU() int {
	if cpu, ok := vdsoCPU(); ok {
		return cpu
	}
	return syscallCPU()
}

// syscallCPU is getcpu(2).
func syscallCPU() int {
	var cpu uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); e != 0 {
		return -1
	}
	return int(cpu)
}
