package delay

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/wine"
	"github.com/chronograph/chronograph/internal/wintimer"
)

// The calls of the Windows waits that golang.org/x/sys/windows has no
// wrapper for.
var (
	kernel32                   = windows.NewLazySystemDLL("kernel32.dll")
	procCreateWaitableTimerExW = kernel32.NewProc("CreateWaitableTimerExW")
	procSetWaitableTimer       = kernel32.NewProc("SetWaitableTimer")

	winmm               = windows.NewLazySystemDLL("winmm.dll")
	procTimeBeginPeriod = winmm.NewProc("timeBeginPeriod")
	procTimeEndPeriod   = winmm.NewProc("timeEndPeriod")

	ntdll                    = windows.NewLazySystemDLL("ntdll.dll")
	procNtDelayExecution     = ntdll.NewProc("NtDelayExecution")
	procNtSetTimerResolution = ntdll.NewProc("NtSetTimerResolution")
)

// nanotime is clock.QPC: QueryPerformanceCounter in nanoseconds. Go's
// own monotonic clock on windows is the interrupt time, which steps
// every timer period (0.5 to 15.6 ms): too coarse to time a wait or to
// spin on.
func nanotime() int64 {
	d, _ := clock.QPC() // qpcErr, checked once by newWindowsClock
	return int64(d)
}

// Timer resolutions are in 100 ns units, as the kernel keeps them.
const hundredNs = 100

// hundreds returns d (ns, > 0) in 100 ns units, rounded up: a wait is
// never asked to be shorter than requested.
func hundreds(ns int64) int64 { return (ns + hundredNs - 1) / hundredNs }

// timerResolution is the current system timer resolution in ns, -1 when
// it cannot be read or is not Windows's: under Wine the answer is Wine's
// (wintimer.Measured), and the document's environment says why its
// windows.timer_resolution_ns is unknown.
func timerResolution() int64 {
	v, _ := wine.Version()
	r, err := wintimer.Measured(v)
	if err != nil {
		return -1
	}
	return int64(r.Current)
}

// setTimerResolution requests (set) or releases the timer resolution res
// (ns) for this process (NtSetTimerResolution); it returns the resolution
// in force afterwards, in ns.
func setTimerResolution(res int64, set bool) (int64, error) {
	var cur uint32
	var s uintptr
	if set {
		s = 1
	}
	r, _, _ := syscall.SyscallN(procNtSetTimerResolution.Addr(), uintptr(hundreds(res)), s, uintptr(unsafe.Pointer(&cur)))
	if r != 0 {
		return 0, fmt.Errorf("NtSetTimerResolution(%d00 ns, %v): %w", hundreds(res), set, windows.NTStatus(r))
	}
	return int64(cur) * hundredNs, nil
}

// timePeriod calls timeBeginPeriod (begin) or timeEndPeriod with ms.
func timePeriod(ms uint32, begin bool) error {
	proc, name := procTimeEndPeriod, "timeEndPeriod"
	if begin {
		proc, name = procTimeBeginPeriod, "timeBeginPeriod"
	}
	if err := proc.Find(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if r, _, _ := syscall.SyscallN(proc.Addr(), uintptr(ms)); r != 0 {
		return fmt.Errorf("%s(%d) returned %d (TIMERR_NOCANDO: the period is out of range)", name, ms, r)
	}
	return nil
}

// ntDelay blocks the calling thread in NtDelayExecution for ns (> 0),
// rounded up to 100 ns (a negative interval is relative).
func ntDelay(ns int64) error {
	interval := -hundreds(ns)
	if r, _, _ := syscall.SyscallN(procNtDelayExecution.Addr(), 0, uintptr(unsafe.Pointer(&interval))); r != 0 {
		return fmt.Errorf("NtDelayExecution: %w", windows.NTStatus(r))
	}
	return nil
}

// Waitable timer flags and access (winbase.h, winnt.h).
const (
	createWaitableTimerHighResolution = 0x2      // CREATE_WAITABLE_TIMER_HIGH_RESOLUTION (Windows 10 1803)
	timerAllAccess                    = 0x1F0003 // TIMER_ALL_ACCESS
)

// newWaitableTimer creates an auto-reset waitable timer, high-resolution
// when highRes (CreateWaitableTimerExW fails with ERROR_INVALID_PARAMETER
// on Windows before 10 1803).
func newWaitableTimer(highRes bool) (windows.Handle, error) {
	var flags uintptr
	what := "CreateWaitableTimerExW"
	if highRes {
		flags = createWaitableTimerHighResolution
		what += "(CREATE_WAITABLE_TIMER_HIGH_RESOLUTION)"
	}
	h, _, e := syscall.SyscallN(procCreateWaitableTimerExW.Addr(), 0, 0, flags, timerAllAccess)
	if h == 0 {
		return 0, fmt.Errorf("%s: %w", what, e)
	}
	return windows.Handle(h), nil
}

// armTimer sets t to expire in ns (> 0), rounded up to 100 ns.
func armTimer(t windows.Handle, ns int64) error {
	due := -hundreds(ns)
	if r, _, e := syscall.SyscallN(procSetWaitableTimer.Addr(), uintptr(t), uintptr(unsafe.Pointer(&due)), 0, 0, 0, 0); r == 0 {
		return fmt.Errorf("SetWaitableTimer: %w", e)
	}
	return nil
}

// waitTimer arms t for ns and blocks the calling thread until it expires
// or, when stop is not 0, until stop is signalled (then errStopped).
func waitTimer(t, stop windows.Handle, ns int64) error {
	if err := armTimer(t, ns); err != nil {
		return err
	}
	handles := []windows.Handle{t}
	if stop != 0 {
		handles = append(handles, stop)
	}
	ev, err := windows.WaitForMultipleObjects(handles, false, windows.INFINITE)
	switch {
	case err != nil:
		return fmt.Errorf("WaitForMultipleObjects: %w", err)
	case ev == windows.WAIT_OBJECT_0:
		return nil
	case ev == windows.WAIT_OBJECT_0+1:
		return errStopped
	}
	return fmt.Errorf("WaitForMultipleObjects returned %#x", ev)
}

// coarseNow: time.Now's monotonic reading on windows is the interrupt
// time, which steps every timer period (see initCoarseBase).
const coarseNow = true
