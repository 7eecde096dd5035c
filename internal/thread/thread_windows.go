package thread

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// kernel32's thread calls that golang.org/x/sys/windows has no wrapper
// for.
var (
	kernel32                   = windows.NewLazySystemDLL("kernel32.dll")
	procSetThreadAffinityMask  = kernel32.NewProc("SetThreadAffinityMask")
	procGetProcessAffinityMask = kernel32.NewProc("GetProcessAffinityMask")
	procSetThreadPriority      = kernel32.NewProc("SetThreadPriority")
	procGetThreadPriority      = kernel32.NewProc("GetThreadPriority")
)

// ThreadPriorityTimeCritical is THREAD_PRIORITY_TIME_CRITICAL, the
// highest priority of a thread outside the real-time priority class
// (15; 31 in REALTIME_PRIORITY_CLASS).
const ThreadPriorityTimeCritical = 15

// mainThread is the id of the process's main thread: package
// initialization runs on it (the runtime keeps the main goroutine locked
// to the main thread until every init has run).
var mainThread = windows.GetCurrentThreadId()

// OnMain reports whether the calling thread is the process's main thread.
func OnMain() bool { return windows.GetCurrentThreadId() == mainThread }

// MaxCPU is the highest CPU number Pin accepts: an affinity mask covers
// one processor group of 64 logical processors (the group this process
// runs in).
const MaxCPU = 63

// mask returns the affinity mask of cpus.
func mask(cpus []int) (uintptr, error) {
	if len(cpus) == 0 {
		return 0, fmt.Errorf("thread: no CPU to pin to")
	}
	var m uintptr
	for _, c := range cpus {
		if c < 0 || c > MaxCPU {
			return 0, fmt.Errorf("thread: CPU %d is out of range (0 to %d)", c, MaxCPU)
		}
		m |= 1 << uint(c)
	}
	return m, nil
}

// Pin restricts the calling thread to cpus (SetThreadAffinityMask). The
// thread must be locked and never unlocked afterwards (use Go). Unlike
// Linux, processes it starts do not inherit the affinity: a child takes
// the process's.
func Pin(cpus ...int) error {
	m, err := mask(cpus)
	if err != nil {
		return err
	}
	// The previous mask, or 0 on failure (a CPU outside the process's
	// affinity is ERROR_INVALID_PARAMETER).
	if r, _, e := procSetThreadAffinityMask.Call(uintptr(windows.CurrentThread()), m); r == 0 {
		return fmt.Errorf("thread: pinning to CPUs %s (SetThreadAffinityMask): %w", List(cpus), e)
	}
	return nil
}

// Allowed returns the CPUs the process may run on (GetProcessAffinityMask),
// in increasing order.
func Allowed() ([]int, error) {
	var proc, system uintptr
	if r, _, e := procGetProcessAffinityMask.Call(uintptr(windows.CurrentProcess()),
		uintptr(unsafe.Pointer(&proc)), uintptr(unsafe.Pointer(&system))); r == 0 {
		return nil, fmt.Errorf("thread: GetProcessAffinityMask: %w", e)
	}
	var cpus []int
	for c := 0; c <= MaxCPU; c++ {
		if proc&(1<<uint(c)) != 0 {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// SetTimeCritical gives the calling thread THREAD_PRIORITY_TIME_CRITICAL
// (SetThreadPriority), Windows's nearest to SCHED_FIFO that needs no
// privilege. The thread must be locked and never unlocked afterwards.
func SetTimeCritical() error {
	if r, _, e := procSetThreadPriority.Call(uintptr(windows.CurrentThread()), ThreadPriorityTimeCritical); r == 0 {
		return fmt.Errorf("thread: SetThreadPriority(THREAD_PRIORITY_TIME_CRITICAL): %w", e)
	}
	return nil
}

// Priority returns the calling thread's priority (GetThreadPriority:
// -15 to 15 relative to its process's class).
func Priority() (int, error) {
	const errorReturn = 0x7fffffff // THREAD_PRIORITY_ERROR_RETURN
	r, _, e := procGetThreadPriority.Call(uintptr(windows.CurrentThread()))
	if int32(r) == errorReturn {
		return 0, fmt.Errorf("thread: GetThreadPriority: %w", e)
	}
	return int(int32(r)), nil
}

// errLinuxOnly says why a Linux thread setting is unavailable here.
var errLinuxOnly = errors.New("thread: SCHED_FIFO and timer slack are Linux features, not available on windows (the thread priority there is SetTimeCritical)")

// SetFIFO is Linux's: on windows use SetTimeCritical.
func SetFIFO(priority int) error { return errLinuxOnly }

// SetTimerSlack is Linux's.
func SetTimerSlack(ns int64) error { return errLinuxOnly }

// TimerSlack is Linux's.
func TimerSlack() (int64, error) { return 0, errLinuxOnly }
