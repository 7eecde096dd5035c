package clock

import "syscall"

// currentCPU is GetCurrentProcessorNumber: the calling thread's processor
// within its processor group (a user-space read on current Windows; Wine
// answers it from the Linux CPU the thread runs on).
func currentCPU() int {
	if procGetCurrentProcessorNumber.Find() != nil {
		return -1
	}
	r, _, _ := syscall.SyscallN(procGetCurrentProcessorNumber.Addr())
	return int(uint32(r))
}
