package clock

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Go's clocks on windows/amd64 read KUSER_SHARED_DATA: runtime.nanotime1
// (runtime/sys_windows_amd64.s) loads its InterruptTime, in 100 ns units,
// which the kernel advances at each clock interrupt (every 15.6 ms by
// default, down to 0.5 ms while a process holds a finer timer
// resolution); time.Now adds its SystemTime.
const (
	goMonoPath    = PathSharedData
	goMonoBasis   = "by construction: the Go runtime's nanotime1 loads KUSER_SHARED_DATA.InterruptTime on windows (updated at each clock interrupt)"
	goNowBasis    = "by construction: the Go runtime's time.now loads KUSER_SHARED_DATA.SystemTime and InterruptTime on windows (updated at each clock interrupt)"
	goNominalNs   = 100
	goNominalFrom = "unit of KUSER_SHARED_DATA's times (100 ns)"
	goCoarse      = true
)

// The clock of ThreadCPU (ThreadCPUClock).
const (
	threadCPUName   = "GetThreadTimes"
	threadCPUUnitNs = 100
	threadCPUCoarse = true
)

// posixSources: Windows has no POSIX clocks (its own are
// platformSources).
func posixSources() []Source { return nil }

// threadCPU is GetThreadTimes of the calling thread, kernel plus user
// time: 100 ns units, charged at clock interrupts (see ThreadCPU).
func threadCPU() (int64, error) { return cpuTimes(procGetThreadTimes, windows.CurrentThread()) }

// processCPU is GetProcessTimes of this process, kernel plus user time.
func processCPU() (int64, error) { return cpuTimes(procGetProcessTimes, windows.CurrentProcess()) }

// cpuTimes is the kernel plus user time, in ns, that p (GetThreadTimes or
// GetProcessTimes, which take the same arguments) gives for h.
func cpuTimes(p *windows.LazyProc, h windows.Handle) (int64, error) {
	var c, e, k, u windows.Filetime
	r, _, errno := syscall.SyscallN(p.Addr(), uintptr(h),
		uintptr(unsafe.Pointer(&c)), uintptr(unsafe.Pointer(&e)), uintptr(unsafe.Pointer(&k)), uintptr(unsafe.Pointer(&u)))
	if r == 0 {
		return 0, cpuTimeError(p.Name, errno)
	}
	return (filetime(k) + filetime(u)) * 100, nil
}

// cpuTimeError is made only on failure (bench reads the thread's CPU time
// inside the window in which it counts a sample's allocations).
//
//go:noinline
func cpuTimeError(fn string, errno syscall.Errno) error {
	return fmt.Errorf("clock: %s: %w", fn, errno)
}

// filetime is a FILETIME as a count of 100 ns units.
func filetime(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }

// refName and refNanos are the reference clock of TSC calibrations on
// Windows: QueryPerformanceCounter (Go's monotonic clock advances in
// clock interrupts there).
const refName = "QueryPerformanceCounter"

func refNanos() (int64, error) {
	if qpcErr != nil {
		return 0, qpcErr
	}
	return qpcNow(), nil
}
