//go:build linux && !amd64

package clock

import (
	"errors"
	"runtime"
)

// This package calls the vDSO only on linux/amd64. On arm64 the kernel's
// vDSO has __kernel_clock_gettime (LINUX_2.6.39), and a call from Go
// assembly would follow the runtime's sys_linux_arm64.s, but it has not
// been run on an arm64 Linux host (nor under an emulator that maps a
// vDSO), so it is not shipped untested: these clocks are read with the
// system call here, and labelled so.
const (
	vdsoCallable  = false
	vdsoArch      = runtime.GOARCH
	vdsoStackRoom = 0
)

var (
	vdsoClockGettimeSym = vdsoSymbol{"__kernel_clock_gettime", "LINUX_2.6.39"}
	vdsoGetcpuSym       = vdsoSymbol{}
	errVDSONotCalled    = errors.New("clock: this package calls the vDSO only on linux/amd64; on " + runtime.GOARCH +
		" the call has not been tested on real hardware, so the system call is used (C programs read these clocks through the vDSO)")
)

// clockCall is the system call here.
func clockCall(id int32) (int64, int32) { return clockGettimeErrno(id) }

func vdsoCPU() (int, bool) { return 0, false }

func vdsoStackUse(uintptr, int32) int64 { return 0 }
