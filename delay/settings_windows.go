package delay

import (
	"errors"
	"fmt"

	"github.com/chronograph/chronograph/internal/thread"
	"golang.org/x/sys/windows"
)

// Injectable system calls (tests force refusals through them).
var (
	setTimeCritical = thread.SetTimeCritical
	pinCPUs         = thread.Pin
)

// apply applies s to the calling thread, which must be locked (and must
// never be unlocked afterwards). On windows a Priority > 0 is
// THREAD_PRIORITY_TIME_CRITICAL (the highest below the real-time class,
// needing no privilege), whatever its value; pinning is
// SetThreadAffinityMask.
func (s ThreadSettings) apply() error {
	if err := s.validate(); err != nil {
		return err
	}
	if len(s.CPUs) > 0 {
		for _, c := range s.CPUs {
			if c > thread.MaxCPU {
				return fmt.Errorf("delay: cannot pin to CPU %d: an affinity mask holds CPUs 0 to %d on windows", c, thread.MaxCPU)
			}
		}
		if err := pinCPUs(s.CPUs...); err != nil {
			if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
				return fmt.Errorf("delay: cannot pin to %s (%v): pick CPUs this process may use (Task Manager, Details, Set affinity)", cpuWords(s.CPUs), err)
			}
			return &PermissionError{Setting: "pinning to " + cpuWords(s.CPUs), Err: err,
				Fix: "check the process's affinity (start /affinity, or its job object)"}
		}
	}
	if s.Priority > 0 {
		if err := setTimeCritical(); err != nil {
			if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
				return &PermissionError{Setting: "THREAD_PRIORITY_TIME_CRITICAL", Err: err,
					Fix: "run chrono outside the job or sandbox that forbids raising a thread's priority"}
			}
			return fmt.Errorf("delay: %w", err)
		}
	}
	return nil
}
