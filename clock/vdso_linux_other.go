//go:build linux && !amd64

package clock

import (
	"errors"
	"runtime"
)

// This package calls the vDSO only on linux/amd64. On arm64 the kernel's
// vDSO has __kernel_clock_gettime (LINUX_2.6.39), and qemu-aarch64 10
// (Debian bookworm-backports) maps one for guests, so a call could be run
// and tested. But it would not be safe in a program built without cgo:
// on arm64 (and arm, loong64, ppc64, riscv64, s390x) the runtime's signal
// handler, when it finds the PC inside the vDSO, does not trust the g
// register (the vDSO may use it) and reads g from the bottom of the
// thread's signal stack, where the runtime's own vDSO calls
// (runtime·nanotime1) store it first (runtime.sigFetchG). Code outside
// the runtime cannot reach that slot (m.gsignal is private), so a signal
// arriving during our vDSO call (SIGCHLD, SIGURG, SIGPROF, a notified
// SIGINT) would find no g and, without cgo, end the program with "fatal:
// bad g in signal handler". On amd64 the handler takes g from
// thread-local storage, which the vDSO does not touch. So these clocks
// are read with the system call here, and labelled so.
const (
	vdsoCallable  = false
	vdsoArch      = runtime.GOARCH
	vdsoStackRoom = 0
)

var (
	vdsoClockGettimeSym = vdsoSymbol{"__kernel_clock_gettime", "LINUX_2.6.39"}
	vdsoGetcpuSym       = vdsoSymbol{}
	errVDSONotCalled    = errors.New("clock: this package calls the vDSO only on linux/amd64; on " + runtime.GOARCH +
		" the Go runtime's signal handler cannot find the goroutine of a signal that arrives during a vDSO call made outside the runtime " +
		"(it would be fatal without cgo), so the system call is used (C programs read these clocks through the vDSO)")
)

// clockCall is the system call here.
func clockCall(id int32) (int64, int32) { return clockGettimeErrno(id) }

func vdsoCPU() (int, bool) { return 0, false }

func vdsoStackUse(uintptr, int32) int64 { return 0 }
