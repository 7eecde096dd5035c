package delay

import (
	"errors"
	"fmt"
)

// ThreadSettings are the per-thread conditions of a measuring thread
// (Study and LatencyTest apply them to threads they own and that exit
// locked afterwards, so they never leak to other goroutines).
type ThreadSettings struct {
	// Priority > 0 selects SCHED_FIFO at that priority (1..99).
	Priority int
	// Pin pins the thread to CPU (≥ 0); without Pin the thread is free.
	Pin bool
	CPU int
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
var ErrUnsupported = errors.New("delay: not supported on this platform (Linux only)")

// validate checks ranges before any system call.
func (s ThreadSettings) validate() error {
	if s.Priority < 0 || s.Priority > 99 {
		return fmt.Errorf("delay: SCHED_FIFO priority %d out of range (use 1..99, or 0 for the normal scheduler)", s.Priority)
	}
	if s.Pin && s.CPU < 0 {
		return fmt.Errorf("delay: CPU %d out of range (use a CPU number ≥ 0)", s.CPU)
	}
	return nil
}
