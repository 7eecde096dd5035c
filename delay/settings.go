package delay

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/chronograph/chronograph/internal/thread"
)

// ThreadSettings are the per-thread conditions of a measuring thread
// (Study and LatencyTest apply them to threads they own and that exit
// locked afterwards, so they never leak to other goroutines).
type ThreadSettings struct {
	// Priority > 0 selects SCHED_FIFO at that priority (1..99) on Linux,
	// THREAD_PRIORITY_TIME_CRITICAL (whatever the value) on windows.
	Priority int
	// CPUs pins the thread to these CPUs (≥ 0): it may run on any of
	// them, as under taskset -c (SetThreadAffinityMask on windows, CPUs
	// 0 to 63). Empty: the thread is not pinned.
	CPUs []int
}

// PermissionError says that a setting was refused, why, and how to get it.
type PermissionError struct {
	Setting string // e.g. "SCHED_FIFO priority 80"
	Err     error  // the system's refusal
	Fix     string // what the user can do
}

func (e *PermissionError) Error() string {
	return fmt.Sprintf("delay: %s refused (%v): %s", e.Setting, e.Err, e.Fix)
}

func (e *PermissionError) Unwrap() error { return e.Err }

// ErrUnsupported is returned for settings and measurements this platform
// does not have.
var ErrUnsupported = errors.New("delay: not supported on this platform")

// maxCPU bounds the CPU numbers a setting may name (the size of the
// kernel's CPU mask that golang.org/x/sys/unix passes).
const maxCPU = 1024

// validate checks ranges before any system call.
func (s ThreadSettings) validate() error {
	if s.Priority < 0 || s.Priority > 99 {
		return fmt.Errorf("delay: SCHED_FIFO priority %d out of range (use 1..99, or 0 for the normal scheduler)", s.Priority)
	}
	for _, c := range s.CPUs {
		if c < 0 || c >= maxCPU {
			return fmt.Errorf("delay: CPU %d out of range (use a CPU number from 0 to %d)", c, maxCPU-1)
		}
	}
	return nil
}

// check tries s on a throwaway thread (which exits afterwards, taking the
// settings with it) and returns the refusal, if any: a preflight before a
// measurement that must not start without them.
func (s ThreadSettings) check() error {
	if err := s.validate(); err != nil {
		return err
	}
	errc := make(chan error, 1)
	thread.Go(func() { errc <- s.apply() }) // the thread exits with its settings
	return <-errc
}

// priorityWords names the setting a ThreadSettings.Priority p asks for,
// for messages: "SCHED_FIFO priority 80", on windows
// "THREAD_PRIORITY_TIME_CRITICAL".
func priorityWords(p int) string {
	if runtime.GOOS == "windows" {
		return "THREAD_PRIORITY_TIME_CRITICAL"
	}
	return fmt.Sprintf("SCHED_FIFO priority %d", p)
}
