//go:build linux

package thread

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// OnMain reports whether the calling thread is the process's main thread
// (its thread id is the process id).
func OnMain() bool { return unix.Gettid() == unix.Getpid() }

// MaxCPU is the highest CPU number Pin accepts (the size of the kernel's
// CPU set as x/sys/unix declares it, minus one).
const MaxCPU = len(unix.CPUSet{})*64 - 1

// Pin restricts the calling thread to cpus (sched_setaffinity). The
// thread must be locked and never unlocked afterwards (use Go); processes
// it starts inherit the affinity.
func Pin(cpus ...int) error {
	if len(cpus) == 0 {
		return fmt.Errorf("thread: no CPU to pin to")
	}
	var set unix.CPUSet
	for _, c := range cpus {
		if c < 0 || c > MaxCPU {
			return fmt.Errorf("thread: CPU %d is out of range (0 to %d)", c, MaxCPU)
		}
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("thread: pinning to CPUs %s: %w", List(cpus), err)
	}
	return nil
}

// Allowed returns the CPUs the process may run on (sched_getaffinity), in
// increasing order.
func Allowed() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("thread: sched_getaffinity: %w", err)
	}
	var cpus []int
	for c := 0; c <= MaxCPU; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// SetFIFO gives the calling thread the real-time policy SCHED_FIFO at
// priority (1-99). It needs root, CAP_SYS_NICE or RLIMIT_RTPRIO; the
// error then wraps EPERM.
func SetFIFO(priority int) error {
	if priority < 1 || priority > 99 {
		return fmt.Errorf("thread: SCHED_FIFO priority %d out of range (1 to 99)", priority)
	}
	attr := &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_FIFO, Priority: uint32(priority)}
	if err := unix.SchedSetAttr(0, attr, 0); err != nil {
		return fmt.Errorf("thread: setting SCHED_FIFO priority %d: %w", priority, err)
	}
	return nil
}

// SetTimerSlack sets the calling thread's timer slack in ns
// (prctl PR_SET_TIMERSLACK; 0 restores the thread's default).
func SetTimerSlack(ns int64) error {
	if ns < 0 {
		return fmt.Errorf("thread: timer slack %d ns is negative", ns)
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(ns), 0, 0, 0); err != nil {
		return fmt.Errorf("thread: prctl(PR_SET_TIMERSLACK, %d): %w", ns, err)
	}
	return nil
}

// TimerSlack returns the calling thread's timer slack in ns.
func TimerSlack() (int64, error) {
	v, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		return 0, fmt.Errorf("thread: prctl(PR_GET_TIMERSLACK): %w", err)
	}
	return int64(v), nil
}
