//go:build linux

package clock

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// currentCPU asks the kernel with getcpu(2).
func currentCPU() int {
	var cpu uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); e != 0 {
		return -1
	}
	return int(cpu)
}
