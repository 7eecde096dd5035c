package wintimer

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

var procNtQueryTimerResolution = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtQueryTimerResolution")

func query() (Resolution, error) {
	if err := procNtQueryTimerResolution.Find(); err != nil {
		return Resolution{}, fmt.Errorf("wintimer: NtQueryTimerResolution cannot be called: %w", err)
	}
	var coarsest, finest, current uint32
	st, _, _ := syscall.SyscallN(procNtQueryTimerResolution.Addr(),
		uintptr(unsafe.Pointer(&coarsest)), uintptr(unsafe.Pointer(&finest)), uintptr(unsafe.Pointer(&current)))
	if st != 0 {
		return Resolution{}, fmt.Errorf("wintimer: NtQueryTimerResolution: %w", windows.NTStatus(st))
	}
	return Resolution{Coarsest: time.Duration(coarsest) * 100, Finest: time.Duration(finest) * 100, Current: time.Duration(current) * 100}, nil
}
